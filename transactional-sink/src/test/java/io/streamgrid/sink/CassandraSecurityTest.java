package io.streamgrid.sink;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.config.ProcessingGuarantee;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.jet.pipeline.test.TestSources;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Design of this test: a real Cassandra started with PasswordAuthenticator and client TLS only
 * (a key pair made by the JDK's keytool for 127.0.0.1). The exactly-once sink, on an embedded
 * member, logs in as a user of its own whose password is read from a file, over TLS, and its rows
 * arrive; a wrong password and a connection without TLS are refused with errors that name the user
 * and never carry the password; the target that travels inside a job holds where the password is
 * read, not the password.
 */
class CassandraSecurityTest {
    private static final String STORE_PASSWORD = "store-" + UUID.randomUUID();
    private static final String USER_PASSWORD = "user-" + UUID.randomUUID();
    @TempDir
    static Path dir;
    private static CassandraServer server;
    private static HazelcastInstance member;
    private static Path truststore;
    private static Secret truststorePassword;

    @BeforeAll
    static void start() throws Exception {
        final Path keystore = dir.resolve("server.p12");
        truststore = dir.resolve("trust.p12");
        keytool("-genkeypair", "-alias", "cassandra", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
                "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", STORE_PASSWORD);
        final Path certificate = dir.resolve("server.crt");
        keytool("-exportcert", "-alias", "cassandra", "-keystore", keystore.toString(), "-storepass", STORE_PASSWORD,
                "-file", certificate.toString());
        keytool("-importcert", "-noprompt", "-alias", "cassandra", "-file", certificate.toString(),
                "-keystore", truststore.toString(), "-storetype", "PKCS12", "-storepass", STORE_PASSWORD);
        truststorePassword = secretFile("truststore-password", STORE_PASSWORD);
        final CassandraSecurity superuser = CassandraSecurity.login("cassandra", secretFile("superuser-password", "cassandra"))
                .withTls(truststore.toString(), truststorePassword, true);
        server = CassandraServer.start(dir.resolve("cassandra"), System.out::println, Map.of(
                "authenticator", "PasswordAuthenticator",
                "client_encryption_options", String.join("\n", "",
                        "  enabled: true",
                        "  optional: false",
                        "  keystore: " + keystore,
                        "  keystore_password: " + STORE_PASSWORD)), superuser);
        try (CqlSession admin = server.newSession()) {
            admin.execute("CREATE ROLE streamgrid WITH PASSWORD = '" + USER_PASSWORD + "' AND LOGIN = true");
        }
        member = EmbeddedJet.member("sink-security-");
    }

    @AfterAll
    static void stop() {
        if (member != null) {
            member.shutdown();
        }
        if (server != null) {
            server.close();
        }
    }

    private static CassandraTarget target(final CassandraSecurity security) {
        return CassandraTarget.local(server, "secured").withSecurity(security);
    }

    @Test
    void when_theSinkLogsInWithAPasswordFileOverTls_then_itsRowsArriveAndTheJobHoldsNoPassword() throws Exception {
        final CassandraTarget target = target(CassandraSecurity.login("streamgrid", secretFile("user-password", USER_PASSWORD))
                .withTls(truststore.toString(), truststorePassword, true));
        final TableSpec table = new TableSpec("secured", "rows", List.of(new TableSpec.Column("id", CqlType.BIGINT),
                new TableSpec.Column("label", CqlType.TEXT)), List.of("id"), List.of());
        try (CqlSession session = target.connect()) {
            CassandraSchema.ensure(session, target, table);
        }
        final Pipeline pipeline = Pipeline.create();
        pipeline.readFrom(TestSources.items(IntStream.range(0, 500).boxed().toList()))
                .writeTo(CassandraSinks.<Integer>cassandra(target, table, i -> new Object[] {(long) i, "row " + i},
                        i -> new Object[] {(long) i}, SinkOptions.defaults()));
        member.getJet().newJob(pipeline, new JobConfig().setProcessingGuarantee(ProcessingGuarantee.EXACTLY_ONCE).setSuspendOnFailure(true)
                .setSnapshotIntervalMillis(100)).getFuture().get(2, TimeUnit.MINUTES);

        try (CqlSession session = target.connect()) {
            assertThat(session.execute("SELECT count(*) FROM secured.rows").one().getLong(0)).isEqualTo(500);
        }
        final ByteArrayOutputStream serialized = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(serialized)) {
            out.writeObject(target);
        }
        assertThat(serialized.toString(StandardCharsets.ISO_8859_1)).as("the target as it travels in a job")
                .doesNotContain(USER_PASSWORD).doesNotContain(STORE_PASSWORD);
        assertThat(target.toString()).doesNotContain(USER_PASSWORD).contains("file:");
    }

    @Test
    void when_thePasswordIsWrong_then_refusedNamingTheUserNotThePassword() throws Exception {
        final String wrong = "wrong-" + UUID.randomUUID();
        final CassandraTarget target = target(CassandraSecurity.login("streamgrid", secretFile("wrong-password", wrong))
                .withTls(truststore.toString(), truststorePassword, true));
        assertThatThrownBy(target::connect).isInstanceOf(AllNodesFailedException.class)
                .hasMessageContaining("streamgrid").satisfies(e -> assertThat(String.valueOf(e.getMessage())).doesNotContain(wrong));
    }

    @Test
    void when_connectingWithoutTls_then_refused() throws Exception {
        final CassandraTarget plain = target(CassandraSecurity.login("streamgrid", secretFile("plain-password", USER_PASSWORD)));
        assertThatThrownBy(plain::connect).isInstanceOf(AllNodesFailedException.class);
    }

    @Test
    void when_aSecretIsGivenItselfOrCannotBeRead_then_refusedNamingWhereNotWhat() {
        assertThatThrownBy(() -> new Secret("hunter2")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("env:NAME or file:/path").satisfies(e -> assertThat(e.getMessage()).doesNotContain("hunter2"));
        assertThatThrownBy(() -> new Secret("env:STREAMGRID_TEST_UNSET_" + UUID.randomUUID().toString().replace('-', '_')).reveal())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("is not set");
        assertThatThrownBy(() -> new Secret("file:" + dir.resolve("missing")).reveal())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("missing");
        assertThatThrownBy(() -> CassandraSecurity.login("streamgrid", null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs a password");
    }

    private static Secret secretFile(final String name, final String value) throws Exception {
        return new Secret("file:" + Files.writeString(dir.resolve(name), value + "\n"));
    }

    private static void keytool(final String... args) throws Exception {
        final List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("keytool " + String.join(" ", args) + ": " + output).isZero();
    }
}
