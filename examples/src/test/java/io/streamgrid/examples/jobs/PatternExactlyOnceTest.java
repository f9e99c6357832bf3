package io.streamgrid.examples.jobs;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.jobs.Scenario;
import io.streamgrid.examples.machines.FleetStream;
import io.streamgrid.examples.machines.MachineHealthJob;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pattern.PatternAlert;
import io.streamgrid.jobs.pipeline.JobOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: the machine-health pattern job (three streams per machine, two patterns)
 * runs exactly-once on three member processes over a fleet of 400 machines, 150 s of readings each
 * (180,000 readings, up to 1.5 s out of order), appended while it runs; a member is killed with
 * SIGKILL mid-stream and the job is restarted 5 times at random moments. The alerts must be exactly
 * the failure signatures the fleet was generated with: none missed, none false, none twice.
 */
class PatternExactlyOnceTest {
    private static final int PARTITIONS = 6;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void when_memberKilledAndJobRestarted_then_everyFailureSignatureAlertedExactlyOnce(final TestInfo test) throws Exception {
        final Path workDir = TestWorkDir.of(test);
        final FleetStream fleet = new FleetStream(41, 400, 150, 20, 12);
        final int total = fleet.readings().size();
        final KeyedJob<?> job = new MachineHealthJob().job();
        final JobOptions options = JobOptions.of(workDir.resolve("ingest")).withSnapshotInterval(200).withLocalParallelism(2);
        try (LocalCluster cluster = LocalCluster.builder().members(3).memberHeap("512m").workDir(workDir).start();
             FleetStream.Logs logs = FleetStream.Logs.open(options.ingestDir(), PARTITIONS)) {
            final HazelcastInstance client = cluster.newClient();
            final Job running = Jobs.submit(client.getJet(), job, options);
            final Scenario.PacedWriter writer = new Scenario.PacedWriter(afterEach -> {
                for (int i = 0; i < total; i++) {
                    fleet.append(logs, i, i + 1);
                    afterEach.run();
                }
            }, total, 20);
            writer.start();
            writer.awaitAppended(total / 3);
            cluster.kill(Scenario.notTheCoordinator(cluster, client));
            final long killedAt = System.nanoTime();
            System.out.println("killed a member at " + writer.appended.get() + " readings appended");
            // The restarts begin once Jet's coordinator can no longer hold a snapshot start of the
            // execution the kill ended, and a snapshot has completed since. Jet 5.7 retries such a
            // start when its write fails (at the latest after the 5 s backup timeout): it resets the
            // job's ongoing snapshot id and in-progress flag — those of whatever execution runs by
            // then — and schedules a snapshot for it: two attempts at one id, and the job record
            // then names a snapshot map the second attempt cleared. A restart before the next snapshot completes finds it "damaged" and
            // Jet suspends the job (CI saw it three times; perf/NOTES.md, "A job suspended
            // by Jet's snapshot validation"). That race is Jet's, with or without restarts of
            // ours; what this test checks is StreamGrid's exactly-once through a kill and restarts.
            final long staleStartsGone = killedAt + TimeUnit.SECONDS.toNanos(10);
            while (System.nanoTime() < staleStartsGone) {
                Thread.sleep(100);
            }
            Scenario.awaitNextSnapshot(client, running, cluster);
            final SplittableRandom random = new SplittableRandom(5);
            for (int restart = 0; restart < 5; restart++) {
                Thread.sleep(500 + random.nextInt(1_500));
                Scenario.awaitRunning(running, cluster);
                running.restart();
            }
            writer.finish();
            logs.appendEndOfStream();

            final AtomicReference<FleetStream.Check> check = new AtomicReference<>(fleet.check(new HashMap<>()));
            try {
                await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500)).until(() -> {
                    check.set(fleet.check(new HashMap<>(client.<String, PatternAlert>getMap(MachineHealthJob.ALERTS))));
                    return check.get().passed();
                });
            } catch (final org.awaitility.core.ConditionTimeoutException e) {
                System.out.println("did not converge");
            }
            final FleetStream.Check result = check.get();
            System.out.println(result.expected() + " expected, " + (result.raised() - result.wrong().size() - result.duplicated())
                    + " found, " + result.missed().size() + " lost, " + result.duplicated() + " duplicated, " + result.wrong().size()
                    + " false (" + total + " readings); " + result);
            assertThat(result.missed()).as("failure signatures without an alert").isEmpty();
            assertThat(result.wrong()).as("alerts for no failure signature").isEmpty();
            assertThat(result.duplicated()).as("signatures alerted twice").isZero();
            assertThat(client.getMap(job.lateMap()).size()).as("late readings").isZero();
            running.cancel();
        }
    }
}
