package io.streamgrid.perf.bench;

import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import io.streamgrid.client.Delta;
import io.streamgrid.client.DeltaListener;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.client.Subscription;
import io.streamgrid.client.SubscriptionOptions;
import io.streamgrid.jobs.usecase.IpWindowCount;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SynchronizedHistogram;

import java.util.BitSet;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * What the continuous-query benchmarks write and how they count deliveries. Each write is an
 * {@link IpWindowCount} whose {@code windowStart} carries its scheduled time (nanoTime of this JVM)
 * and whose {@code updateSequence} numbers it, with {@code count = key % 100}: a predicate on
 * {@code count} picks a known share of the writes, and every delivery knows which write it is.
 */
final class CqWorkload {
    static final int KEYS = 10_000;

    private CqWorkload() {
    }

    /** The key of write number {@code sequence}: keys in turn, so each key's count stays the same. */
    static long keyOf(final long sequence) {
        return sequence % KEYS;
    }

    /** The {@code count} field of the values of {@code key}. */
    static long countOf(final long key) {
        return key % 100;
    }

    /** Writes write number {@code sequence}, scheduled at {@code scheduledNanos}, without waiting for it; returns its acknowledgement. */
    static CompletionStage<Void> write(final IMap<Long, IpWindowCount> map, final int sequence, final long scheduledNanos) {
        final long key = keyOf(sequence);
        return map.setAsync(key, new IpWindowCount("10.0.0.1", scheduledNanos, 0, countOf(key), sequence, false));
    }

    /** Deliveries of one phase: latency from the write's schedule, and which writes arrived. */
    static final class Deliveries {
        final Histogram latency = new SynchronizedHistogram(3);
        private final BitSet seen = new BitSet();
        /** Writes before this sequence are warm-up: neither timed nor counted. */
        volatile long firstMeasured = Long.MAX_VALUE;

        void accept(final IpWindowCount value) {
            final int sequence = value.updateSequence();
            if (sequence < firstMeasured) {
                return;
            }
            latency.recordValue(Math.max(0, System.nanoTime() - value.windowStart()));
            synchronized (seen) {
                seen.set(sequence);
            }
        }

        int seenCount() {
            synchronized (seen) {
                return seen.cardinality();
            }
        }

        /** How many of {@code expected} never arrived. */
        int missing(final BitSet expected) {
            final BitSet missing = (BitSet) expected.clone();
            synchronized (seen) {
                missing.andNot(seen);
            }
            return missing.cardinality();
        }
    }

    /** A StreamGrid subscription to {@code where} on {@code map} passing each delta's value on (LEAVE included). */
    static Subscription subscribeValues(final StreamGridClient client, final String map, final String where,
                                        final Consumer<IpWindowCount> onValue) {
        return client.subscribe(map, where, new DeltaListener() {
            @Override
            public void onSnapshot(final Map<Object, Object> entries) {
            }

            @Override
            public void onDelta(final Delta delta) {
                if (delta.value() instanceof IpWindowCount value) {
                    onValue.accept(value);
                }
            }
        }, SubscriptionOptions.defaults());
    }

    /** A plain Hazelcast entry listener passing the value of every added or updated entry on. */
    record ValueListener(Consumer<IpWindowCount> onValue)
            implements EntryAddedListener<Long, IpWindowCount>, EntryUpdatedListener<Long, IpWindowCount> {
        @Override
        public void entryAdded(final com.hazelcast.core.EntryEvent<Long, IpWindowCount> event) {
            onValue.accept(event.getValue());
        }

        @Override
        public void entryUpdated(final com.hazelcast.core.EntryEvent<Long, IpWindowCount> event) {
            onValue.accept(event.getValue());
        }
    }
}
