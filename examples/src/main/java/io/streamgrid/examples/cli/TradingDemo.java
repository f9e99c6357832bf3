package io.streamgrid.examples.cli;

import io.streamgrid.cli.ClusterDemo;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.cli.Demos;
import io.streamgrid.cli.JobProgress;
import io.streamgrid.cli.StreamGridCli;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import io.streamgrid.client.Delta;
import io.streamgrid.client.DeltaListener;
import io.streamgrid.client.LocalView;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.client.Subscription;
import io.streamgrid.client.SubscriptionOptions;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.examples.trading.Exposure;
import io.streamgrid.examples.trading.ExposureAlert;
import io.streamgrid.examples.trading.Position;
import io.streamgrid.examples.trading.PositionsJob;
import io.streamgrid.examples.trading.TradeStream;
import io.streamgrid.examples.trading.Trades;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.JobOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.Collections;
import java.util.Arrays;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * {@code streamgrid demo trading}: the trading example (built only on the public API) on three
 * member processes: trades appended while it runs, one account followed through a client-side
 * local view, limit alerts as they come, a member killed with SIGKILL mid-stream, and at the end
 * every position, exposure and alert compared with the oracle. Exit 0 only if all match.
 */
@Command(name = "trading", mixinStandardHelpOptions = true,
        description = {"Run the trading example (positions, P&L, exposure limit alerts per account) on 3 members,",
                "follow one account in a local view, kill a member mid-stream, and check every result against an oracle."})
public final class TradingDemo extends ClusterDemo {
    private static final double LIMIT = 400_000;
    private static final int PARTITIONS = 6;
    /** Alerts printed as they come; the rest are counted. */
    private static final int ALERTS_SHOWN = 8;

    @Option(names = "--trades", defaultValue = "150000", description = "Trades to generate (default: ${DEFAULT-VALUE}).")
    int trades;

    @Option(names = "--accounts", defaultValue = "1000", description = "Accounts trading (default: ${DEFAULT-VALUE}).")
    int accounts;

    /**
     * The figures a trading desk asks first: how long a trade takes to reach a position on the screen
     * (percentiles over the followed account's trades, the kill's recovery included), and how long
     * after the kill positions moved again (the first trade appended after it, seen in the view).
     */
    private static void reportLatencyAndRecovery(final PrintWriter out, final String account, final Map<String, List<Integer>> tradesBySymbol,
                                                 final long[] appendedAt, final AtomicLongArray seenAt, final Demos.Kill kill) {
        final List<Long> micros = new ArrayList<>();
        long firstAfterKill = Long.MAX_VALUE;
        for (final List<Integer> ofSymbol : tradesBySymbol.values()) {
            for (final int trade : ofSymbol) {
                final long seen = seenAt.get(trade);
                if (seen != 0 && appendedAt[trade] != 0) {
                    micros.add(Math.max(0, seen - appendedAt[trade]) / 1_000);
                    if (kill != null && trade >= kill.afterRecords()) {
                        firstAfterKill = Math.min(firstAfterKill, seen);
                    }
                }
            }
        }
        if (micros.isEmpty()) {
            out.println("== trade -> position: the local view saw none of " + account + "'s trades' positions");
            return;
        }
        Collections.sort(micros);
        out.printf("== trade -> position in %s's local view: p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d trades "
                        + "(from the start of each trade's batch append; the max includes the kill's recovery)%n"
                        + "   the trades come at 10,000/s from the start while the job starts cold and later restarts: where its progress"
                        + " above trails the trades appended, these latencies are its backlog (perf's recommendation-latency measures"
                        + " a steady state)%n", account,
                percentile(micros, 0.50) / 1000.0, percentile(micros, 0.99) / 1000.0, micros.get(micros.size() - 1) / 1000.0, micros.size());
        if (kill != null && firstAfterKill != Long.MAX_VALUE) {
            out.printf("== recovery: positions moved again %.1f s after the kill (the first of %s's trades appended after it reached the "
                    + "view: the job had restored its last snapshot and re-read the trades after it)%n",
                    (firstAfterKill - kill.nanoTime()) / 1e9, account);
        }
    }

