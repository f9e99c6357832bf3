package io.streamgrid.jobs.window;

import com.hazelcast.jet.Job;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.ingest.BuiltInLogs;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.LateEvent;
import io.streamgrid.jobs.usecase.IpTrafficJob;
import io.streamgrid.jobs.usecase.IpWindowCount;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Design of this test: 40,000 requests over 200 IPs with up to 3 s of disorder and 3 % late events
 * (up to 2 minutes late) go through the ip-traffic job (1-minute tumbling windows, 20 s allowed
 * lateness) over a 4-partition ingest log. The brute-force oracle applies the same rules; the job's
 * window counts and its late side output must equal the oracle's exactly.
 */
class TumblingWindowOracleTest extends EmbeddedMemberTest {
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void when_outOfOrderStreamWithLateEvents_then_windowCountsAndLateOutputEqualOracle() {
        final long size = 60_000;
        final long disorder = 3_000;
        final long lateness = 20_000;
        final GeneratorSpec spec = GeneratorSpec.of(EventType.REQUEST, 42, 40_000, 200).withRate(100)
                .withZipf(0.8).withDisorder(disorder, 0.03, 120_000);
        final List<WindowOracle.Event> events;
        try (BuiltInLogs logs = new BuiltInLogs(dir.resolve("ingest"), 4)) {
            events = JobTestSupport.generate(spec, logs.log(EventType.REQUEST), record -> null);
        }
        final WindowOracle.Result oracle = WindowOracle.sliding(events, size, size, disorder, lateness);
        final Map<String, Long> expected = new HashMap<>();
        oracle.windows().forEach((id, accepted) -> expected.put(IpTrafficJob.windowKey(id.key(), id.start()), (long) accepted.size()));
        assertThat(oracle.lateSequences()).as("the stream has late events beyond lateness").isNotEmpty();

        startMember();
        final IpTrafficJob job = new IpTrafficJob(new WindowPolicy(WindowDefinition.tumbling(size), disorder, lateness), 3.0, 100, 3);
        final Job running = Jobs.submit(member.getJet(), job,
                JobOptions.of(dir.resolve("ingest")).withSnapshotInterval(200).withLocalParallelism(2));

        JobTestSupport.awaitEqual(expected, () -> member.<String, IpWindowCount>getMap(job.stateMap()).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().count())), Duration.ofSeconds(90), running);
        final Set<Long> lateFound = member.<String, LateEvent>getMap(job.lateMap()).values().stream()
                .map(LateEvent::sequence).collect(Collectors.toCollection(TreeSet::new));
        System.out.println(expected.size() + " windows expected and found; " + oracle.lateSequences().size()
                + " late events expected, " + lateFound.size() + " in late." + job.name());
        assertThat(lateFound).isEqualTo(new TreeSet<>(oracle.lateSequences()));
        assertThat(member.getMap(job.rejectedMap()).size()).isZero();
        running.cancel();
    }
}
