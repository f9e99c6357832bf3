package io.streamgrid.node;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.core.JobStatus;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.jet.pipeline.Sinks;
import com.hazelcast.jet.pipeline.Sources;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.TestWorkDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import javax.management.BadAttributeValueExpException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * What a client that reaches a member port can run with code upload off (docs/SECURITY.md). It
 * sends no class of its own — only pipelines of Hazelcast's built-in connectors, which every
 * member has — and the members must refuse those that reach outside the grid: reading the
 * member's files, writing files on its disk, opening sockets. It also sends a Java-serialized
 * object of a class outside StreamGrid's allow-list, which members and StreamGrid clients must
 * refuse to deserialize. What stays possible is shown too: a pipeline between the grid's own maps.
 */
class IoConnectorBoundaryTest {

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void when_aClientSubmitsJobsOfFileOrSocketConnectors_then_theMembersRefuseThemAndNothingIsReadWrittenOrConnected(
            final TestInfo test) throws Exception {
        final Path workDir = TestWorkDir.of(test);
        final Path secrets = Files.createDirectories(workDir.resolve("member-files"));
        Files.writeString(secrets.resolve("secret.txt"), "s3cret\n");
        final Path written = Files.createDirectories(workDir.resolve("written-by-a-job"));
        try (LocalCluster cluster = LocalCluster.builder().members(1).workDir(workDir).start();
             ServerSocket listener = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            final HazelcastInstance client = rawClient(cluster);
            final List<String> refusals = new ArrayList<>();

            final Pipeline readFiles = Pipeline.create();
            readFiles.readFrom(Sources.files(secrets.toString())).writeTo(Sinks.list("stolen"));
            refusals.add(refusal(client, readFiles, "read the member's files"));
            assertThat(client.getList("stolen")).as("lines of the member's files read by a client's job").isEmpty();

            client.getList("payload").add("* * * * * root touch /tmp/owned");
            final Pipeline writeFiles = Pipeline.create();
            writeFiles.readFrom(Sources.list("payload")).writeTo(Sinks.files(written.toString()));
            refusals.add(refusal(client, writeFiles, "write files on the member"));
            try (var files = Files.list(written)) {
                assertThat(files.toList()).as("files written on the member's disk by a client's job").isEmpty();
            }

            final Pipeline socket = Pipeline.create();
            socket.readFrom(Sources.socket("127.0.0.1", listener.getLocalPort(), StandardCharsets.UTF_8)).withoutTimestamps()
                    .writeTo(Sinks.list("from-socket"));
            refusals.add(refusal(client, socket, "open a socket"));
            listener.setSoTimeout(3_000);
            assertThatThrownBy(listener::accept).as("a connection from a member, opened by a client's job")
                    .isInstanceOf(SocketTimeoutException.class);

            refusals.forEach(reason -> System.out.println("refused: " + reason));
            assertThat(refusals).allSatisfy(reason -> assertThat(reason).contains("is not allowed"));

            // What code upload off and the deny list leave: a job of Hazelcast's classes between the grid's own maps.
            client.getMap("state.from").put(1L, "one");
            final Pipeline mapToMap = Pipeline.create();
            mapToMap.readFrom(Sources.<Long, String>map("state.from")).writeTo(Sinks.map("state.to"));
            client.getJet().newJob(mapToMap).join();
            assertThat(client.getMap("state.to").get(1L)).as("a map-to-map job of a client").isEqualTo("one");
        }
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void when_aClientSendsAnObjectOfAClassOutsideTheAllowList_then_membersAndStreamGridClientsRefuseToDeserializeIt(
            final TestInfo test) throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().members(1).workDir(TestWorkDir.of(test)).start()) {
            final HazelcastInstance client = rawClient(cluster);
            // The classic first link of JDK gadget chains: its readObject calls toString on what it holds.
            final BadAttributeValueExpException gadget = new BadAttributeValueExpException("x");

            final Pipeline harmless = Pipeline.create();
            harmless.readFrom(Sources.list("in")).writeTo(Sinks.list("out"));
            final String refused = refusal(client, harmless, new JobConfig().setArgument("carried", gadget), "carry a gadget");
            System.out.println("member refused: " + refused);
            assertThat(refused).contains("Resolving class javax.management.BadAttributeValueExpException is not allowed");

            // A value of that class in a map: a StreamGrid client refuses it unless told to accept its package.
            client.getMap("state.values").put(1L, gadget);
            try (StreamGridClient streamGrid = StreamGridClient.connect(cluster.clientSettings())) {
                assertThatThrownBy(() -> streamGrid.hazelcast().getMap("state.values").get(1L))
                        .as("a StreamGrid client deserializing a class outside its allow-list")
                        .hasStackTraceContaining("Resolving class javax.management.BadAttributeValueExpException is not allowed");
            }
            try (StreamGridClient streamGrid = StreamGridClient.connect(
                    cluster.clientSettings().withDeserializationAllowed("javax.management.BadAttributeValueExpException"))) {
                assertThat(streamGrid.hazelcast().getMap("state.values").get(1L)).isInstanceOf(BadAttributeValueExpException.class);
            }
        }
    }

    /** A client without StreamGrid's filter, as an attacker would use: the default Hazelcast client. */
    private static HazelcastInstance rawClient(final LocalCluster cluster) {
        final ClientConfig config = cluster.clientConfig();
        config.getSerializationConfig().setJavaSerializationFilterConfig(null);
        return HazelcastClient.newHazelcastClient(config);
    }

    private static String refusal(final HazelcastInstance client, final Pipeline pipeline, final String what) {
        return refusal(client, pipeline, new JobConfig(), what);
    }

    /** Why the job was refused or failed; fails the test if it completed or is still running after 30 s. */
    private static String refusal(final HazelcastInstance client, final Pipeline pipeline, final JobConfig config, final String what) {
        final Job job;
        try {
            job = client.getJet().newJob(pipeline, config);
        } catch (final RuntimeException e) {
            return what + ": " + causes(e);
        }
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> job.getStatus().isTerminal());
        } catch (final org.awaitility.core.ConditionTimeoutException e) {
            job.cancel();
            throw new AssertionError("a client's job could " + what + ": it is " + job.getStatus() + " after 30 s");
        }
        try {
            job.join();
        } catch (final RuntimeException e) {
            return what + ": " + causes(e);
        }
        throw new AssertionError("a client's job could " + what + ": it completed");
    }

    private static String causes(final Throwable e) {
        final StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            text.append(t.getClass().getSimpleName()).append(": ").append(t.getMessage()).append(" / ");
        }
        return text.toString();
    }
}