    /** The value at quantile {@code q} of sorted {@code values} (nearest rank). */
    private static long percentile(final List<Long> sorted, final double q) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
    }

    @Override
    protected int run(final PrintWriter out) throws Exception {
        final TradeStream stream = new TradeStream(2026, trades, accounts);
        final TradeStream.Trade followed = stream.trades().get(0);
        final KeyedJob<?> job = new PositionsJob(LIMIT).job();
        final JobOptions options = workDir.jobOptions();
        out.println("== StreamGrid trading demo: positions, realised P&L and exposure per account, alerts above "
                + String.format("%,.0f", LIMIT));
        try (LocalCluster cluster = workDir.startThreeMembers(out);
             SchemaLog log = SchemaLog.open(Jobs.logDirectory(job, options), Trades.TRADE, PARTITIONS);
             StreamGridClient streamGrid = StreamGridClient.connect(cluster.clientSettings())) {
            final HazelcastInstance client = streamGrid.hazelcast();
            final Job running = Jobs.submit(client.getJet(), job, options);
            out.println("== job " + job.name() + " submitted (exactly-once, snapshots every " + options.snapshotIntervalMs()
                    + " ms); " + trades + " trades of " + accounts + " accounts will be appended over about 15 s");

            // Trade -> position latency: each of the followed account's trades, from the start of the append of its batch
            // to the local view's first sight of the position it produced (its trade count says which trade that was).
            final Map<String, List<Integer>> tradesBySymbol = new HashMap<>();
            for (int i = 0; i < trades; i++) {
                final TradeStream.Trade trade = stream.trades().get(i);
                if (trade.account().equals(followed.account())) {
                    tradesBySymbol.computeIfAbsent(trade.symbol(), symbol -> new ArrayList<>()).add(i);
                }
            }
            final long[] appendedAt = new long[trades];
            final AtomicLongArray seenAt = new AtomicLongArray(trades);
            final AtomicInteger updates = new AtomicInteger();
            out.printf("   every 25th change of %s's positions, as its local view sees it:%n   %-8s  %-9s %6s   %8s  %19s%n",
                    followed.account(), "ACCOUNT", "SYMBOL", "QTY", "AVG PRICE", "REALISED P&L");
            final LocalView view = streamGrid.localView(Trades.POSITIONS, "account = '" + followed.account() + "'");
            view.onChange(delta -> {
                if (delta.kind() != Delta.Kind.LEAVE) {
                    final Position p = (Position) delta.value();
                    final List<Integer> ofSymbol = tradesBySymbol.get(p.symbol());
                    if (ofSymbol != null && p.trades() >= 1 && p.trades() <= ofSymbol.size()) {
                        // The view is conflated: it may skip a version, so this one is the first sight of
                        // every earlier trade of the symbol not seen yet (the view holds it or newer).
                        final long now = System.nanoTime();
                        for (int n = (int) p.trades() - 1; n >= 0 && seenAt.compareAndSet(ofSymbol.get(n), 0, now); n--) {
                            // marked
                        }
                    }
                }
                if (delta.kind() != Delta.Kind.LEAVE && updates.incrementAndGet() % 25 == 1) {
                    final Position p = (Position) delta.value();
                    out.printf("   %-8s  %-9s %6d @ %9.2f  realised %10.2f  (local view: %d positions)%n", p.account(), p.symbol(),
                            p.quantity(), p.averagePrice(), p.realisedPnl(), view.size());
                }
            });
            final AtomicInteger alerts = new AtomicInteger();
            final Subscription alertFeed = streamGrid.subscribe(Trades.ALERTS, "breach >= 1", new DeltaListener() {
                @Override
                public void onSnapshot(final Map<Object, Object> entries) {
                    out.println("   following " + followed.account() + " in a local view; subscribed to " + Trades.ALERTS);
                }

                @Override
                public void onDelta(final Delta delta) {
                    final ExposureAlert alert = (ExposureAlert) delta.value();
                    if (delta.kind() == Delta.Kind.LEAVE) {
                        return;
                    }
                    final int seen = alerts.incrementAndGet();
                    if (seen <= ALERTS_SHOWN) {
                        out.printf("   ALERT %s exposure %,.0f above %,.0f (breach %d)%n", alert.account(), alert.gross(),
                                alert.limit(), alert.breach());
                    } else if (seen == ALERTS_SHOWN + 1) {
                        out.println("   (more alerts arrive; counted, not shown)");
                    }
                }
            }, SubscriptionOptions.defaults());

            // What the job is doing while trades come: its progress and status every 2 s, and when it runs again after the kill.
            final JobProgress progress = new JobProgress(out, running, trades,
                    () -> client.<String, Position>getMap(Trades.POSITIONS).values().stream().mapToLong(Position::trades).sum());
            progress.start();
            final Demos.Kill kill = Demos.appendKillingMidway(cluster, out, trades, "trades", (from, to) -> {
                Arrays.fill(appendedAt, from, to, System.nanoTime());
                stream.append(log, from, to);
            });
            out.println("== all " + trades + " trades appended; waiting for the job to apply them");
            final TradeStream.Expected expected = stream.expected(LIMIT);
            final List<String> differences = Demos.readUntil(out, "positions, exposure and alerts to match the oracle",
                    () -> TradeStream.differences(expected, new HashMap<>(client.<String, Position>getMap(Trades.POSITIONS)),
                            new HashMap<>(client.<String, Exposure>getMap(Trades.EXPOSURE)),
                            new HashMap<>(client.<String, ExposureAlert>getMap(Trades.ALERTS))),
                    List::isEmpty);
            final long applied = client.<String, Position>getMap(Trades.POSITIONS).values().stream().mapToLong(Position::trades).sum();
            final Exposure exposure = client.<String, Exposure>getMap(Trades.EXPOSURE).get(followed.account());
            out.printf("== %s: %d positions in the local view, gross exposure %,.2f, realised P&L %,.2f%n", followed.account(),
                    view.size(), exposure.gross(), exposure.realisedPnl());
            out.println("== check: " + trades + " trades expected, " + applied + " applied; " + expected.positions().size()
                    + " positions, " + expected.exposures().size() + " exposures, " + expected.alerts().size() + " alerts expected, "
                    + differences.size() + " differ from the oracle" + (differences.isEmpty() ? "" : ", e.g. " + differences.get(0)));
            out.printf("== %,d alert changes reached the subscription (%d shown)%n", alerts.get(), Math.min(alerts.get(), ALERTS_SHOWN));
            progress.stop();
            reportLatencyAndRecovery(out, followed.account(), tradesBySymbol, appendedAt, seenAt, kill);
            if (kill != null && progress.runningAgainNanos() > kill.nanoTime()) {
                out.printf("== the job was RUNNING again %.1f s after the kill (Jet restarted it from its last snapshot)%n",
                        (progress.runningAgainNanos() - kill.nanoTime()) / 1e9);
            }
            alertFeed.close();
            view.close();
            running.cancel();
            final boolean passed = differences.isEmpty() && applied == trades;
            out.println(passed ? "== trading demo passed; stopping the cluster" : "== trading demo FAILED");
            return passed ? 0 : StreamGridCli.EXIT_FAILED;
        }
    }
}
