package io.streamgrid.sink;

import com.datastax.oss.driver.api.core.CqlSession;
import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.config.ProcessingGuarantee;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.jet.pipeline.test.TestSources;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        final Config config = new Config();
        config.setClusterName("sink-test-" + UUID.randomUUID());
        config.setProperty("hazelcast.local.localAddress", "127.0.0.1");
        config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
        config.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
        config.getJetConfig().setEnabled(true);
        member = Hazelcast.newHazelcastInstance(config);
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
        member.getJet().newJob(pipeline, new JobConfig().setProcessingGuarantee(guarantee).setSnapshotIntervalMillis(100)).join();

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
}
