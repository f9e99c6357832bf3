package io.streamgrid.jobs;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.config.ProcessingGuarantee;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.jet.pipeline.SourceBuilder;
import com.hazelcast.jet.pipeline.StreamSource;
import com.hazelcast.logging.Logger;
import io.streamgrid.sink.CassandraSchema;
import io.streamgrid.sink.CassandraSinks;
import io.streamgrid.sink.CassandraTarget;
import io.streamgrid.sink.CqlType;
import io.streamgrid.sink.SinkOptions;
import io.streamgrid.sink.TableSpec;
import io.streamgrid.sink.TableVerifier;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A workload that makes what a reader of the sink's table sees checkable, run beside a disruption
 * (job restarts, a member killed, Cassandra stopped between prepare and commit). A replayable source
 * emits {@code total} sequence numbers; each becomes an upsert of key {@code seq % keys} with
 * version {@code seq / keys} and a random tag drawn anew on every attempt — so a row written by an
 * epoch that was later aborted shows a tag the row of the same version does not carry in the end,
 * which an at-least-once sink of idempotent upserts would show and an exactly-once one must not.
 * A reader thread polls the table all along: a key's version may only grow, and a (key, version)
 * may only ever carry one tag.
 */
final class VersionedRows implements AutoCloseable {
    private final long keys;
    private final long total;
    private final TableSpec table;
    private final Supplier<CqlSession> session;
    private final Reader reader;
    private Job job;

    /** The table {@code <keyspace>.versions} is created; {@code session} is asked anew on every read (a test may replace it). */
    VersionedRows(final CassandraTarget target, final String keyspace, final long keys, final long total,
                  final Supplier<CqlSession> session) {
        this.keys = keys;
        this.total = total;
        this.session = session;
        this.table = new TableSpec(keyspace, "versions", List.of(new TableSpec.Column("k", CqlType.BIGINT),
                new TableSpec.Column("version", CqlType.BIGINT), new TableSpec.Column("tag", CqlType.TEXT)), List.of("k"), List.of());
        CassandraSchema.ensure(session.get(), target, table);
        this.reader = new Reader();
    }

    /** Submits the job (exactly-once, snapshots every 200 ms, suspended on failure) and starts the reader. */
    Job start(final HazelcastInstance client, final CassandraTarget target, final SinkOptions options) {
        final long count = total;
        final long keyCount = keys;
        final StreamSource<Long> source = SourceBuilder.stream("sequence", ctx -> {
                    ctx.logger().info("sequence source created, at 0 unless a snapshot is restored");
                    return new long[] {0};
                })
                .<Long>fillBufferFn((state, buffer) -> {
                    for (int i = 0; i < 10 && state[0] < count; i++) {
                        buffer.add(state[0]++);
                    }
                    Thread.sleep(5);
                })
                .createSnapshotFn(state -> state[0])
                .restoreSnapshotFn((state, saved) -> {
                    state[0] = saved.get(0);
                    Logger.getLogger("sequence-source").info("sequence source restored at " + saved);
                })
                .build();
        final Pipeline pipeline = Pipeline.create();
        pipeline.readFrom(source).withoutTimestamps()
                .map(seq -> new Object[] {seq % keyCount, seq / keyCount, seq + "/" + UUID.randomUUID()})
                .writeTo(CassandraSinks.<Object[]>cassandra(target, table, row -> row, row -> row[0], options));
        job = client.getJet().newJob(pipeline, new JobConfig().setName("versioned-rows-" + table.keyspace())
                .setProcessingGuarantee(ProcessingGuarantee.EXACTLY_ONCE).setSuspendOnFailure(true).setSnapshotIntervalMillis(200));
        reader.start();
        return job;
    }

    /** Sum over keys of the highest version the reader has seen: grows as epochs commit. */
    long progress() {
        return reader.progress.get();
    }

    /** {@link #progress()} once every row is written. */
    long finalProgress() {
        return LongStream.range(0, keys).map(k -> (total - 1 - k) / keys).sum();
    }

    long reads() {
        return reader.reads.get();
    }

