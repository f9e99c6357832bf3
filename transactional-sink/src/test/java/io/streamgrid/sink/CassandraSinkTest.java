package io.streamgrid.sink;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverExecutionProfile;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.core.JobStatus;
import com.hazelcast.jet.pipeline.Sink;
import com.hazelcast.jet.pipeline.SourceBuilder;
import com.hazelcast.jet.pipeline.StreamSource;
import com.hazelcast.jet.config.ProcessingGuarantee;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.jet.pipeline.test.TestSources;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Against a real Cassandra server (one per class, child JVM): schema creation and checks, and the
 * sink in both guarantees on one embedded member. Failure cases live in grid-node's multi-process
 * tests.
 */
class CassandraSinkTest {
    @TempDir
    static Path dir;
    private static CassandraServer server;
    private static CqlSession session;
    private static HazelcastInstance member;

    @BeforeAll
    static void start() {
        server = CassandraServer.start(dir.resolve("cassandra"), System.out::println);
        session = server.newSession();
        member = EmbeddedJet.member("sink-test-");
    }

    @AfterAll
    static void stop() {
        if (member != null) {
            member.shutdown();
        }
        if (session != null) {
            session.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static TableSpec table(final String name) {
        return new TableSpec("sink_test", name, List.of(new TableSpec.Column("id", CqlType.BIGINT),
                new TableSpec.Column("label", CqlType.TEXT), new TableSpec.Column("amount", CqlType.DOUBLE)),
                List.of("id"), List.of());
    }

    /**
     * The sink closes its session at the end of every execution, with every write answered; the
     * driver's default 2 s of quiet event loops before closing delayed each job's end by 2 s
     * (measured in the cassandra-sink benchmark).
     */
    @Test
    void when_aSinkSessionIsClosed_then_itDoesNotWaitForQuietEventLoops() {
        try (CqlSession writes = CassandraTarget.local(server, "sink_test").connectForWrites()) {
            final DriverExecutionProfile profile =
                    writes.getContext().getConfig().getDefaultProfile();
            assertThat(profile.getInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_QUIET_PERIOD))
                    .isZero();
            assertThat(profile.getInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_QUIET_PERIOD))
                    .isZero();
        }
    }

    @Test
    void when_schemaEnsuredTwice_then_idempotent() {
        final CassandraTarget target = CassandraTarget.local(server, "sink_test");
        CassandraSchema.ensure(session, target, table("twice"));
        CassandraSchema.ensure(session, target, table("twice"));

        assertThat(session.execute("SELECT count(*) FROM sink_test.twice").one().getLong(0)).isZero();
    }

