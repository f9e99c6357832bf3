package io.streamgrid.examples.recommendations;

import com.hazelcast.jet.Job;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobOptions;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: 300 users of a {@link ClickStream} click through 2,000 items in sessions,
 * some clicks a few seconds out of order, 5 % of the items without neighbours. After the stream,
 * each user's {@code state.recommendations} must equal the stream's oracle, computed from that
 * user's clicks alone in closed form (see {@link ClickStream#expected}); the half-life (10 minutes)
 * is short enough that the decay decides rankings.
 */
class RecommendationsJobTest extends EmbeddedMemberTest {
    private static final int USERS = 300;

    private Map<Long, Recommendations> found() {
        return Map.copyOf(member.<Long, Recommendations>getMap(RecommendationsJob.RECOMMENDATIONS));
    }

    @Test
    void when_usersClickThroughSessions_then_eachUsersRecommendationsEqualTheOracles() {
        final ClickStream stream = new ClickStream(15, USERS, 2_000, 60);
        final RecommendationsJob job = new RecommendationsJob(600_000, 1_800_000, 5, 20);
        final Map<Long, Recommendations> expected = stream.expected(job);
        try (SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(dir, RecommendationsJob.CLICK.name()), RecommendationsJob.CLICK, 4)) {
            stream.append(log, 0, stream.clicks().size());
            log.appendEndOfStream();
        }
        startMember();
        member.getMap(RecommendationsJob.NEIGHBOURS).putAll(stream.neighbours());
        final Job running = Jobs.submit(member.getJet(), job.job(), JobOptions.of(dir).withLocalParallelism(2));
        try {
            await().atMost(Duration.ofMinutes(1)).until(() -> ClickStream.differences(expected, found()).isEmpty());
        } catch (final ConditionTimeoutException e) {
            final List<String> differ = ClickStream.differences(expected, found());
            throw new AssertionError(differ.size() + " of " + USERS + " users differ from the oracle, e.g. "
                    + differ.subList(0, Math.min(3, differ.size())), e);
        }
        final long empty = found().values().stream().filter(r -> r.items().length == 0).count();
        System.out.println(stream.clicks().size() + " clicks of " + USERS + " users: " + expected.size() + " expected, "
                + found().size() + " found, 0 differ; " + empty + " with no neighbours to recommend");
        assertThat(found()).hasSize(USERS);
        assertThat(empty).as("users whose last item has no neighbours").isPositive();
        assertThat(member.getMap(job.job().lateMap()).size()).isZero();
        running.cancel();
    }
}
