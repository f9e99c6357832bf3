package io.streamgrid.jobs.window;

import io.streamgrid.jobs.usecase.SessionStats;
import io.streamgrid.jobs.pipeline.WindowedJob;
import com.hazelcast.jet.Job;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.ingest.BuiltInLogs;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.LateEvent;
import io.streamgrid.jobs.usecase.UserSession;
import io.streamgrid.jobs.usecase.UserSessionsJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Design of this test: 12,000 clicks of 300 users at a pace that leaves gaps longer than the
 * 2-minute session gap, so users have many sessions; out of order by up to 20 s and 4 % late by up
 * to 10 minutes, so late events merge sessions that were already reported (which the job must
 * retract under their old start) and some are too late. The job's sessions — start, end, event
 * count, distinct items — and its late side output must equal the brute-force oracle's.
 */
class SessionWindowOracleTest extends EmbeddedMemberTest {
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void when_outOfOrderStreamWithLateEvents_then_sessionsAndLateOutputEqualOracle() {
        final long gap = 120_000;
        final long disorder = 20_000;
        final long lateness = 180_000;
        final GeneratorSpec spec = GeneratorSpec.of(EventType.CLICK, 11, 12_000, 300).withRate(2)
                .withZipf(0.5).withDisorder(disorder, 0.04, 600_000);
        final List<WindowOracle.Event> events;
        final int item = EventType.CLICK.schema().layout().indexOf("item");
        try (BuiltInLogs logs = new BuiltInLogs(dir.resolve("ingest"), 4)) {
            events = JobTestSupport.generate(spec, logs.log(EventType.CLICK), record -> record.getLong(item));
        }
        final WindowOracle.Result oracle = WindowOracle.sessions(events, gap, disorder, lateness);
        final Map<String, List<Long>> expected = new HashMap<>();
        oracle.windows().forEach((id, accepted) -> expected.put(UserSessionsJob.sessionKey(id.key(), id.start()), List.of(
                id.end(), (long) accepted.size(), accepted.stream().map(WindowOracle.Event::payload).distinct().count())));
        assertThat(oracle.lateSequences()).isNotEmpty();

        startMember();
        final WindowedJob<SessionStats> job = UserSessionsJob.of(new WindowPolicy(WindowDefinition.session(gap), disorder, lateness));
        final Job running = Jobs.submit(member.getJet(), job,
                JobOptions.of(dir.resolve("ingest")).withSnapshotInterval(200).withLocalParallelism(2));

        JobTestSupport.awaitEqual(expected, () -> member.<String, UserSession>getMap(job.stateMap()).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> List.of(e.getValue().end(), e.getValue().events(),
                        (long) e.getValue().distinctItems()))), Duration.ofSeconds(90), running);
        final TreeSet<Long> lateFound = member.<String, LateEvent>getMap(job.lateMap()).values().stream()
                .map(LateEvent::sequence).collect(Collectors.toCollection(TreeSet::new));
        final long corrected = member.<String, UserSession>getMap(job.stateMap()).values().stream()
                .filter(UserSession::corrected).count();
        System.out.println(expected.size() + " sessions expected and found (" + corrected + " corrected by late data); "
                + oracle.lateSequences().size() + " late events expected, " + lateFound.size() + " in late." + job.name());
        assertThat(lateFound).isEqualTo(new TreeSet<>(oracle.lateSequences()));
        assertThat(corrected).as("late data corrected some sessions").isPositive();
        running.cancel();
    }
}
