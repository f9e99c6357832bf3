package io.streamgrid.jobs;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import io.streamgrid.cluster.LoopbackPorts;
import io.streamgrid.jobs.event.BuiltInEvents;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.node.GridNode;
import io.streamgrid.node.NodeSettings;
import io.streamgrid.node.impl.ConfigTree;
import io.streamgrid.node.impl.JobCatalog;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Design of this soak test (tag {@code soak}: {@code mvn -B verify -Psoak -pl grid-node -am
 * -Dtest=StateBoundSoakTest -Dsurefire.failIfNoSpecifiedTests=false}, about 4 minutes): ip-traffic,
 * configured from the shipped defaults plus bounds ({@code state-ttl-seconds: 20}, baselines
 * expiring after 10 minutes of event time), runs on a member in this JVM over a stream in which
 * every minute of event time brings 2,000 IPs never seen before — 10,000 requests per wall-clock
 * second, one event-time minute per second, for 3 minutes: 360,000 distinct IPs. Without bounds
 * the window results and the baselines grow with every IP. Every 15 s the test measures the heap
 * after a full GC and the state map's size. After the bounds have taken hold (60 s), neither may
 * grow any more: the heap at the end at most 10 % plus 4 MB above its level at 60 s (the 240,000
 * baselines of the last two minutes alone would add about 14 MB), the state map at most the
 * entries of the last 30 s. Measured: 52 MB and 46,000 entries from 45 s to the end.
 */
@Tag("soak")
class StateBoundSoakTest {
    private static final int IPS_PER_MINUTE = 2_000;
    private static final int SECONDS = 180;
    private static final int TTL_SECONDS = 20;

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void when_everNewIpsForMinutes_then_stateAndHeapStayFlat() throws Exception {
        final int port = LoopbackPorts.freePort();
        final Path ingest = dir.resolve("ingest");
        final Path config = Files.writeString(dir.resolve("soak.yaml"), String.join("\n",
                "cluster-name: soak-" + port,
                "network: {port: " + port + ", members: ['127.0.0.1:" + port + "']}",
                "data-dir: " + dir.resolve("data"),
                "ingest: {dir: " + ingest + "}",
                "jobs:",
                "  ip-traffic: {state-ttl-seconds: " + TTL_SECONDS + ", baseline-expiry-ms: 600000}",
                ""));
        final ConfigTree tree = ConfigTree.load(Optional.of(config));
        final WindowedJob<?> job = JobCatalog.job("ip-traffic", tree);
        final List<String> samples = new ArrayList<>();
        try (GridNode node = GridNode.start(NodeSettings.load(Optional.of(config), NodeSettings.Overrides.none()));
             SchemaLog log = Scenario.requestLog(ingest, 8)) {
            final HazelcastInstance member = node.hazelcast();
            final Job running = Jobs.submit(member.getJet(), job, JobCatalog.options(tree));
            final BuiltInEvents record = new BuiltInEvents();
            long heapAt60 = 0;
            long sequence = 0;
            final long start = System.nanoTime();
            for (int minute = 0; minute < SECONDS; minute++) {
                // One minute of event time: 2,000 new IPs, 5 requests each, in time order.
                for (int k = 0; k < 5; k++) {
                    for (int i = 0; i < IPS_PER_MINUTE; i++) {
                        final long ip = 0x0a000000L + (long) minute * IPS_PER_MINUTE + i;
                        log.append(record.request(1_767_225_600_000L + minute * 60_000L + k * 12_000L + i * 5L,
                                sequence++, ip, 0, 100, 200));
                    }
                }
                final long due = start + TimeUnit.SECONDS.toNanos(minute + 1);
                while (System.nanoTime() < due) {
                    Thread.sleep(5);
                }
                if ((minute + 1) % 15 == 0) {
                    final long heap = heapAfterGc();
                    final int stateSize = member.getMap(job.stateMap()).size();
                    samples.add(String.format("t=%3ds heap=%4d MB %s=%d", minute + 1, heap >> 20, job.stateMap(), stateSize));
                    System.out.println(samples.get(samples.size() - 1));
                    if (minute + 1 == 60) {
                        heapAt60 = heap;
                    }
                }
            }
            final long heapAtEnd = heapAfterGc();
            final int stateAtEnd = member.getMap(job.stateMap()).size();
            running.cancel();
            System.out.println((long) SECONDS * IPS_PER_MINUTE + " distinct IPs; heap after GC " + (heapAt60 >> 20)
                    + " MB at 60 s, " + (heapAtEnd >> 20) + " MB at the end; " + job.stateMap() + " holds " + stateAtEnd);
            assertThat(stateAtEnd).as("state entries at the end, " + samples)
                    .isLessThanOrEqualTo((TTL_SECONDS + 10) * IPS_PER_MINUTE);
            assertThat(heapAtEnd).as("heap at the end vs at 60 s, " + samples)
                    .isLessThanOrEqualTo(heapAt60 + heapAt60 / 10 + (4L << 20));
        }
    }

    private static long heapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
