package io.streamgrid.perf.bench;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.client.Subscription;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cq.Where;
import io.streamgrid.jobs.usecase.IpWindowCount;
import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.Benchmark;
import io.streamgrid.perf.OpenLoop;
import io.streamgrid.perf.report.BenchResult;
import io.streamgrid.perf.report.Environment;
import io.streamgrid.perf.report.GoalCheck;
import io.streamgrid.perf.report.LatencyProfile;
import io.streamgrid.perf.report.Ratio;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SynchronizedHistogram;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A slow subscriber and the writer: the writer's latency (from a write's scheduled time to its
 * acknowledgement) with nobody listening, with a StreamGrid subscription whose listener sleeps
 * 1 ms per delta, and with a plain entry listener that sleeps 1 ms per event — the figure the old
 * SlowSubscriberTest printed, measured here instead of asserted.
 *
 * <p>Design: 2 member processes; one writing client at {@value #RATE} setAsync/s (open loop,
 * parked between writes) over {@link CqWorkload#KEYS} keys; the listener asks for
 * {@code count < 50} (half of the writes: 2,500 a second, more than a listener sleeping 1 ms can
 * take, so it falls further behind all the time). Each phase uses a fresh map and a fresh
 * listening client, which is shut down at the end of the phase whatever it still holds. The three
 * subjects take turns over several rounds (one in a quick run) and each subject's latencies are the
 * union of its rounds: on a shared 2-core machine a single phase per subject mostly measures which
 * subject met the noisy minute (nobody's write p99 went from 7 ms to 52 ms between two runs).
 */
public final class SlowSubscriberBench implements Benchmark {
    private static final int RATE = 5_000;
    private static final String WHERE = "count < 50";

    @Override
    public String name() {
        return "cq-slow-subscriber";
    }

    @Override
    public String title() {
        return "a slow subscriber and the writer: write latency with nobody, a slow StreamGrid subscription, a slow entry listener";
    }

    private enum Kind {
        NOBODY("nobody listening"),
        OURS("slow StreamGrid subscription"),
        LISTENER("slow entry listener with predicate");

        final String label;

        Kind(final String label) {
            this.label = label;
        }
    }

    @Override
    public BenchResult run(final BenchContext context) throws Exception {
        final Duration warmUp = context.pick(Duration.ofSeconds(5), Duration.ofSeconds(10));
        final Duration measured = context.pick(Duration.ofSeconds(10), Duration.ofSeconds(20));
        final int rounds = context.pick(1, 3);
        final List<String> notes = new ArrayList<>();
        final Histogram[] acknowledged = new Histogram[Kind.values().length];
        for (final Kind kind : Kind.values()) {
            acknowledged[kind.ordinal()] = OpenLoop.newHistogram();
        }
        final long[] issued = new long[Kind.values().length];
        final double[] memberCores = new double[Kind.values().length];
        try (LocalCluster cluster = LocalCluster.builder().members(2).memberHeap("1g")
                .workDir(context.workDir().resolve("cluster")).progress(context::progress).start()) {
            final HazelcastInstance writer = cluster.newClient();
            int mapId = 0;
            for (int round = 1; round <= rounds; round++) {
                for (final Kind kind : Kind.values()) {
                    final String phase = String.format(Locale.ROOT, "round %d/%d, %s", round, rounds, kind.label);
                    final Phase done = measure(context, cluster, writer, kind, phase, "state.bench-slow-" + mapId++, warmUp, measured, notes);
                    acknowledged[kind.ordinal()].add(done.acknowledged());
                    issued[kind.ordinal()] += done.issued();
                    memberCores[kind.ordinal()] += done.memberCores() / rounds;
                }
            }
        }
        final List<LatencyProfile> latencies = new ArrayList<>();
        for (final Kind kind : Kind.values()) {
            // "lost" here: writes of the phases not acknowledged within a second of their end.
            final Histogram all = acknowledged[kind.ordinal()];
            final LatencyProfile profile = LatencyProfile.ofNanos(kind.label, "write → ack", RATE, all,
                    issued[kind.ordinal()] - all.getTotalCount());
            final String summary = String.format(Locale.ROOT, "%s, %d round(s): write p50 %.0f µs, p99 %.0f µs, p99.9 %.0f µs; "
                    + "members used %.2f cores on average", kind.label, rounds, profile.p50Us(), profile.p99Us(), profile.p999Us(),
                    memberCores[kind.ordinal()]);
            context.progress(summary);
            notes.add(summary + ".");
            latencies.add(profile);
        }
        final double oursCores = memberCores[Kind.OURS.ordinal()];
        final double listenerCores = memberCores[Kind.LISTENER.ordinal()];
        final double nobodyCores = memberCores[Kind.NOBODY.ordinal()];
        context.emptyWorkDir();
        final LatencyProfile nobody = latencies.get(0);
        final LatencyProfile ours = latencies.get(1);
        final LatencyProfile listener = latencies.get(2);
        return new BenchResult(name(), title(), String.format(Locale.ROOT,
                "2 member processes (1 GB heap each, state map with sync backup and event journal), the writing and the "
                        + "listening client in the benchmark JVM, all on 2 cores; members' CPU = their process CPU time over the "
                        + "measured phase. setAsync at %,d writes/s over %,d keys; "
                        + "latency from each write's scheduled time to its acknowledgement. The listener asks for `%s` "
                        + "(half of the writes) and sleeps 1 ms per delta or event. %d s warm-up, %d s measured per phase; "
                        + "the three subjects take turns over %d round(s), each subject's latencies are those of all its rounds.",
                        RATE, CqWorkload.KEYS, WHERE, warmUp.toSeconds(), measured.toSeconds(), rounds),
                context.pick("quick", "full"), Instant.now().toString(), Environment.current(), List.of(), latencies,
                List.of(Ratio.of("slow StreamGrid subscription / nobody, write p99", ours.p99Us(), nobody.p99Us(),
                                "1: a slow subscriber costs the writer nothing"),
                        Ratio.of("slow entry listener / nobody, write p99", listener.p99Us(), nobody.p99Us(),
                                "the same for a plain Hazelcast listener"),
                        Ratio.of("slow StreamGrid subscription / slow entry listener, write p99", ours.p99Us(), listener.p99Us(),
                                "below 1: our slow subscriber costs the writer less"),
                        Ratio.of("slow StreamGrid subscription / slow entry listener, members' CPU", oursCores, listenerCores,
                                "below 1: our slow subscriber costs the members less"),
                        Ratio.of("slow StreamGrid subscription / nobody, members' CPU", oursCores, nobodyCores,
                                "1: a slow subscriber costs the members nothing")),
                List.of(GoalCheck.of("A slow subscriber costs the writer no more than a slow entry listener (write p99)",
                        ours.p99Us() <= listener.p99Us(), String.format(Locale.ROOT,
                                "write p99 %.0f µs with a slow subscription, %.0f µs with a slow listener, %.0f µs with nobody",
                                ours.p99Us(), listener.p99Us(), nobody.p99Us()))),
                withLostExplained(notes));
    }

    private static List<String> withLostExplained(final List<String> notes) {
        final List<String> all = new ArrayList<>(notes);
        all.add("Lost counts writes of the measured phases not acknowledged within a second of their end.");
        all.add("Both listeners sleep 1 ms per call, but Hazelcast calls an entry listener on several client event threads "
                + "at once (events of a partition in order), while a subscription delivers on its one thread (every delta in "
                + "write order per key): the listener takes several times as many events per second. A subscription whose buffer "
                + "is full stops reading and goes on where it stopped as its listener makes room (a partition "
                + "resynchronises only if its journal was overwritten meanwhile); the listener's events queue in the client.");
        return all;
    }

    /** One phase: its write → ack latencies, how many writes it issued and the cores the members used meanwhile. */
    private record Phase(Histogram acknowledged, long issued, double memberCores) {
    }

    private static Phase measure(final BenchContext context, final LocalCluster cluster, final HazelcastInstance writerClient,
                                 final Kind kind, final String phase, final String map, final Duration warmUp, final Duration measured,
                                 final List<String> notes) throws Exception {
        final IMap<Long, IpWindowCount> writes = writerClient.getMap(map);
        final AtomicLong received = new AtomicLong();
        final Histogram acknowledged = new SynchronizedHistogram(3);
        final AtomicBoolean recording = new AtomicBoolean();
        final long[] nextSequence = {0};
        final OpenLoop.Operation write = (sequence, scheduled) -> {
            final int written = (int) nextSequence[0]++;
            CqWorkload.write(writes, written, scheduled)
                    .whenComplete((done, error) -> {
                        if (error == null && recording.get()) {
                            acknowledged.recordValue(Math.max(0, System.nanoTime() - scheduled));
                        }
                    });
        };
        final AutoCloseable listening = listen(cluster, kind, map, received);
        final long issued;
        final double memberCores;
        try {
            context.progress(phase + ": warm-up " + warmUp.toSeconds() + " s");
            OpenLoop.run(RATE, warmUp, write, OpenLoop.newHistogram(), OpenLoop.Wait.PARK);
            recording.set(true);
            context.progress(phase + ": measuring " + measured.toSeconds() + " s");
            final Histogram issueLag = OpenLoop.newHistogram();
            final long cpuBefore = ProcessCpu.members(cluster);
            final long start = System.nanoTime();
            issued = OpenLoop.run(RATE, measured, write, issueLag, OpenLoop.Wait.PARK);
            memberCores = (ProcessCpu.members(cluster) - cpuBefore) / (double) (System.nanoTime() - start);
            Thread.sleep(1_000); // the last acknowledgements
            recording.set(false);
            final String note = String.format(Locale.ROOT, "%s: %,d writes issued in %d s (%,.0f/s scheduled), setAsync issued "
                            + "%.0f µs after its schedule at p99; the listener had received %,d deltas or events",
                    phase, issued, measured.toSeconds(), (double) RATE, issueLag.getValueAtPercentile(99) / 1e3, received.get());
            context.progress("  " + note);
            notes.add(note + (listening instanceof SubscriptionCounters counters ? "; " + counters.describe() : "") + ".");
        } finally {
            listening.close();
            writes.destroy();
        }
        final Histogram copy = acknowledged.copy();
        context.progress(String.format(Locale.ROOT, "%s: write p50 %.0f µs, p99 %.0f µs; members used %.2f cores", phase,
                copy.getValueAtPercentile(50) / 1e3, copy.getValueAtPercentile(99) / 1e3, memberCores));
        return new Phase(copy, issued, memberCores);
    }

    /** A listening subscription that can say what it went through. */
    private interface SubscriptionCounters extends AutoCloseable {
        String describe();
    }

    private static AutoCloseable listen(final LocalCluster cluster, final Kind kind, final String map, final AtomicLong received) {
        return switch (kind) {
            case NOBODY -> () -> { };
            case LISTENER -> {
                final HazelcastInstance client = cluster.newClient();
                @SuppressWarnings({"unchecked", "rawtypes"})
                final com.hazelcast.query.Predicate<Long, IpWindowCount> where = (com.hazelcast.query.Predicate) Where.parse(WHERE);
                client.<Long, IpWindowCount>getMap(map).addEntryListener(new CqWorkload.ValueListener(value -> {
                    received.incrementAndGet();
                    sleepOneMillisecond();
                }), where, true);
                yield client::shutdown;
            }
            case OURS -> {
                final StreamGridClient client = StreamGridClient.connect(cluster.clientSettings());
                final Subscription subscription = CqWorkload.subscribeValues(client, map, WHERE, value -> {
                    received.incrementAndGet();
                    sleepOneMillisecond();
                });
                yield new SubscriptionCounters() {
                    @Override
                    public String describe() {
                        return subscription.overflows() + " buffer overflows, " + subscription.resyncs() + " resyncs";
                    }

                    @Override
                    public void close() {
                        subscription.close();
                        client.close();
                    }
                };
            }
        };
    }

    private static void sleepOneMillisecond() {
        try {
            Thread.sleep(1);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
