package io.streamgrid.examples.cli;

import io.streamgrid.cli.ClusterDemo;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.cli.Demos;
import io.streamgrid.cli.StreamGridCli;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import io.streamgrid.client.Delta;
import io.streamgrid.client.DeltaListener;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.client.Subscription;
import io.streamgrid.client.SubscriptionOptions;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.examples.recommendations.ClickStream;
import io.streamgrid.examples.recommendations.Recommendations;
import io.streamgrid.examples.recommendations.RecommendationsJob;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.JobOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * {@code streamgrid demo recommendations}: the recommendations example (per-user profile in keyed
 * state, recommendations rewritten on every click, built only on the public API) on three member
 * processes: a click stream appended while it runs, one user's recommendations printed as a
 * continuous query delivers them, a member killed with SIGKILL mid-stream, and at the end every
 * user's recommendations and click count compared with the oracle. Exit 0 only if all are equal.
 */
@Command(name = "recommendations", mixinStandardHelpOptions = true,
        description = {"Run the recommendations example (per-user category affinity, history and session; recommendations",
                "rewritten on every click) on 3 members, follow one user's recommendations as they change, kill a member",
                "mid-stream, and check every user's recommendations against the oracle."})
public final class RecommendationsDemo extends ClusterDemo {
    private static final int PARTITIONS = 6;

    @Option(names = "--users", defaultValue = "2000", description = "Users clicking (default: ${DEFAULT-VALUE}).")
    int users;

    @Override
    protected int run(final PrintWriter out) throws Exception {
        final ClickStream stream = new ClickStream(2026, users, 5_000, 95);
        final RecommendationsJob recommendations = new RecommendationsJob();
        final KeyedJob<?> job = recommendations.job();
        final Map<Long, Recommendations> expected = stream.expected(recommendations);
        final int total = stream.clicks().size();
        final long watched = busiestUser(stream);
        out.println("== StreamGrid recommendations demo: " + users + " users, " + total + " clicks over 5,000 items in 20 "
                + "categories; " + stream.neighbours().size() + " items have neighbours in " + RecommendationsJob.NEIGHBOURS);
        final JobOptions options = workDir.jobOptions();
        try (LocalCluster cluster = workDir.startThreeMembers(out);
             StreamGridClient streamGrid = StreamGridClient.connect(cluster.clientSettings());
             SchemaLog log = SchemaLog.open(Jobs.logDirectory(job, options), RecommendationsJob.CLICK, PARTITIONS)) {
            final HazelcastInstance client = streamGrid.hazelcast();
            client.getMap(RecommendationsJob.NEIGHBOURS).putAll(stream.neighbours());
            final Job running = Jobs.submit(client.getJet(), job, options);
            out.println("== job " + job.name() + " submitted (exactly-once, snapshots every " + options.snapshotIntervalMs()
                    + " ms); the clicks will be appended over about 15 s, a few seconds out of order now and then");
            final AtomicInteger shown = new AtomicInteger();
            final Subscription following = streamGrid.subscribe(RecommendationsJob.RECOMMENDATIONS, "user = " + watched,
                    new DeltaListener() {
                        @Override
                        public void onSnapshot(final Map<Object, Object> entries) {
                            out.println("   following user " + watched + "'s recommendations (a continuous query)");
                        }

                        @Override
                        public void onDelta(final Delta delta) {
                            if (delta.kind() != Delta.Kind.LEAVE && shown.incrementAndGet() <= 15) {
                                final Recommendations r = (Recommendations) delta.value();
                                out.printf("   user %d, click %d at %s (session of %d views, top category %d): recommends %s%n",
                                        r.user(), r.clicks(), Instant.ofEpochMilli(r.lastClick()), r.sessionViews(),
                                        r.topCategory(), Arrays.toString(r.items()));
                            }
                        }
                    }, SubscriptionOptions.defaults());

            Demos.appendKillingMidway(cluster, out, total, "clicks", (from, to) -> stream.append(log, from, to));
            out.println("== all " + total + " clicks appended; waiting for the job");
            final Map<Long, Recommendations> found = Demos.readUntil(out, "the recommendations to match the oracle",
                    () -> new HashMap<>(client.<Long, Recommendations>getMap(RecommendationsJob.RECOMMENDATIONS)),
                    read -> ClickStream.differences(expected, read).isEmpty());
            final List<String> differences = ClickStream.differences(expected, found);
            final ClickStream.ClickCount count = ClickStream.count(expected, found);
            final long lost = count.lost();
            final long duplicated = count.duplicated();
            final int late = client.getMap(job.lateMap()).size();
            out.println("== check: " + total + " clicks expected, " + count.counted() + " counted, " + lost + " lost, " + duplicated
                    + " duplicated; " + expected.size() + " users' recommendations expected, " + (expected.size() - differences.size())
                    + " equal the oracle, " + differences.size() + " differ" + (differences.isEmpty() ? "" : " (e.g. "
                    + differences.get(0) + ")") + "; " + late + " clicks too late");
            following.close();
            running.cancel();
            final boolean passed = differences.isEmpty() && lost + duplicated == 0 && late == 0;
            out.println(passed ? "== recommendations demo passed; stopping the cluster" : "== recommendations demo FAILED");
            return passed ? 0 : StreamGridCli.EXIT_FAILED;
        }
    }

    /** The user with the most clicks (the lowest id on ties): the one whose recommendations change most often. */
    private static long busiestUser(final ClickStream stream) {
        final Map<Long, Long> clicks = stream.clicks().stream()
                .collect(Collectors.groupingBy(ClickStream.Click::user, Collectors.counting()));
        long busiest = -1;
        for (final Map.Entry<Long, Long> user : clicks.entrySet()) {
            if (busiest < 0 || user.getValue() > clicks.get(busiest) || user.getValue().equals(clicks.get(busiest))
                    && user.getKey() < busiest) {
                busiest = user.getKey();
            }
        }
        return busiest;
    }
}
