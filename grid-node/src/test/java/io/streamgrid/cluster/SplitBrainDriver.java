package io.streamgrid.cluster;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.splitbrainprotection.SplitBrainProtectionException;
import org.awaitility.Awaitility;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * The split-brain scenario of {@link SplitBrainTest}, run inside the test's network namespace (a
 * JVM cannot enter one itself): starts three members on 127.0.0.1-3, cuts 127.0.0.3 off from the
 * other two with the namespace's own firewall (nftables), writes on both sides (the majority also
 * updates and deletes keys that existed before the split), heals, and checks that every write and
 * delete acknowledged by the majority holds.
 * Prints the figures and {@code RESULT: PASS} or exits non-zero naming what failed.
 */
public final class SplitBrainDriver {
    private static final String CLUSTER = "split-brain-test";
    private static final String MAP = "state.split";
    private static final int PORT = 5701;
    private static final String[] HOSTS = {"127.0.0.1", "127.0.0.2", "127.0.0.3"};
    private static final String FIREWALL_TABLE = "streamgrid_split";

    private SplitBrainDriver() {
    }

    public static void main(final String[] args) throws Exception {
        final Path workDir = Path.of(args[0]);
        final List<Process> members = new ArrayList<>();
        try {
            run(workDir, members);
            System.out.println("RESULT: PASS");
            System.exit(0);
        } catch (final Throwable e) {
            System.out.println("RESULT: FAIL " + e);
            e.printStackTrace(System.out);
            System.exit(1);
        } finally {
            for (final Process member : members) {
                member.destroyForcibly();
            }
        }
    }

    private static void run(final Path workDir, final List<Process> members) throws Exception {
        final Path jvmOptions = JvmCommands.writeJvmOptions(workDir);
        for (int i = 0; i < HOSTS.length; i++) {
            members.add(startMember(workDir, jvmOptions, i));
        }
        final HazelcastInstance majority = client(HOSTS[0]);
        final HazelcastInstance minority = client(HOSTS[2]);
        await("3 members, cluster safe", () -> safeWith(3));
        final IMap<String, Long> onMajority = majority.getMap(MAP);
        final IMap<String, Long> onMinority = minority.getMap(MAP);
        for (int i = 0; i < 1_000; i++) {
            onMajority.set("before-" + i, (long) i);
        }
        System.out.println("cluster of 3 formed; 1000 entries written; cutting 127.0.0.3 off");

        firewall("table inet " + FIREWALL_TABLE + " {\n"
                + "  chain output {\n    type filter hook output priority 0; policy accept;\n"
                + "    ip saddr 127.0.0.3 ip daddr { 127.0.0.1, 127.0.0.2 } drop\n"
                + "    ip saddr { 127.0.0.1, 127.0.0.2 } ip daddr 127.0.0.3 drop\n  }\n}\n");
        final long cut = System.nanoTime();
        await("the minority to refuse writes", () -> {
            try {
                onMinority.set("probe", 0L);
                return false;
            } catch (final SplitBrainProtectionException refused) {
                System.out.println("minority refuses: " + refused.getMessage());
                return true;
            }
        });
        await("the majority to see 2 members", () -> majority.getCluster().getMembers().size() == 2);
        System.out.println("split seen after " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - cut) + " ms");

