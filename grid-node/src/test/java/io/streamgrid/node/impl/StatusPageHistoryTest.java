package io.streamgrid.node.impl;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.jet.pipeline.Sinks;
import com.hazelcast.jet.pipeline.test.TestSources;
import io.streamgrid.jobs.JobTestSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: the status page keeps a chart history per job name, and replays and
 * resubmissions add names without end. Fifteen jobs run until each has history on the page, then
 * all are cancelled: the page must keep the history of the last ten finished only. Before, every
 * name's history was kept for as long as the member ran.
 */
class StatusPageHistoryTest {
    private static final Pattern JOB_NAME = Pattern.compile("\"name\":\"(history-job-\\d+)\"");
    private HazelcastInstance member;

    @AfterEach
    void stop() {
        if (member != null) {
            member.shutdown();
        }
    }

    @Test
    void when_manyJobsFinish_then_thePageKeepsTheHistoryOfTheLastTenOnly() {
        member = JobTestSupport.embeddedMember();
        final StatusPage page = new StatusPage(member, "127.0.0.1", () -> null);

        final List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            final Pipeline pipeline = Pipeline.create();
            pipeline.readFrom(TestSources.itemStream(10)).withoutTimestamps().writeTo(Sinks.noop());
            jobs.add(member.getJet().newJob(pipeline, new JobConfig().setName("history-job-" + i)));
        }
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(600))
                .until(() -> jobsWithHistory(page.json()) == 15);

        jobs.forEach(Job::cancel);
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(600))
                .until(() -> jobs.stream().allMatch(job -> job.getStatus().isTerminal()));
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(600))
                .untilAsserted(() -> assertThat(jobsWithHistory(page.json())).as("finished jobs with history on the page")
                        .isEqualTo(10));
    }

    /** The jobs status.json shows (those with a history), counted by name. */
    private static long jobsWithHistory(final String json) {
        final Matcher names = JOB_NAME.matcher(json);
        long count = 0;
        while (names.find()) {
            count++;
        }
        return count;
    }
}
