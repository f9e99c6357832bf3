package io.streamgrid.nexmark.flink;

import io.streamgrid.nexmark.NexmarkQuery;
import io.streamgrid.nexmark.PacedRun;
import io.streamgrid.nexmark.ResultFingerprint;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where a query's rows go: each writer folds the row hashes it receives into a
 * {@link ResultFingerprint} and adds it to the JVM-wide total when its input ends (the MiniCluster
 * shares this JVM). In a paced run each row's latency is recorded too, its due time taken from its
 * Flink timestamp (the event's, or the window's last millisecond).
 */
final class FingerprintSink implements Sink<Long> {
    /**
     * What a row's Flink timestamp lacks of its due time: a window's result is stamped with the
     * window's last millisecond, one before its end.
     */
    private final long dueShiftMs;

    /** A sink for {@code query}'s rows. */
    FingerprintSink(final NexmarkQuery query) {
        // Q8's rows (a window join) carry only their window's end too: see NexmarkQuery's due times.
        this.dueShiftMs = query.dueAtWindowEnd() || query == NexmarkQuery.Q8 ? 1 : 0;
    }

    static final AtomicReference<ResultFingerprint> TOTAL = new AtomicReference<>(ResultFingerprint.EMPTY);
    /** When the last writer finished and the CPU clock then: the measured run ends there. */
    static final AtomicLong LAST_DONE_NANOS = new AtomicLong();
    static final AtomicLong CPU_AT_LAST_DONE_NANOS = new AtomicLong();

    @Override
    public SinkWriter<Long> createWriter(final WriterInitContext context) {
        return new SinkWriter<>() {
            private long rows;
            private long sumA;
            private long sumB;

            @Override
            public void write(final Long row, final Context context) {
                final PacedRun paced = InMemoryStreams.pacing;
                if (paced != null) {
                    paced.record(context.timestamp() + dueShiftMs);
                }
                rows++;
                sumA += ResultFingerprint.a(row);
                sumB += ResultFingerprint.b(row);
            }

            @Override
            public void flush(final boolean endOfInput) {
                if (!endOfInput) {
                    return;
                }
                final ResultFingerprint mine = new ResultFingerprint(rows, sumA, sumB);
                TOTAL.accumulateAndGet(mine, ResultFingerprint::plus);
                rows = 0;
                sumA = 0;
                sumB = 0;
                LAST_DONE_NANOS.set(System.nanoTime());
                CPU_AT_LAST_DONE_NANOS.set(InMemoryStreams.cpuNanos());
            }

            @Override
            public void close() {
            }
        };
    }
}