    @Test
    void when_existingTableDiffers_then_errorNamesTableAndColumn() {
        final CassandraTarget target = CassandraTarget.local(server, "sink_test");
        session.execute("CREATE KEYSPACE IF NOT EXISTS sink_test WITH replication = " + target.replication());
        session.execute("CREATE TABLE IF NOT EXISTS sink_test.misfit (id bigint PRIMARY KEY, label int)");

        assertThatThrownBy(() -> CassandraSchema.ensure(session, target, table("misfit")))
                .isInstanceOf(SchemaMismatchException.class)
                .hasMessageContaining("column 'label' of table sink_test.misfit is int, the sink writes text");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void when_batchJobWritesExactlyOnce_then_tableHoldsEveryRowOnce() {
        runAndVerify("exactly_once", ProcessingGuarantee.EXACTLY_ONCE);
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void when_batchJobWritesAtLeastOnce_then_upsertsHoldEveryRow() {
        runAndVerify("at_least_once", ProcessingGuarantee.AT_LEAST_ONCE);
    }

    private void runAndVerify(final String tableName, final ProcessingGuarantee guarantee) {
        final CassandraTarget target = CassandraTarget.local(server, "sink_test");
        final TableSpec spec = table(tableName);
        CassandraSchema.ensure(session, target, spec);
        final int rows = 20_000;
        final Pipeline pipeline = Pipeline.create();
        pipeline.readFrom(TestSources.items(IntStream.range(0, rows * 2).boxed().toList()))
                .writeTo(CassandraSinks.<Integer>cassandra(target, spec,
                        i -> new Object[] {(long) (i % rows), "v" + i, i * 0.5}, i -> i % rows, SinkOptions.defaults()));
        member.getJet().newJob(pipeline, new JobConfig().setProcessingGuarantee(guarantee).setSuspendOnFailure(true)
                .setSnapshotIntervalMillis(100)).join();

        // Each id was written twice, the second (higher i) last: that value must win.
        final Map<List<Object>, List<Object>> expected = new HashMap<>();
        for (int id = 0; id < rows; id++) {
            final int last = id + rows;
            expected.put(List.of((long) id), List.of((long) id, "v" + last, last * 0.5));
        }
        final TableVerifier.Report report = TableVerifier.verify(session, spec, expected);
        System.out.println(guarantee + ": " + report);
        assertThat(report.isExact()).as(report.toString()).isTrue();
    }

    /** Rows as {id, label, amount}; a null label deletes the row with that id. */
    private static Sink<Object[]> upsertsAndDeletes(final TableSpec spec) {
        return CassandraSinks.<Object[]>cassandra(CassandraTarget.local(server, "sink_test"), spec,
                item -> item[1] == null ? null : item, item -> item[1] == null ? new Object[] {item[0]} : null,
                item -> item[0], SinkOptions.defaults());
    }

    private static void runBatch(final Sink<Object[]> sink, final ProcessingGuarantee guarantee, final Object[]... items) {
        final Pipeline pipeline = Pipeline.create();
        pipeline.readFrom(TestSources.items(List.of(items))).writeTo(sink);
        member.getJet().newJob(pipeline, new JobConfig().setProcessingGuarantee(guarantee).setSuspendOnFailure(true)).join();
    }

    private static Map<List<Object>, List<Object>> rows(final Object[]... rows) {
        final Map<List<Object>, List<Object>> expected = new HashMap<>();
        for (final Object[] row : rows) {
            expected.put(List.of(row[0]), List.of(row));
        }
        return expected;
    }

    private static void assertTable(final TableSpec spec, final Map<List<Object>, List<Object>> expected) {
        final TableVerifier.Report report = TableVerifier.verify(session, spec, expected);
        System.out.println(spec.table() + ": " + report);
        assertThat(report.isExact()).as(report.toString()).isTrue();
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void when_sameKeyTwiceInOneInboxAtLeastOnce_then_theLastRowWinsWhole() {
        // Unlogged batch, one timestamp: without coalescing Cassandra keeps per cell the larger
        // value — label "b" of the first row with amount 2.0 of the second, a row nobody wrote.
        final TableSpec spec = table("coalesced");
        CassandraSchema.ensure(session, CassandraTarget.local(server, "sink_test"), spec);

        runBatch(upsertsAndDeletes(spec), ProcessingGuarantee.AT_LEAST_ONCE,
                new Object[] {1L, "b", 1.0}, new Object[] {1L, "a", 2.0});

        assertTable(spec, rows(new Object[] {1L, "a", 2.0}));
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void when_rowRemovedByALaterJob_then_itIsDeletedFromTheTable() {
        final TableSpec spec = table("deleted");
        CassandraSchema.ensure(session, CassandraTarget.local(server, "sink_test"), spec);
        runBatch(upsertsAndDeletes(spec), ProcessingGuarantee.EXACTLY_ONCE,
                new Object[] {1L, "a", 1.0}, new Object[] {2L, "b", 2.0});

        runBatch(upsertsAndDeletes(spec), ProcessingGuarantee.EXACTLY_ONCE, new Object[] {1L, null, 0.0});

        assertTable(spec, rows(new Object[] {2L, "b", 2.0}));
    }

    /**
     * Exactly-once writes carry their epoch's timestamp, not the server's: every row of one
     * transaction has the same write time, in batches (several rows of a partition) and single
     * statements alike, and a delete at it hides an upsert made before it.
     */
    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void when_anEpochIsCommitted_then_everyWriteOfItCarriesTheEpochsTimestamp() {
        final TableSpec spec = new TableSpec("sink_test", "epoch_time", List.of(new TableSpec.Column("p", CqlType.BIGINT),
                new TableSpec.Column("c", CqlType.BIGINT), new TableSpec.Column("v", CqlType.TEXT)), List.of("p"), List.of("c"));
        final CassandraTarget target = CassandraTarget.local(server, "sink_test");
        CassandraSchema.ensure(session, target, spec);
        final List<Object[]> items = new ArrayList<>();
        for (long i = 0; i < 300; i++) {
            items.add(new Object[] {i % 7 == 0 ? 1_000 + i : i / 10, i, "v" + i}); // partitions of 10 rows, and single rows
        }
        final Pipeline pipeline = Pipeline.create();
        pipeline.readFrom(TestSources.items(items)).writeTo(CassandraSinks.<Object[]>cassandra(target, spec, item -> item,
                item -> item[0], SinkOptions.defaults()));
        member.getJet().newJob(pipeline, new JobConfig().setProcessingGuarantee(ProcessingGuarantee.EXACTLY_ONCE)
                .setSuspendOnFailure(true)).join();

        final List<Long> writeTimes = session.execute("SELECT WRITETIME(v) FROM sink_test.epoch_time").all().stream()
                .map(row -> row.getLong(0)).toList();
        assertThat(writeTimes).hasSize(items.size());
        assertThat(new HashSet<>(writeTimes)).as("one write time for the one transaction").hasSize(1);
        final long epochTime = writeTimes.get(0);
        // A write just below the epoch's time loses to it; one above wins.
        session.execute("UPDATE sink_test.epoch_time USING TIMESTAMP " + (epochTime - 1) + " SET v = 'older' WHERE p = 0 AND c = 1");
        session.execute("UPDATE sink_test.epoch_time USING TIMESTAMP " + (epochTime + 1) + " SET v = 'newer' WHERE p = 0 AND c = 2");
        assertThat(session.execute("SELECT v FROM sink_test.epoch_time WHERE p = 0 AND c = 1").one().getString(0)).isEqualTo("v1");
        assertThat(session.execute("SELECT v FROM sink_test.epoch_time WHERE p = 0 AND c = 2").one().getString(0)).isEqualTo("newer");
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void when_laterJobsSinkWasDefinedFirst_then_itsWritesStillWin() throws InterruptedException {
        // The second job's sink is defined first, as on a client whose clock is behind: its write
        // timestamps must still come out above the first job's.
        final TableSpec spec = table("later_wins");
        CassandraSchema.ensure(session, CassandraTarget.local(server, "sink_test"), spec);
        final Sink<Object[]> definedEarly = upsertsAndDeletes(spec);
        Thread.sleep(20);
        runBatch(upsertsAndDeletes(spec), ProcessingGuarantee.EXACTLY_ONCE,
                new Object[] {1L, "old", 1.0}, new Object[] {2L, "old", 2.0});

        runBatch(definedEarly, ProcessingGuarantee.EXACTLY_ONCE, new Object[] {1L, "new", 3.0}, new Object[] {2L, null, 0.0});

        assertTable(spec, rows(new Object[] {1L, "new", 3.0}));
    }

    /**
     * Design of this test: a stream of ids 0, 1, 2, ... (a source that snapshots its position) goes
     * into a table exactly-once. The first transaction is held at the commit barrier after its
     * snapshot completed; the table is dropped under it, so the commit fails permanently. The job
     * must be suspended (not failed, which would delete the snapshot with the decided transaction)
     * with an error that names the transaction; after the table is recreated and the job resumed,
     * every id from 0 up to the highest committed one must be in the table.
     */
    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void when_decidedCommitFailsPermanently_then_jobIsSuspendedAndResumeCommitsIt() throws Exception {
        final CassandraTarget target = CassandraTarget.local(server, "sink_test");
        final TableSpec spec = table("suspended");
        CassandraSchema.ensure(session, target, spec);
        final Path barrier = Files.createDirectories(dir.resolve("barrier-suspend"));
        Files.writeString(barrier.resolve("pause"), "");
        final StreamSource<Long> ids = SourceBuilder.stream("ids", context -> new long[1])
                .<Long>fillBufferFn((next, buffer) -> {
                    for (int i = 0; i < 20; i++) {
                        buffer.add(next[0]++);
                    }
                    Thread.sleep(5);
                })
                .createSnapshotFn(next -> next[0])
                .restoreSnapshotFn((next, saved) -> next[0] = saved.get(0))
                .build();
        final Pipeline pipeline = Pipeline.create();
        pipeline.readFrom(ids).withoutTimestamps().writeTo(CassandraSinks.<Long>cassandra(target, spec,
                id -> new Object[] {id, "v" + id, id * 0.5}, id -> id, SinkOptions.defaults().withBeforeCommit(new FileCommitPause(barrier.toString()))));
        final Job job = member.getJet().newJob(pipeline, new JobConfig().setName("suspend-test")
                .setProcessingGuarantee(ProcessingGuarantee.EXACTLY_ONCE).setSuspendOnFailure(true).setSnapshotIntervalMillis(200));
        try {
            awaitFile(barrier.resolve("reached-0"));
            session.execute("DROP TABLE sink_test.suspended");
            Files.delete(barrier.resolve("pause"));

            awaitStatus(job, JobStatus.SUSPENDED);
            // Jet can report SUSPENDED a moment before the suspension record its cause is read from
            // ("Job not suspended" once in a full run): ask until it answers.
            final String cause = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .ignoreExceptionsInstanceOf(IllegalStateException.class)
                    .until(() -> job.getSuspensionCause().errorCause(), Objects::nonNull);
            System.out.println("suspension cause: " + cause.lines().findFirst().orElse(""));
            assertThat(cause).contains("is decided but not committed: its rows are kept in the suspended job's snapshot")
                    .contains("resume with `streamgrid job resume suspend-test`");

            CassandraSchema.ensure(session, target, spec);
            job.resume();
            awaitStatus(job, JobStatus.RUNNING);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (countRows(spec) < 2_000 && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
        } finally {
            job.cancel();
            // cancel() returns before the sink has stopped: a commit under way still writes rows.
            await().atMost(Duration.ofSeconds(60)).until(() -> job.getStatus().isTerminal());
        }
        final long max = session.execute("SELECT max(id) FROM sink_test.suspended").one().getLong(0);
        final Map<List<Object>, List<Object>> expected = new HashMap<>();
        for (long id = 0; id <= max; id++) {
            expected.put(List.of(id), List.of(id, "v" + id, id * 0.5));
        }
        assertThat(max).as("rows committed after the resume").isGreaterThan(0);
        assertTable(spec, expected);
    }

    private static long countRows(final TableSpec spec) {
        return session.execute("SELECT count(*) FROM " + spec.qualifiedName()).one().getLong(0);
    }

    private static void awaitFile(final Path file) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20)).until(() -> Files.exists(file));
    }

    private static void awaitStatus(final Job job, final JobStatus wanted) {
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                .failFast("job status while waiting for " + wanted,
                        () -> job.getStatus() == JobStatus.FAILED || job.getStatus() == JobStatus.COMPLETED)
                .until(() -> job.getStatus() == wanted);
    }
}
