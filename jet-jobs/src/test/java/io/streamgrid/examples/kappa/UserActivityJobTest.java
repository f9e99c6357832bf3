package io.streamgrid.examples.kappa;

import com.hazelcast.jet.Job;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.ingest.LoadReport;
import io.streamgrid.jobs.ingest.SchemaLoader;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.KeyedJobs;
import io.streamgrid.jobs.pipeline.JobOptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: 20,000 access-log lines (Common and Combined format mixed) of 500 users, 20
 * of them unknown to {@code dim.users}, with about 1 % malformed lines of five kinds. Loaded with
 * the access-log format and enriched by {@link UserActivityJob}: each malformed line must be in the
 * rejected file with its number and reason; every valid request of a known user counted once in
 * its user's activity, enriched with the dimension's row; every request of an unknown user in the
 * unmatched side output.
 */
class UserActivityJobTest extends EmbeddedMemberTest {
    private static final DateTimeFormatter CLF_TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);
    private static final String[] METHODS = {"GET", "GET", "GET", "POST", "PUT", "DELETE"};
    private static final int USERS = 500;
    private static final int KNOWN = 480;

    private static String user(final int u) {
        return "user-" + u;
    }

    @Test
    void when_anAccessLogIsLoadedAndEnriched_then_everyValidRequestCountsOnceAndEveryBadLineIsAccountedFor() throws Exception {
        final SplittableRandom random = new SplittableRandom(14);
        final List<String> lines = new ArrayList<>();
        final List<AccessLogs.Request> valid = new ArrayList<>();
        final List<String> badReasons = new ArrayList<>();
        long unknownRequests = 0;
        long time = Instant.parse("2026-12-01T00:00:00Z").toEpochMilli();
        for (int i = 0; i < 20_000; i++) {
            time += random.nextInt(0, 50) / 1000 * 1000 + 1000 * random.nextInt(0, 2); // whole seconds: CLF has no millis
            final int u = random.nextInt(USERS);
            final String method = METHODS[random.nextInt(METHODS.length)];
            final String path = "/items/" + random.nextInt(1_000);
            final int status = random.nextInt(100) < 5 ? 503 : random.nextInt(100) < 10 ? 404 : 200;
            final long bytes = random.nextInt(50) == 0 ? -1 : random.nextInt(1, 50_000); // -1: no body
            final int bad = random.nextInt(500);
            final String stamp = "[" + CLF_TIME.format(Instant.ofEpochMilli(time)) + "]";
            final AccessLogs.Request request = new AccessLogs.Request("10.0." + (u % 250) + "." + (i % 250), user(u), time, method,
                    path, status, bytes);
            String line = request.line(i % 2 == 0);
            if (bad == 0) {
                line = "garbage that is no request " + i;
                badReasons.add("not a Common or Combined Log Format line");
            } else if (bad == 1) {
                line = line.replace(stamp, "[32/Foo/2026:99:00:00 +0000]");
                badReasons.add("request time");
            } else if (bad == 2) {
                line = line.replace("\"" + method + " ", "\"FETCH ");
                badReasons.add("method");
            } else if (bad == 3) {
                line = line.replace(path, "/" + "x".repeat(250));
                badReasons.add("path");
            } else if (bad == 4) {
                line = line.replace(" " + user(u) + " ", " - ");
                badReasons.add("user");
            } else {
                valid.add(request);
                unknownRequests += u >= KNOWN ? 1 : 0;
            }
            lines.add(line);
        }
        final Path file = dir.resolve("access.log");
        Files.write(file, lines);

        final Map<String, UserProfile> users = new HashMap<>();
        for (int u = 0; u < KNOWN; u++) {
            users.put(user(u), new UserProfile(user(u), country(user(u)), segment(user(u)), 20_000 + u));
        }
        final Map<String, UserActivity> expected = UserActivityJob.expected(valid, users);

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
        final Job running = KeyedJobs.submit(member.getJet(), job, JobOptions.of(dir).withLocalParallelism(2));
        JobTestSupport.awaitEqual(expected, () -> Map.copyOf(member.<String, UserActivity>getMap(UserActivityJob.ACTIVITY)),
                Duration.ofMinutes(1), running);
        final long unknown = unknownRequests;
        await().atMost(Duration.ofSeconds(30)).until(() -> member.getMap(job.unmatchedMap()).size() == unknown);
        final long requests = expected.values().stream().mapToLong(UserActivity::requests).sum();
        System.out.println(lines.size() + " lines: " + report.rejected() + " rejected with their reasons, " + requests
                + " requests of " + expected.size() + " known users enriched and counted once, " + unknown
                + " of unknown users in " + job.unmatchedMap() + "; 0 lost");
        assertThat(requests + unknown + report.rejected()).as("every line accounted for").isEqualTo(lines.size());
        assertThat(member.getMap(job.lateMap()).size()).isZero();
        running.cancel();
    }

    private static String country(final String user) {
        return new String[] {"DE", "FR", "US", "JP", "BR"}[Math.floorMod(user.hashCode(), 5)];
    }

    private static String segment(final String user) {
        return Math.floorMod(user.hashCode(), 3) == 0 ? "enterprise" : "consumer";
    }
}
