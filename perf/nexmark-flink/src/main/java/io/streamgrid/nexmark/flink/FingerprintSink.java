package io.streamgrid.nexmark.flink;

import io.streamgrid.nexmark.ResultFingerprint;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where a query's rows go: each writer folds the canonical rows it receives into a
 * {@link ResultFingerprint} and adds it to the JVM-wide total when its input ends (the MiniCluster
 * shares this JVM). {@link #latestPerKey} keeps, per key, only the row with the highest version
 * (a running aggregate's final value: Q4).
 */
final class FingerprintSink implements Sink<String> {
    static final AtomicReference<ResultFingerprint> TOTAL = new AtomicReference<>(ResultFingerprint.EMPTY);
    /** When the last writer finished and the CPU clock then: the measured run ends there. */
    static final AtomicLong LAST_DONE_NANOS = new AtomicLong();
    static final AtomicLong CPU_AT_LAST_DONE_NANOS = new AtomicLong();

    private final boolean latestPerKey;

    private FingerprintSink(final boolean latestPerKey) {
        this.latestPerKey = latestPerKey;
    }

    /** Every row counts. */
    static FingerprintSink rows() {
        return new FingerprintSink(false);
    }

    /**
     * Rows {@code key,version,…}: per key the row of the highest version counts, once (the
     * version is the second field, a number).
     */
    static FingerprintSink latestPerKey() {
        return new FingerprintSink(true);
    }

    @Override
    public SinkWriter<String> createWriter(final WriterInitContext context) {
        return new SinkWriter<>() {
            private ResultFingerprint fingerprint = ResultFingerprint.EMPTY;
            private final Map<String, String> latest = new HashMap<>();
            private final Map<String, Long> versions = new HashMap<>();

            @Override
            public void write(final String row, final Context ignored) {
                if (!latestPerKey) {
                    fingerprint = fingerprint.plus(ResultFingerprint.of(row));
                    return;
                }
                final String[] parts = row.split(",", 3);
                final long version = Long.parseLong(parts[1]);
                if (version > versions.getOrDefault(parts[0], Long.MIN_VALUE)) {
                    versions.put(parts[0], version);
                    latest.put(parts[0], row);
                }
            }

            @Override
            public void flush(final boolean endOfInput) {
                if (!endOfInput) {
                    return;
                }
                ResultFingerprint mine = fingerprint;
                for (final String row : latest.values()) {
                    mine = mine.plus(ResultFingerprint.of(row));
                }
                final ResultFingerprint done = mine;
                TOTAL.accumulateAndGet(done, ResultFingerprint::plus);
                fingerprint = ResultFingerprint.EMPTY;
                latest.clear();
                LAST_DONE_NANOS.set(System.nanoTime());
                CPU_AT_LAST_DONE_NANOS.set(InMemoryStreams.cpuNanos());
            }

            @Override
            public void close() {
            }
        };
    }
}
