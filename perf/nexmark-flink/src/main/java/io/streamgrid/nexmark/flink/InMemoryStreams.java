package io.streamgrid.nexmark.flink;

import io.streamgrid.nexmark.Auction;
import io.streamgrid.nexmark.Bid;
import io.streamgrid.nexmark.NexmarkGenerator;
import io.streamgrid.nexmark.PacedRun;
import io.streamgrid.nexmark.Person;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

/**
 * The three NEXMark streams generated into this JVM's memory before a job starts (the job's
 * MiniCluster runs in the same JVM), read by Flink sources without generating anything: Flink's
 * figure is its own processing, not the generator's.
 *
 * <p>Each source has {@code parallelism} readers. Flink splits a source's index range into that
 * many contiguous ranges; reader {@code r}'s range is mapped to the stream's elements
 * {@code r, r + p, r + 2p, …}, so every reader moves through event time in step with the others
 * (contiguous halves would put one reader's events all after the other's, and every window of the
 * later half would wait in state for the earlier half's watermark).
 */
final class InMemoryStreams {
    static Person[] persons = new Person[0];
    static Auction[] auctions = new Auction[0];
    static Bid[] bids = new Bid[0];
    /** When the first event was read, and when the CPU clock read then: the measured run starts there. */
    static final AtomicLong FIRST_READ_NANOS = new AtomicLong();
    static final AtomicLong CPU_AT_FIRST_READ_NANOS = new AtomicLong();
    /** A paced run's clock (each event read when its time is due) or {@code null}: read as fast as the job takes them. */
    static volatile PacedRun pacing;

    private InMemoryStreams() {
    }

    /** Generates events {@code 0 .. events-1}, keeping the kinds asked for. */
    static void generate(final NexmarkGenerator generator, final long events, final boolean withPersons, final boolean withAuctions,
                         final boolean withBids) {
        persons = withPersons ? fill(new Person[(int) NexmarkGenerator.personsBefore(events)], generator::person) : new Person[0];
        auctions = withAuctions ? fill(new Auction[(int) NexmarkGenerator.auctionsBefore(events)], generator::auction) : new Auction[0];
        bids = withBids ? fill(new Bid[(int) NexmarkGenerator.bidsBefore(events)], generator::bid) : new Bid[0];
    }

    private static <T> T[] fill(final T[] out, final LongFunction<T> element) {
        for (int i = 0; i < out.length; i++) {
            out[i] = element.apply(i);
        }
        return out;
    }

    static DataStream<Person> persons(final StreamExecutionEnvironment env, final int parallelism) {
        return source(env, "persons", persons.length, parallelism, i -> persons[i], Person::dateTime, TypeInformation.of(Person.class));
    }

    static DataStream<Auction> auctions(final StreamExecutionEnvironment env, final int parallelism) {
        return source(env, "auctions", auctions.length, parallelism, i -> auctions[i], Auction::dateTime,
                TypeInformation.of(Auction.class));
    }

    static DataStream<Bid> bids(final StreamExecutionEnvironment env, final int parallelism) {
        return source(env, "bids", bids.length, parallelism, i -> bids[i], Bid::dateTime, TypeInformation.of(Bid.class));
    }

    /** Serializable element lookups (the arrays are static: the MiniCluster shares this JVM). */
    interface Element<T> extends java.io.Serializable {
        T at(int index);
    }

    interface Time<T> extends java.io.Serializable {
        long of(T event);
    }

    private static <T> DataStream<T> source(final StreamExecutionEnvironment env, final String name, final int length,
                                            final int parallelism, final Element<T> element, final Time<T> time,
                                            final TypeInformation<T> type) {
        if (length % parallelism != 0) {
            throw new IllegalArgumentException(name + ": " + length + " events do not divide among " + parallelism
                    + " readers; ask for a multiple of " + NexmarkGenerator.CYCLE + " × the parallelism");
        }
        final long perReader = length / parallelism;
        final GeneratorFunction<Long, T> lane = index -> {
            if (FIRST_READ_NANOS.get() == 0 && FIRST_READ_NANOS.compareAndSet(0, System.nanoTime())) {
                CPU_AT_FIRST_READ_NANOS.set(cpuNanos());
            }
            final long reader = index / perReader;
            final long step = index % perReader;
            final T event = element.at((int) (step * parallelism + reader));
            final PacedRun paced = pacing;
            if (paced != null) {
                paced.start();
                paced.awaitRelease(time.of(event));
            }
            return event;
        };
        final DataGeneratorSource<T> source = new DataGeneratorSource<>(lane, perReader * parallelism, type);
        return env.fromSource(source, WatermarkStrategy.<T>forMonotonousTimestamps().withTimestampAssigner((event, ts) -> time.of(event)),
                name).setParallelism(parallelism);
    }

    /** This process's CPU time so far. */
    static long cpuNanos() {
        return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
    }
}