    /**
     * Waits until the table holds every key at its last version (failing fast when {@code stopped}),
     * stops the reader, and asserts it never saw a version go back or an uncommitted tag. Prints
     * "N expected, N found, L lost, D duplicated" (a duplicate: a version seen with two tags).
     */
    void verify(final BooleanSupplier stopped) throws InterruptedException {
        final Map<List<Object>, List<Object>> expected = new HashMap<>();
        for (long k = 0; k < keys; k++) {
            expected.put(List.of(k), List.of(k, (total - 1 - k) / keys));
        }
        final TableVerifier.Report[] report = new TableVerifier.Report[1];
        try {
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
                    .failFast("job failed or suspended", stopped::getAsBoolean)
                    .until(() -> (report[0] = TableVerifier.verify(session.get(), table, List.of("k", "version"), expected)).isExact());
        } finally {
            reader.interrupt();
            reader.join();
        }
        final Map<List<Object>, List<Object>> finalRows = TableVerifier.read(session.get(), table);
        long finalTagMismatch = 0;
        for (final Map.Entry<Long, String[]> seen : reader.lastSeen.entrySet()) {
            final List<Object> row = finalRows.get(List.of(seen.getKey()));
            if (row != null && row.get(1).equals(Long.parseLong(seen.getValue()[0])) && !row.get(2).equals(seen.getValue()[1])) {
                finalTagMismatch++;
            }
        }
        final long dirty = reader.dirty.get() + finalTagMismatch;
        final long found = finalRows.size();
        System.out.println(table.qualifiedName() + ": " + report[0] + "; " + keys + " expected, " + found + " found, "
                + (keys - found) + " lost, " + dirty + " duplicated (a version seen with a tag it does not keep: an uncommitted write); "
                + "reader: " + reader.reads.get() + " rows read, " + reader.backwards.get() + " went back");
        reader.firstRegressions.forEach(regression -> System.out.println("went back: " + regression));
        assertThat(report[0].isExact()).isTrue();
        assertThat(reader.backwards.get()).as("versions that went back").isZero();
        assertThat(dirty).as("values of uncommitted epochs seen").isZero();
    }

    @Override
    public void close() throws InterruptedException {
        reader.interrupt();
        reader.join();
    }

    /** Polls the table; a version may only grow, and a (key, version) may only ever carry one tag. */
    private final class Reader extends Thread {
        final AtomicLong reads = new AtomicLong();
        final AtomicLong backwards = new AtomicLong();
        final AtomicLong dirty = new AtomicLong();
        final Map<Long, String[]> lastSeen = new HashMap<>();
        /** The first regressions, with the write timestamps before and after: what a failure is diagnosed by. */
        final List<String> firstRegressions = new CopyOnWriteArrayList<>();
        final AtomicLong progress = new AtomicLong();

        Reader() {
            super("table-reader-" + table.keyspace());
            setDaemon(true);
        }

        @Override
        public void run() {
            final String query = "SELECT k, version, tag, WRITETIME(version) FROM " + table.qualifiedName();
            while (!isInterrupted()) {
                try {
                    for (final Row row : session.get().execute(query)) {
                        reads.incrementAndGet();
                        see(row.getLong(0), row.getLong(1), row.getString(2), row.getLong(3));
                    }
                    Thread.sleep(20);
                } catch (final InterruptedException e) {
                    return;
                } catch (final RuntimeException readFailed) {
                    // a failed poll proves nothing (Cassandra may be stopped on purpose); the next one counts
                }
            }
        }

        private void see(final long key, final long version, final String tag, final long writtenAt) {
            final String[] before = lastSeen.get(key);
            if (before != null) {
                final long previous = Long.parseLong(before[0]);
                if (version < previous) {
                    if (backwards.incrementAndGet() <= 5) {
                        firstRegressions.add("key " + key + " from version " + previous + " (tag " + before[1] + ", written at "
                                + before[2] + ") to " + version + " (tag " + tag + ", written at " + writtenAt + "), read at "
                                + System.currentTimeMillis());
                    }
                } else if (version == previous && !tag.equals(before[1])) {
                    dirty.incrementAndGet();
                }
            }
            if (before == null || version > Long.parseLong(before[0])) {
                progress.addAndGet(version - (before == null ? 0 : Long.parseLong(before[0])));
            }
            lastSeen.put(key, new String[] {Long.toString(version), tag, Long.toString(writtenAt)});
        }
    }
}
