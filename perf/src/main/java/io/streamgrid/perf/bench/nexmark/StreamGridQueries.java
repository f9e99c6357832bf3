package io.streamgrid.perf.bench.nexmark;

import io.streamgrid.jobs.join.StreamJoin;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.LongKeyContext;
import io.streamgrid.jobs.keyed.LongKeyedFunction;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.pipeline.JobDefinition;
import io.streamgrid.jobs.pipeline.ResultHandler;
import io.streamgrid.jobs.pipeline.StateWriter;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.window.Aggregations;
import io.streamgrid.jobs.window.Counter;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.nexmark.NexmarkQuery;

import java.util.List;
import java.util.Optional;

import static io.streamgrid.perf.bench.nexmark.NexmarkSchemas.*;

/**
 * The NEXMark queries as a StreamGrid user writes them, on the public job API alone: keyed
 * functions over the schema logs, whose rows go to {@link ResultRows#STREAMGRID} (the member runs
 * in the benchmark's JVM) instead of a state map, as Flink's and Jet's go to their sinks.
 */
final class StreamGridQueries {
    /** The bids come in event order per partition; the partitions are merged within this disorder. */
    private static final TimePolicy IN_ORDER = TimePolicy.of(0, 0);
    /** How far apart in event time a re-keyed log's copies may arrive. */
    static final long REKEYED_DISORDER_MS = 120_000;

    private StreamGridQueries() {
    }

    /** The jobs that compute {@code query}, or empty when StreamGrid's version is not built yet. */
    static Optional<List<JobDefinition>> jobs(final NexmarkQuery query) {
        return switch (query) {
            case Q0 -> Optional.of(List.of(bids("nexmark-q0", new PassThrough())));
            case Q1 -> Optional.of(List.of(bids("nexmark-q1", new CurrencyConversion())));
            case Q2 -> Optional.of(List.of(bids("nexmark-q2", new Selection())));
            case Q11 -> Optional.of(List.of(StreamJoin.rekey("nexmark-bids-by-bidder", BID, BID_BY_BIDDER), sessions()));
            default -> Optional.empty();
        };
    }

    /**
     * Q11 reads the bids re-keyed by bidder. Their copies reach each partition of that log in the
     * order the re-keying job's two processors write them, which drift apart by seconds of event
     * time when they drain a backlog: the sessions allow that much disorder.
     */
    private static JobDefinition sessions() {
        return WindowedJob.builder("nexmark-q11", BID_BY_BIDDER)
                .session(NexmarkQuery.SESSION_GAP_MS)
                .time(TimePolicy.of(REKEYED_DISORDER_MS, 0))
                .aggregate(Aggregations.count())
                .handledBy(job -> new SessionRows());
    }

    /** The logs {@code query}'s jobs write and read after them, emptied before each run (a re-keyed copy). */
    static List<EventSchema> derivedLogs(final NexmarkQuery query) {
        return query == NexmarkQuery.Q11 ? List.of(BID_BY_BIDDER) : List.of();
    }

    /** Q11's rows: each session as it closes. */
    static final class SessionRows implements ResultHandler<Counter> {
        @Override
        public void onWindow(final long bidder, final long start, final long end, final Counter count, final int updateSequence,
                             final boolean afterWatermark, final StateWriter out) {
            ResultRows.STREAMGRID.add(NexmarkQuery.sessionRow(bidder, count.value(), start, end));
        }

        @Override
        public void onRetract(final long bidder, final long start, final StateWriter out) {
            throw new IllegalStateException("session " + bidder + "@" + start + " retracted: the benchmark allows no late merges");
        }
    }

    private static JobDefinition bids(final String name, final LongKeyedFunction<Void> function) {
        return KeyedJob.<Void>builder(name, BID).longKeyed(function).state(StateCodec.none()).time(IN_ORDER).build();
    }

    /** Q0. */
    static final class PassThrough implements LongKeyedFunction<Void> {
        @Override
        public void onEvent(final SchemaRecord bid, final LongKeyContext<Void> context) {
            ResultRows.STREAMGRID.add(NexmarkQuery.bidRow(context.longKey(), bid.get(BID_BIDDER), bid.get(BID_PRICE), bid.get(BID_TIME)));
        }
    }

    /** Q1. */
    static final class CurrencyConversion implements LongKeyedFunction<Void> {
        @Override
        public void onEvent(final SchemaRecord bid, final LongKeyContext<Void> context) {
            ResultRows.STREAMGRID.add(NexmarkQuery.bidRow(context.longKey(), bid.get(BID_BIDDER),
                    NexmarkQuery.euroCents(bid.get(BID_PRICE)), bid.get(BID_TIME)));
        }
    }

    /** Q2. */
    static final class Selection implements LongKeyedFunction<Void> {
        @Override
        public void onEvent(final SchemaRecord bid, final LongKeyContext<Void> context) {
            final long auction = context.longKey();
            if (auction % NexmarkQuery.Q2_MODULUS == 0) {
                ResultRows.STREAMGRID.add(NexmarkQuery.selectionRow(auction, bid.get(BID_PRICE)));
            }
        }
    }
}
