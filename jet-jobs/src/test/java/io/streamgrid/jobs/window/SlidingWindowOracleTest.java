package io.streamgrid.jobs.window;

import io.streamgrid.jobs.usecase.ClickCounts;
import io.streamgrid.jobs.pipeline.WindowedJob;
import com.hazelcast.jet.Job;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.event.ClickAction;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.ingest.BuiltInLogs;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.LateEvent;
import io.streamgrid.jobs.usecase.UserClicks;
import io.streamgrid.jobs.usecase.UserClicksHourlyJob;
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
 * Design of this test: 30,000 clicks of 100 users, out of order by up to 5 s, 3 % late by up to
 * 4 minutes, through user-clicks-hourly with 10-minute windows sliding by 1 minute and 1 minute of
 * allowed lateness. A late event may miss some of its windows and still count in others; the
 * brute-force oracle says which. The job's views/clicks/purchases per window and its late side
 * output must equal the oracle's.
 */
class SlidingWindowOracleTest extends EmbeddedMemberTest {
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void when_outOfOrderStreamWithLateEvents_then_slidingSumsAndLateOutputEqualOracle() {
        final long size = 600_000;
        final long slide = 60_000;
        final long disorder = 5_000;
        final long lateness = 60_000;
        final GeneratorSpec spec = GeneratorSpec.of(EventType.CLICK, 7, 30_000, 100).withRate(20)
                .withZipf(1.0).withDisorder(disorder, 0.03, 240_000);
        final List<WindowOracle.Event> events;
        final int action = EventType.CLICK.schema().layout().indexOf("action");
        try (BuiltInLogs logs = new BuiltInLogs(dir.resolve("ingest"), 3)) {
            events = JobTestSupport.generate(spec, logs.log(EventType.CLICK), record -> record.getEnumOrdinal(action));
        }
        final WindowOracle.Result oracle = WindowOracle.sliding(events, size, slide, disorder, lateness);
        final Map<String, List<Long>> expected = new HashMap<>();
        oracle.windows().forEach((id, accepted) -> expected.put(UserClicksHourlyJob.windowKey(id.key(), id.start()), List.of(
                count(accepted, ClickAction.CLICK), count(accepted, ClickAction.VIEW),
                count(accepted, ClickAction.PURCHASE))));
        assertThat(oracle.lateSequences()).isNotEmpty();

        startMember();
        final WindowedJob<ClickCounts> job = UserClicksHourlyJob.of(
                new WindowPolicy(WindowDefinition.sliding(size, slide), disorder, lateness));
        final Job running = Jobs.submit(member.getJet(), job, JobOptions.of(dir.resolve("ingest")).withSnapshotInterval(200));

        JobTestSupport.awaitEqual(expected, () -> member.<String, UserClicks>getMap(job.stateMap()).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, e -> List.of(e.getValue().clicks(), e.getValue().views(),
                        e.getValue().purchases()))), Duration.ofSeconds(30), running);
        final TreeSet<Long> lateFound = member.<String, LateEvent>getMap(job.lateMap()).values().stream()
                .map(LateEvent::sequence).collect(Collectors.toCollection(TreeSet::new));
        System.out.println(expected.size() + " sliding windows expected and found; " + oracle.lateSequences().size()
                + " late events expected, " + lateFound.size() + " in late." + job.name());
        assertThat(lateFound).isEqualTo(new TreeSet<>(oracle.lateSequences()));
        running.cancel();
    }

    private static long count(final List<WindowOracle.Event> events, final ClickAction action) {
        return events.stream().filter(e -> (int) e.payload() == action.ordinal()).count();
    }
}
