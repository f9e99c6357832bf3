package io.streamgrid.cli;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import io.streamgrid.client.SubscriptionReport;
import io.streamgrid.cluster.MemberHealth;
import io.streamgrid.node.impl.ClusterView;
import io.streamgrid.node.impl.JobFigures;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code streamgrid top}: the cluster in the terminal, refreshed every second — members and their
 * partitions, jobs (events in per second, records behind, watermark lag, last snapshot), subscriptions — the
 * status page's figures without a browser. Rates need two collections of a job's metrics, which
 * Jet makes every few seconds: until then a job shows "—".
 */
@Command(name = "top", mixinStandardHelpOptions = true,
        description = "Show members, jobs and subscriptions, refreshed every second, until Ctrl-C.")
final class TopCommand extends ConnectedCommand implements Callable<Integer> {
    @Option(names = "--iterations", paramLabel = "N", defaultValue = "0",
            description = "Stop after N screens (default: run until Ctrl-C).")
    int iterations;

    @Option(names = "--interval-ms", paramLabel = "MS", defaultValue = "1000", description = "Time between screens (default: ${DEFAULT-VALUE}).")
    long intervalMs;

    @Override
    public Integer call() {
        final PrintWriter out = spec.commandLine().getOut();
        return withClient(client -> {
            final Map<String, JobFigures> previous = new HashMap<>();
            final Map<String, Double> rates = new HashMap<>();
            for (int screen = 1; iterations == 0 || screen <= iterations; screen++) {
                if (screen > 1) {
                    try {
                        Thread.sleep(intervalMs);
                    } catch (final InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return 0;
                    }
                }
                final String text = screen(client, previous, rates);
                // A terminal gets the screen cleared and redrawn; a pipe or a test gets the screens one after another.
                out.print((System.console() != null ? "\033[H\033[2J" : "") + text);
                out.flush();
            }
            return 0;
        });
    }

    /** One screen; {@code previous} and {@code rates} carry each job's last figures and rate between screens. */
    static String screen(final HazelcastInstance client, final Map<String, JobFigures> previous, final Map<String, Double> rates) {
        final StringBuilder text = new StringBuilder();
        final List<Member> members = new ArrayList<>(client.getCluster().getMembers());
        final Map<Member, Integer> partitions = ClusterView.partitionsByMember(client);
        // A client cannot ask whether the cluster is safe: each member's health endpoint says it.
        final List<String> rows = new ArrayList<>();
        boolean safe = true;
        for (final Member member : members) {
            final Optional<MemberHealth> health = MemberHealth.probe(member.getAddress().getHost(), member.getAddress().getPort());
            safe &= health.map(MemberHealth::clusterSafe).orElse(false);
            rows.add(String.format(Locale.ROOT, "%-24s %10d %12s%n", member.getAddress().getHost() + ":" + member.getAddress().getPort(),
                    partitions.getOrDefault(member, 0), health.map(h -> Integer.toString(h.migrationQueueSize())).orElse("no answer")));
        }
        text.append(String.format(Locale.ROOT, "StreamGrid  %d members, %s%n%n", members.size(),
                safe ? "safe" : "NOT safe (migrating, backups behind, or a member not answering)"));
        text.append(String.format(Locale.ROOT, "%-24s %10s %12s%n", "MEMBER", "PARTITIONS", "MIGRATIONS"));
        rows.forEach(text::append);
        text.append(String.format(Locale.ROOT, "%n%-28s %-12s %12s %14s %12s %12s %14s%n", "JOB", "STATUS", "EVENTS/S", "EVENTS IN",
                "BEHIND", "WM LAG", "SNAPSHOT MS"));
        for (final Job job : client.getJet().getJobs()) {
            if (job.getStatus().isTerminal()) {
                continue;
            }
            final JobFigures figures = JobFigures.of(job);
            final JobFigures before = previous.get(job.getName());
            if (figures != null && before != null && figures.collectedAtMs() > before.collectedAtMs()) {
                rates.put(job.getName(), figures.eventsPerSecondSince(before));
            }
            if (figures != null && (before == null || figures.collectedAtMs() > before.collectedAtMs())) {
                previous.put(job.getName(), figures);
            }
            final Double rate = rates.get(job.getName());
            text.append(String.format(Locale.ROOT, "%-28s %-12s %12s %14s %12s %12s %14s%n", job.getName(), job.getStatus(),
                    rate == null ? "—" : String.format(Locale.ROOT, "%,.0f", rate),
                    figures == null ? "—" : String.format(Locale.ROOT, "%,d", figures.eventsIn()),
                    figures == null ? "—" : String.format(Locale.ROOT, "%,d", figures.recordsBehind()),
                    figures == null || figures.watermarkLagMs() < 0 ? "—" : lag(figures.watermarkLagMs() / 1000.0),
                    figures == null || figures.snapshotMillis() == 0 ? "—" : String.format(Locale.ROOT, "%,d", figures.snapshotMillis())));
        }
        text.append("WM LAG = ").append(JobFigures.WATERMARK_LAG_MEANING).append(System.lineSeparator());
        final List<SubscriptionReport> subscriptions = ClusterView.subscriptions(client);
        text.append(String.format(Locale.ROOT, "%n%-24s %-30s %12s %8s %8s%n", "SUBSCRIPTION (MAP)", "WHERE", "DELIVERED", "RESYNCS",
                "BEHIND"));
        for (final SubscriptionReport report : subscriptions) {
            text.append(String.format(Locale.ROOT, "%-24s %-30s %,12d %,8d %,8d%n", report.map(), cut(report.where(), 30), report.delivered(),
                    report.resyncs(), report.queued()));
        }
        if (subscriptions.isEmpty()) {
            text.append("(none)").append(System.lineSeparator());
        }
        return text.toString();
    }

    /** A lag as people read it: seconds, minutes, hours, days. */
    private static String lag(final double seconds) {
        if (seconds < 120) {
            return String.format(Locale.ROOT, "%.1f s", seconds);
        }
        if (seconds < 7200) {
            return String.format(Locale.ROOT, "%.1f min", seconds / 60);
        }
        return seconds < 172_800 ? String.format(Locale.ROOT, "%.1f h", seconds / 3600) : String.format(Locale.ROOT, "%.0f d", seconds / 86_400);
    }

    private static String cut(final String text, final int width) {
        return text.length() <= width ? text : text.substring(0, width - 1) + "…";
    }
}
