package io.streamgrid.examples.kappa;

import com.hazelcast.jet.Job;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.ingest.LoadReport;
import io.streamgrid.jobs.ingest.SchemaLoader;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.Replay;
import io.streamgrid.jobs.pipeline.UnmatchedEvent;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Design of this test — the Kappa claim: the enrichment job replayed from the start, side by side
 * with the live job, reproduces the live results exactly and leaves them alone. 20,000 lines of
 * {@link AccessLogFixture}: the first half is loaded and the live job runs over it; then a replay
 * from the start and a replay from a time in the second half are submitted while the second half is
 * loaded and the stream ended. Checked against the oracle ({@link UserActivityJob#expected}), written
 * apart from the job: the live serving map over every line; the replay from the start's over every
 * line too, and each of its maps (activity, unmatched, late, rejected) equal to the live job's; the
 * replay from the time's over the requests from that time on only.
 */
class KappaReplayTest extends EmbeddedMemberTest {
    private static final Duration TIMEOUT = Duration.ofMinutes(1);

    @Test
    void when_theEnrichmentIsReplayedBesideTheLiveJob_then_fromTheStartItEqualsTheLiveMapsAndFromATimeTheOracleFromThen()
            throws Exception {
        final AccessLogFixture generated = AccessLogFixture.generate(15, 20_000);
        final int half = generated.lines().size() / 2;
        final Path logDir = SchemaLog.directoryOf(dir, UserActivityJob.ACCESS.name());
        final long firstHalf = load(generated.lines().subList(0, half), logDir, "first", false).loaded();

        startMember();
        member.getMap(UserActivityJob.USERS).putAll(generated.users());
        final KeyedJob<?> job = new UserActivityJob().job();
        final JobOptions options = JobOptions.of(dir).withLocalParallelism(2);
        final Job live = Jobs.submit(member.getJet(), job, options);
        JobTestSupport.awaitEqual(UserActivityJob.expected(generated.valid().subList(0, (int) firstHalf), generated.users()),
                () -> activity(null), TIMEOUT, live);

        final Replay fromStart = Replay.into("from_start");
        final long from = generated.valid().get(generated.valid().size() * 3 / 4).epochMillis();
        final Replay fromTime = Replay.into("from_time").from(from);
        final Job replayFromStart = Jobs.submit(member.getJet(), job, options.withReplay(fromStart));
        final Job replayFromTime = Jobs.submit(member.getJet(), job, options.withReplay(fromTime));
        load(generated.lines().subList(half, generated.lines().size()), logDir, "second", true);

        final Map<String, UserActivity> expected = UserActivityJob.expected(generated.valid(), generated.users());
        JobTestSupport.awaitEqual(expected, () -> activity(null), TIMEOUT, live);
        JobTestSupport.awaitEqual(expected, () -> activity(fromStart), TIMEOUT, replayFromStart);
        System.out.println("live: " + JobTestSupport.diff(expected, activity(null)));
        System.out.println("replay from the start: " + JobTestSupport.diff(expected, activity(fromStart)));
        final long unknown = generated.unknownRequests();
        JobTestSupport.awaitEqual(unmatched(job, null), () -> unmatched(job, fromStart), TIMEOUT, replayFromStart);
        assertThat(unmatched(job, null)).as("requests of unknown users, live").hasSize((int) unknown);
        assertThat(Map.copyOf(member.getMap(fromStart.mapName(job.lateMap()))))
                .isEqualTo(Map.copyOf(member.getMap(job.lateMap()))).isEmpty();
        assertThat(Map.copyOf(member.getMap(fromStart.mapName(job.rejectedMap()))))
                .isEqualTo(Map.copyOf(member.getMap(job.rejectedMap()))).isEmpty();

        final List<AccessLogs.Request> fromThen = generated.validFrom(from);
        final Map<String, UserActivity> expectedFromTime = UserActivityJob.expected(fromThen, generated.users());
        JobTestSupport.awaitEqual(expectedFromTime, () -> activity(fromTime), TIMEOUT, replayFromTime);
        System.out.println("replay " + fromTime.describe() + ": " + JobTestSupport.diff(expectedFromTime, activity(fromTime)));
        final long unknownFromThen = fromThen.stream().filter(r -> !generated.users().containsKey(r.user())).count();
        assertThat(unmatched(job, fromTime)).as("requests of unknown users from then on").hasSize((int) unknownFromThen);
        assertThat(expectedFromTime).isNotEqualTo(expected);

        assertThat(activity(null)).as("the live map, after both replays").isEqualTo(expected);
        replayFromStart.cancel();
        replayFromTime.cancel();
        live.cancel();
    }

    /** Appends {@code lines} to the log (a second load appends to the first), then optionally its end of stream. */
    private LoadReport load(final List<String> lines, final Path logDir, final String name, final boolean end) throws Exception {
        final Path file = dir.resolve(name + ".log");
        Files.write(file, lines);
        try (SchemaLog log = SchemaLog.open(logDir, UserActivityJob.ACCESS, 4)) {
            final LoadReport report = new SchemaLoader(UserActivityJob.ACCESS).load(file, SchemaLoader.Format.ACCESSLOG, log,
                    dir.resolve(name + ".rejected"), line -> { });
            if (end) {
                log.appendEndOfStream();
            }
            return report;
        }
    }

    /** The serving map of the live job ({@code replay} null) or of a replay. */
    private Map<String, UserActivity> activity(final Replay replay) {
        return Map.copyOf(member.<String, UserActivity>getMap(replay == null ? UserActivityJob.ACTIVITY
                : replay.mapName(UserActivityJob.ACTIVITY)));
    }

    private Map<String, UnmatchedEvent> unmatched(final KeyedJob<?> job, final Replay replay) {
        return Map.copyOf(member.<String, UnmatchedEvent>getMap(replay == null ? job.unmatchedMap() : replay.mapName(job.unmatchedMap())));
    }
}
