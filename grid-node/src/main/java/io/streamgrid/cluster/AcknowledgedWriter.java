package io.streamgrid.cluster;

import com.hazelcast.map.IMap;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A load that proves no write is lost: one thread sets keys {@code 0..keys-1} round-robin to
 * increasing versions and records each key's last acknowledged version. The stored value is
 * {@link #valueOf(int, long) version * keys + key}: unique per key, so a value that landed under the
 * wrong key is caught too, and increasing per key, so a reader can check that none goes back.
 * A write that fails is retried with the same value until acknowledged (setting the same value
 * again is idempotent), so once the writer has stopped the map must hold exactly the last
 * acknowledged value of every key. Used by the demo and by the failure and migration tests.
 */
public final class AcknowledgedWriter implements AutoCloseable {
    private static final long RETRY_LIMIT_NANOS = 60_000_000_000L;
    private final IMap<Integer, Long> map;
    private final AtomicLongArray acknowledged;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean running = true;
    private volatile long writes;
    private volatile long retries;

    public AcknowledgedWriter(final IMap<Integer, Long> map, final int keys) {
        this.map = map;
        this.acknowledged = new AtomicLongArray(keys);
        this.thread = new Thread(this::writeLoop, "acknowledged-writer-" + map.getName());
        this.thread.setDaemon(true);
    }

    /** Writes version 1 of every key in batches of 1,000, then returns; for a known start state. */
    public AcknowledgedWriter fill() {
        final int batch = 1_000;
        final int keys = acknowledged.length();
        for (int from = 0; from < keys; from += batch) {
            final Map<Integer, Long> values = new HashMap<>();
            for (int key = from; key < Math.min(from + batch, keys); key++) {
                values.put(key, valueOf(key, 1));
            }
            map.putAll(values);
            for (final int key : values.keySet()) {
                acknowledged.set(key, 1);
            }
            writes += values.size();
        }
        return this;
    }

    /** The value stored by version {@code version} of {@code key}. */
    public long valueOf(final int key, final long version) {
        return version * acknowledged.length() + key;
    }

    /** The version that {@code value} encodes. */
    public long versionOf(final long value) {
        return value / acknowledged.length();
    }

    public AcknowledgedWriter start() {
        thread.start();
        return this;
    }

    /** Acknowledged writes so far (fill included). */
    public long writes() {
        return writes;
    }

    /** Writes that failed at first and were retried (a sign of member loss or migration). */
    public long retries() {
        return retries;
    }

    /**
     * Stops the writer and waits for it.
     *
     * @throws IllegalStateException if the writer thread died of an unexpected error
     */
    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join();
        final Throwable error = failure.get();
        if (error != null) {
            throw new IllegalStateException("writer failed", error);
        }
    }

    /**
     * Reads every key back and compares it with its last acknowledged value. Call after
     * {@link #close()}.
     */
    public Verification verify() {
        int found = 0;
        int lost = 0;
        int wrong = 0;
        final int batch = 1_000;
        for (int from = 0; from < acknowledged.length(); from += batch) {
            final Set<Integer> keys = new HashSet<>();
            for (int key = from; key < Math.min(from + batch, acknowledged.length()); key++) {
                keys.add(key);
            }
            final Map<Integer, Long> values = map.getAll(keys);
            for (final int key : keys) {
                final Long value = values.get(key);
                if (value == null) {
                    lost++;
                } else {
                    found++;
                    if (value != valueOf(key, acknowledged.get(key))) {
                        wrong++;
                    }
                }
            }
        }
        return new Verification(acknowledged.length(), found, lost, wrong);
    }

    private void writeLoop() {
        try {
            int key = 0;
            while (running) {
                setUntilAcknowledged(key, acknowledged.get(key) + 1);
                key = (key + 1) % acknowledged.length();
            }
        } catch (final Throwable t) {
            failure.set(t);
        }
    }

    private void setUntilAcknowledged(final int key, final long version) {
        final long value = valueOf(key, version);
        final long deadline = System.nanoTime() + RETRY_LIMIT_NANOS;
        while (true) {
            try {
                map.set(key, value);
                acknowledged.set(key, version);
                writes++;
                return;
            } catch (final RuntimeException e) {
                // In doubt: the write may or may not have landed. Setting the same value again is
                // idempotent, so retrying keeps "stored == last acknowledged" true.
                retries++;
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("write of key " + key + " not acknowledged within "
                            + RETRY_LIMIT_NANOS / 1_000_000_000L + " s of retries; the cluster is not serving", e);
                }
                pause();
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(50);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while retrying a write", e);
        }
    }

    /**
     * The outcome of {@link #verify()}.
     *
     * @param expected keys written
     * @param found    keys present
     * @param lost     keys missing
     * @param wrong    keys present with a value other than their last acknowledged one
     */
    public record Verification(int expected, int found, int lost, int wrong) {
        public boolean isExact() {
            return found == expected && lost == 0 && wrong == 0;
        }

        @Override
        public String toString() {
            return expected + " expected, " + found + " found, " + lost + " lost, " + wrong + " wrong";
        }
    }
}
