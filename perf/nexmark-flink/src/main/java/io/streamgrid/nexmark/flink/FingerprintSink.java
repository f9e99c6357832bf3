package io.streamgrid.nexmark.flink;

import io.streamgrid.nexmark.ResultFingerprint;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where a query's rows go: each writer folds the row hashes it receives into a
 * {@link ResultFingerprint} and adds it to the JVM-wide total when its input ends (the MiniCluster
 * shares this JVM).
 */
final class FingerprintSink implements Sink<Long> {
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
            public void write(final Long row, final Context ignored) {
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
