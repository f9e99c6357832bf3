package io.streamgrid.cluster;

import io.streamgrid.client.KafkaBrokerHost;
import io.streamgrid.jobs.kafka.KafkaBroker;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.awaitility.Awaitility.await;

/**
 * Several hosts on one simulated LAN, for multi-host tests: a network namespace holding a bridge
 * (the switch) and one namespace per host plugged into it with its own address {@code 10.232.0.N}
 * and its own data directory under the test's work directory — nothing shared on disk. Hosts run a
 * Kafka broker ({@link #startKafka}), StreamGrid members in Kafka mode ({@link #startMember}) or any
 * JVM. Closing stops every process by PID and deletes every namespace, the LAN last.
 */
public final class Lan implements AutoCloseable {
    public static final String PREFIX = "10.232.0.";
    private static final Pattern BROKER_PID = Pattern.compile("broker pid (\\d+)");

    private final Path workDir;
    private final Path jvmOptions;
    private final String classPath = System.getProperty("java.class.path");
    private final NetworkNamespace lan;
    private final List<NetworkNamespace> hosts = new ArrayList<>();
    private String rootLink;
    private Path brokerLog;

    private Lan(final Path workDir) {
        this.workDir = workDir;
        this.jvmOptions = JvmCommands.writeJvmOptions(workDir);
        this.lan = NetworkNamespace.create("lan");
        try {
            lan.addBridge();
        } catch (final RuntimeException e) {
            lan.close();
            throw e;
        }
    }

    /** A LAN with no host yet; the caller must have checked {@link NetworkNamespace#unavailableReason()}. */
    public static Lan create(final Path workDir) throws IOException {
        return new Lan(Files.createDirectories(workDir.toAbsolutePath()));
    }

    public Path workDir() {
        return workDir;
    }

    public Path jvmOptions() {
        return jvmOptions;
    }

    public String classPath() {
        return classPath;
    }

    /** A new host named {@code name} with address {@link #PREFIX}{@code n}. */
    public NetworkNamespace host(final String name, final int n) {
        final NetworkNamespace host = NetworkNamespace.create(name);
        hosts.add(host);
        host.plugInto(lan, PREFIX + n + "/24");
        return host;
    }

    /**
     * Plugs the test's own process (the root network namespace) into the LAN as host
     * {@link #PREFIX}{@code n}, so the test can be a client of the members and the broker itself.
     * The link is deleted on {@link #close()} (and dies with the LAN's namespace in any case).
     */
    public void joinFromThisProcess(final int n) {
        rootLink = lan.plugRootIn(PREFIX + n + "/24");
    }

    /**
     * Starts a Kafka broker on {@code host} (address {@link #PREFIX}{@code n}) under
     * {@link KafkaBrokerHost}, which starts it again {@code downMillis} after it dies; returns its
     * bootstrap servers once it accepts clients.
     */
    public String startKafka(final NetworkNamespace host, final int n, final long downMillis) {
        brokerLog = workDir.resolve("kafka-host.log");
        host.start(JvmCommands.javaCommand(jvmOptions, "256m", classPath, "-D" + KafkaBroker.LIB_PROPERTY + "=" + KafkaBroker.libDir(),
                KafkaBrokerHost.class.getName(), List.of(workDir.resolve("kafka-host").toString(), PREFIX + n,
                        Long.toString(downMillis))), brokerLog);
        final String bootstrap = awaitLine(brokerLog, Pattern.compile("bootstrap (\\S+)"), Duration.ofMinutes(2));
        System.out.println("Kafka broker on host " + host.name() + " at " + bootstrap);
        return bootstrap;
    }

    /** SIGKILL to the broker's JVM (its host starts it again after the pause given); returns its PID. */
    public long killKafka() throws IOException {
        final long pid = Long.parseLong(lastMatch(brokerLog, BROKER_PID));
        ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        return pid;
    }

    /**
     * Starts a StreamGrid member on {@code host} (address {@link #PREFIX}{@code n}, port 5701) in
     * Kafka mode with {@code partitions} ingest partitions, its data under {@code host-n}; returns its
     * process (the member's JVM itself: {@code ip netns exec} executes it). Its log is
     * {@link #memberLog}.
     */
    public Process startMember(final NetworkNamespace host, final int n, final String cluster, final String memberList,
                               final String bootstrap, final int partitions) throws IOException {
        final Path hostDir = Files.createDirectories(workDir.resolve("host-" + n));
        final Path config = Files.writeString(hostDir.resolve("member.yaml"), String.join("\n",
                "ingest:", "  kind: kafka", "  dir: " + hostDir.resolve("ingest"), "  partitions: " + partitions, "  kafka:",
                "    bootstrap-servers: " + bootstrap, "    topic-prefix: sg.", ""));
        final List<String> command = new ArrayList<>(JvmCommands.cliCommand(jvmOptions, "384m", classPath, null, List.of("node")));
        command.addAll(List.of("--cluster-name=" + cluster, "--host=" + PREFIX + n, "--port=5701", "--members=" + memberList,
                "--data-dir=" + hostDir.resolve("data"), "--metrics-port=6701", "--config=" + config));
        return host.start(command, memberLog(n));
    }

    public Path memberLog(final int n) {
        return workDir.resolve("host-" + n).resolve("member.log");
    }

    /** Waits up to two minutes until the member of each host in {@code ns} has logged that it is ready. */
    public void awaitMembersReady(final int... ns) {
        await().atMost(Duration.ofMinutes(2)).until(() -> {
            for (final int n : ns) {
                final Path log = memberLog(n);
                if (!Files.exists(log) || !Files.readString(log).contains("StreamGrid member ready")) {
                    return false;
                }
            }
            return true;
        });
    }

    /** {@code PREFIX + n + ":5701"} of each host in {@code ns}, comma-separated (a member list). */
    public static String memberList(final int... ns) {
        final List<String> members = new ArrayList<>();
        for (final int n : ns) {
            members.add(PREFIX + n + ":5701");
        }
        return String.join(",", members);
    }

    /** Waits until {@code log} holds a match of {@code pattern}; returns its first group. */
    public static String awaitLine(final Path log, final Pattern pattern, final Duration timeout) {
        final String[] found = new String[1];
        await().atMost(timeout).pollInterval(Duration.ofMillis(200)).until(() -> {
            if (Files.exists(log)) {
                final Matcher matcher = pattern.matcher(Files.readString(log));
                if (matcher.find()) {
                    found[0] = matcher.group(1);
                    return true;
                }
            }
            return false;
        });
        return found[0];
    }

    private static String lastMatch(final Path log, final Pattern pattern) throws IOException {
        final Matcher matcher = pattern.matcher(Files.readString(log));
        String last = null;
        while (matcher.find()) {
            last = matcher.group(1);
        }
        if (last == null) {
            throw new AssertionError("no match of " + pattern + " in " + log);
        }
        return last;
    }

    @Override
    public void close() {
        for (int i = hosts.size() - 1; i >= 0; i--) {
            hosts.get(i).close();
        }
        if (rootLink != null) {
            NetworkNamespace.unplugRoot(rootLink);
        }
        lan.close();
    }
}
