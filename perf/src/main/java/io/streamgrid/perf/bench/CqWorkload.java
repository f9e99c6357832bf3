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
import java.util.concurrent.atomic.AtomicLongArray;
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

    /**
     * Deliveries of one phase: latency from the write's schedule and which writes arrived as their
     * own delivery; and staleness — for each write, the time from its schedule until a delivery of
     * its key carried it or a newer write (what a conflated subscriber's view needs).
     */
    static final class Deliveries {
        final Histogram latency = new SynchronizedHistogram(3);
        final Histogram staleness = new SynchronizedHistogram(3);
        private final BitSet seen = new BitSet();
        private final BitSet covered = new BitSet();
        /** Each write's scheduled time, by sequence (0: not recorded; sequences beyond the array are not timed). */
        private final AtomicLongArray scheduledAt;
        /** Writes before this sequence are warm-up: neither timed nor counted. */
        volatile long firstMeasured = Long.MAX_VALUE;

        /** Deliveries without staleness timing of skipped writes (every subject delivers each write). */
        Deliveries() {
            this(0);
        }

        /** @param sequences how many write sequences the phase may number (for staleness) */
        Deliveries(final int sequences) {
            scheduledAt = new AtomicLongArray(sequences);
        }

        /** Write {@code sequence} is scheduled at {@code nanos}. */
        void scheduled(final int sequence, final long nanos) {
            if (sequence < scheduledAt.length()) {
                scheduledAt.set(sequence, nanos);
            }
        }

        void accept(final IpWindowCount value) {
            final int sequence = value.updateSequence();
            if (sequence < firstMeasured) {
                return;
            }
            final long now = System.nanoTime();
            latency.recordValue(Math.max(0, now - value.windowStart()));
            synchronized (seen) {
                seen.set(sequence);
            }
            // This write and every earlier write of its key not yet covered are in the view now.
            synchronized (covered) {
                for (long s = sequence; s >= firstMeasured && !covered.get((int) s); s -= KEYS) {
                    covered.set((int) s);
                    final long at = s < scheduledAt.length() ? scheduledAt.get((int) s) : 0;
                    staleness.recordValue(Math.max(0, now - (at != 0 ? at : value.windowStart())));
                }
            }
        }

        int seenCount() {
            synchronized (seen) {
                return seen.cardinality();
            }
        }

        int coveredCount() {
            synchronized (covered) {
                return covered.cardinality();
            }
        }

        /** How many of {@code expected} never arrived as their own delivery. */
        int missing(final BitSet expected) {
            final BitSet missing = (BitSet) expected.clone();
            synchronized (seen) {
                missing.andNot(seen);
            }
            return missing.cardinality();
        }

        /** How many of {@code expected} no delivery of their key ever carried, nor a newer write of it. */
        int uncovered(final BitSet expected) {
            final BitSet missing = (BitSet) expected.clone();
            synchronized (covered) {
                missing.andNot(covered);
            }
            return missing.cardinality();
        }
    }

    /** A StreamGrid subscription to {@code where} on {@code map} passing each delta's value on (LEAVE included). */
    static Subscription subscribeValues(final StreamGridClient client, final String map, final String where,
                                        final Consumer<IpWindowCount> onValue) {
        return subscribeValues(client, map, where, onValue, SubscriptionOptions.defaults());
    }

    /** As {@link #subscribeValues(StreamGridClient, String, String, Consumer)}, delivering as {@code options} say. */
    static Subscription subscribeValues(final StreamGridClient client, final String map, final String where,
                                        final Consumer<IpWindowCount> onValue, final SubscriptionOptions options) {
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
        }, options);
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
