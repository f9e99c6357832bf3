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
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: 20,000 access-log lines of {@link AccessLogFixture} (500 users, 20 of them
 * unknown to {@code dim.users}, about 1 % malformed lines of five kinds). Loaded with
 * the access-log format and enriched by {@link UserActivityJob}: each malformed line must be in the
 * rejected file with its number and reason; every valid request of a known user counted once in
 * its user's activity, enriched with the dimension's row; every request of an unknown user in the
 * unmatched side output.
 */
class UserActivityJobTest extends EmbeddedMemberTest {
    @Test
    void when_anAccessLogIsLoadedAndEnriched_then_everyValidRequestCountsOnceAndEveryBadLineIsAccountedFor() throws Exception {
        final AccessLogFixture generated = AccessLogFixture.generate(14, 20_000);
        final List<String> lines = generated.lines();
        final List<String> badReasons = generated.badReasons();
        final Map<String, UserProfile> users = generated.users();
        final Path file = dir.resolve("access.log");
        Files.write(file, lines);

        final Map<String, UserActivity> expected = UserActivityJob.expected(generated.valid(), users);

        final KeyedJob<?> job = new UserActivityJob().job();
        final Path rejected = dir.resolve("access.log.rejected");
        final LoadReport report;
        try (SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(dir, UserActivityJob.ACCESS.name()), UserActivityJob.ACCESS, 4)) {
            report = new SchemaLoader(UserActivityJob.ACCESS).load(file, SchemaLoader.Format.ACCESSLOG, log, rejected, line -> { });
            log.appendEndOfStream();
        }
        System.out.println(report);
        assertThat(report.rejected()).as("malformed lines rejected").isEqualTo(badReasons.size());
        final List<String> rejectedLines = Files.readAllLines(rejected);
        assertThat(String.join("\n", rejectedLines)).contains("not a Common or Combined Log Format line", "request time [32/Foo",
                "got 'FETCH'", "field path is 251 bytes long", "missing field 'user'");

        startMember();
        member.getMap(UserActivityJob.USERS).putAll(users);
        final Job running = Jobs.submit(member.getJet(), job, JobOptions.of(dir).withLocalParallelism(2));
        JobTestSupport.awaitEqual(expected, () -> Map.copyOf(member.<String, UserActivity>getMap(UserActivityJob.ACTIVITY)),
                Duration.ofMinutes(1), running);
        final long unknown = generated.unknownRequests();
        await().atMost(Duration.ofSeconds(30)).until(() -> member.getMap(job.unmatchedMap()).size() == unknown);
        final long requests = expected.values().stream().mapToLong(UserActivity::requests).sum();
        System.out.println(lines.size() + " lines: " + report.rejected() + " rejected with their reasons, " + requests
                + " requests of " + expected.size() + " known users enriched and counted once, " + unknown
                + " of unknown users in " + job.unmatchedMap() + "; 0 lost");
        assertThat(requests + unknown + report.rejected()).as("every line accounted for").isEqualTo(lines.size());
        assertThat(member.getMap(job.lateMap()).size()).isZero();
        running.cancel();
    }
}
