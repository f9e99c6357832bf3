package io.streamgrid.cli;

import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import com.hazelcast.jet.core.JobSuspensionCause;
import com.hazelcast.jet.core.metrics.JobMetrics;
import com.hazelcast.jet.core.metrics.Measurement;
import io.streamgrid.jobs.ingest.Progress;
import io.streamgrid.jobs.pipeline.JobMetricNames;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Proxy;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How {@code job replay} follows a replay, against a scripted job: each look at the job takes the
 * next status and the metrics Jet last collected (collection time, events in, records behind).
 */
class ReplayProgressTest {
    private record Look(JobStatus status, long collectedAtMs, long eventsIn, long behind) {
    }

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void when_theReplayWorksThroughItsBacklog_then_aLinePerCollectionAndItEndsAfterTwoCollectionsCaughtUp() {
        final Job job = scripted(new Look(JobStatus.STARTING, 0, 0, 0),
                new Look(JobStatus.RUNNING, 1_000, 100, 900),
                new Look(JobStatus.RUNNING, 1_000, 100, 900), // the same collection: no new line
                new Look(JobStatus.RUNNING, 2_000, 300, 700), // 700 behind at 200/s: not caught up
                new Look(JobStatus.RUNNING, 3_000, 1_000, 3), // 3 behind: one per partition at most, once
                new Look(JobStatus.RUNNING, 4_000, 1_000, 250), // behind again (appended): counts from 0
                new Look(JobStatus.RUNNING, 5_000, 1_250, 0),
                new Look(JobStatus.RUNNING, 6_000, 1_250, 0));

        final int code = follow(job, 1_000, 4);

        assertThat(code).isZero();
        final List<String> lines = out.toString().lines().toList();
        assertThat(lines).hasSize(7);
        assertThat(lines.get(0)).matches("replay r\\.x: 10 %, [\\d,]+/s, about .+ left \\(900 records behind\\)");
        assertThat(lines.get(1)).startsWith("replay r.x: 30 %").endsWith("(700 records behind)");
        assertThat(lines.get(2)).startsWith("replay r.x: 100 %").endsWith("(3 records behind)");
        assertThat(lines.get(3)).startsWith("replay r.x: 75 %").endsWith("(250 records behind)");
        assertThat(lines.get(4)).endsWith("(0 records behind)");
        assertThat(lines.get(5)).endsWith("(0 records behind)");
        assertThat(lines.get(6)).startsWith("replay r.x caught up with its logs (1,000 records when it started)")
                .contains("streamgrid job cancel r.x");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void when_theReplayIsSuspendedOrCancelledOnTheWay_then_itEndsWithExit1SayingSo() {
        final int suspended = follow(scripted(new Look(JobStatus.RUNNING, 1_000, 10, 990), new Look(JobStatus.SUSPENDED, 0, 0, 0)),
                1_000, 4);
        assertThat(suspended).isEqualTo(1);
        assertThat(err.toString()).contains("replay r.x is SUSPENDED (disk full) before it caught up with its logs: "
                + "resume it with 'streamgrid job resume r.x'");

        final int cancelled = follow(scripted(new Look(JobStatus.RUNNING, 1_000, 10, 990), new Look(JobStatus.FAILED, 0, 0, 0)),
                1_000, 4);
        assertThat(cancelled).isEqualTo(1);
        assertThat(err.toString()).contains("replay r.x FAILED: ");
        assertThat(out.toString().lines().filter(line -> line.contains("caught up"))).isEmpty();
    }

    private int follow(final Job job, final long records, final int partitions) {
        return new ReplayProgress(job, records, partitions, new Progress(), new PrintWriter(out, true), new PrintWriter(err, true), 1)
                .follow();
    }

    /** A job named r.x whose every status call takes the next look (the last one repeats). */
    private static Job scripted(final Look... looks) {
        final Deque<Look> script = new ArrayDeque<>(List.of(looks));
        final Look[] current = {looks[0]};
        final JobSuspensionCause diskFull = (JobSuspensionCause) Proxy.newProxyInstance(ReplayProgressTest.class.getClassLoader(),
                new Class<?>[] {JobSuspensionCause.class}, (proxy, method, args) -> switch (method.getName()) {
                    case "requestedByUser" -> false;
                    case "errorCause", "description" -> "disk full";
                    default -> throw new UnsupportedOperationException(method.getName());
                });
        return (Job) Proxy.newProxyInstance(ReplayProgressTest.class.getClassLoader(), new Class<?>[] {Job.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getName" -> "r.x";
                    case "getStatus" -> {
                        if (!script.isEmpty()) {
                            current[0] = script.poll();
                        }
                        yield current[0].status();
                    }
                    case "getMetrics" -> metrics(current[0]);
                    case "getSuspensionCause" -> diskFull;
                    case "getFuture" -> java.util.concurrent.CompletableFuture.failedFuture(new IllegalStateException("boom"));
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }

    private static JobMetrics metrics(final Look look) {
        if (look.collectedAtMs() == 0) {
            return JobMetrics.empty();
        }
        return JobMetrics.of(Map.of(
                JobMetricNames.EVENTS_IN, List.of(Measurement.of(JobMetricNames.EVENTS_IN, look.eventsIn(), look.collectedAtMs(), Map.of())),
                JobMetricNames.RECORDS_BEHIND, List.of(Measurement.of(JobMetricNames.RECORDS_BEHIND, look.behind(), look.collectedAtMs(),
                        Map.of()))));
    }
}