        // Keys that existed before the split, changed on the majority while it lasts: a third updated,
        // a third deleted (the minority still holds their old values), a third left alone.
        final Map<String, Long> acknowledged = new HashMap<>();
        final Set<String> deleted = new HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            final String key = "before-" + i;
            if (i % 3 == 0) {
                onMajority.set(key, -1L - i);
                acknowledged.put(key, -1L - i);
            } else if (i % 3 == 1) {
                onMajority.delete(key);
                deleted.add(key);
            } else {
                acknowledged.put(key, (long) i);
            }
        }
        int minorityRefused = 0;
        int minorityAccepted = 0;
        final long writeUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (long i = 0; System.nanoTime() < writeUntil; i++) {
            onMajority.set("during-" + i, i);
            acknowledged.put("during-" + i, i);
            if (i % 10 == 0) {
                try {
                    onMinority.set("minority-" + i, i);
                    minorityAccepted++;
                } catch (final SplitBrainProtectionException refused) {
                    minorityRefused++;
                }
            }
        }
        System.out.println(acknowledged.size() + " writes acknowledged on the majority; on the minority "
                + minorityRefused + " refused, " + minorityAccepted + " accepted");
        check(minorityAccepted == 0, "the minority accepted " + minorityAccepted + " writes");

        firewall("delete table inet " + FIREWALL_TABLE + "\n");
        final long healed = System.nanoTime();
        await("the merge back to 3 members, cluster safe", () -> majority.getCluster().getMembers().size() == 3 && safeWith(3));
        System.out.println("merged after " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - healed) + " ms");

        int lost = 0;
        int wrong = 0;
        for (final Map.Entry<String, Long> entry : acknowledged.entrySet()) {
            final Long found = onMajority.get(entry.getKey());
            if (found == null) {
                lost++;
            } else if (!found.equals(entry.getValue())) {
                wrong++;
            }
        }
        int resurrected = 0;
        for (final String key : deleted) {
            if (onMajority.get(key) != null) {
                resurrected++;
            }
        }
        System.out.println(deleted.size() + " deletes acknowledged on the majority, " + resurrected + " of them back after healing");
        check(resurrected == 0, resurrected + " entries deleted on the majority came back with the merge");
        int minorityPresent = 0;
        for (final String key : onMajority.keySet()) {
            if (key.startsWith("minority-")) {
                minorityPresent++;
            }
        }
        System.out.println(acknowledged.size() + " writes acknowledged on the majority, " + (acknowledged.size() - lost)
                + " found, " + lost + " lost, " + wrong + " wrong after healing; " + minorityPresent
                + " of the minority's refused writes present");
        check(lost == 0 && wrong == 0, "majority writes lost or changed by the merge");
        check(minorityPresent == 0, "refused minority writes appeared after the merge");
        majority.shutdown();
        minority.shutdown();
    }

    /** Every member answers its health endpoint with this cluster size, safe and no migrations queued. */
    private static boolean safeWith(final int size) {
        for (final String host : HOSTS) {
            if (!MemberHealth.probe(host, PORT).map(health -> health.isSafeWith(size)).orElse(false)) {
                return false;
            }
        }
        return true;
    }

    private static Process startMember(final Path workDir, final Path jvmOptions, final int index) throws Exception {
        final String host = HOSTS[index];
        final Path config = Files.writeString(workDir.resolve("member-" + (index + 1) + ".yaml"), String.join("\n",
                "cluster-name: " + CLUSTER,
                "network:",
                "  host: " + host,
                "  port: " + PORT,
                "  members: [" + String.join(", ", List.of(HOSTS).stream().map(h -> h + ":" + PORT).toList()) + "]",
                // The default 15 s: these machines' clocks jump by seconds (Hazelcast logs "huge system
                // clock jump"), and a 4 s timeout made the majority's two members suspect each other.
                "  heartbeat-timeout-seconds: 15",
                "split-brain-protection: {enabled: true, minimum-cluster-size: 2}",
                "data-dir: " + workDir.resolve("member-" + (index + 1)).toAbsolutePath(),
                ""), StandardCharsets.UTF_8);
        final ProcessBuilder builder = new ProcessBuilder(JvmCommands.cliCommand(jvmOptions, "256m",
                System.getProperty("java.class.path"), null, List.of("node", "--config", config.toAbsolutePath().toString(),
                        "--parent-pid", Long.toString(ProcessHandle.current().pid()))))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(workDir.resolve("member-" + (index + 1) + ".log").toFile()));
        // Merge runs 5 s after a split heals instead of Hazelcast's 300 s, so the test sees it.
        builder.environment().put("JAVA_TOOL_OPTIONS",
                "-Dhazelcast.merge.first.run.delay.seconds=5 -Dhazelcast.merge.next.run.delay.seconds=5");
        return builder.start();
    }

    private static HazelcastInstance client(final String host) {
        final ClientConfig config = new ClientConfig();
        config.setClusterName(CLUSTER);
        config.setProperty("hazelcast.logging.type", "jdk");
        // One connection to one member: the majority client never routes to the minority, and the
        // minority client reaches only the cut-off member.
        config.getNetworkConfig().addAddress(host + ":" + PORT).setSmartRouting(false);
        config.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(120_000);
        return HazelcastClient.newHazelcastClient(config);
    }

    private static void firewall(final String rules) throws Exception {
        final Process nft = new ProcessBuilder("nft", "-f", "-").redirectErrorStream(true).start();
        nft.getOutputStream().write(rules.getBytes(StandardCharsets.UTF_8));
        nft.getOutputStream().close();
        final String output = new String(nft.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        check(nft.waitFor(30, TimeUnit.SECONDS) && nft.exitValue() == 0, "nft failed: " + output);
    }

    private static void await(final String what, final Callable<Boolean> condition) {
        Awaitility.await(what).atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200)).until(condition);
    }

    private static void check(final boolean condition, final String failure) {
        if (!condition) {
            throw new AssertionError(failure);
        }
    }
}
