package io.streamgrid.examples.jobs;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.jobs.Scenario;
import io.streamgrid.examples.trading.Exposure;
import io.streamgrid.examples.trading.ExposureAlert;
import io.streamgrid.examples.trading.Position;
import io.streamgrid.examples.trading.PositionsJob;
import io.streamgrid.examples.trading.TradeStream;
import io.streamgrid.examples.trading.Trades;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.JobOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: the trading example runs exactly-once on three member processes over
 * 200,000 trades of 2,000 accounts appended while it runs; a member is killed with SIGKILL
 * mid-stream. Every position (quantity, average price, realised P&amp;L), every account's exposure and
 * every limit alert must then equal the oracle's. Positions depend on the order of an account's
 * trades, so a trade applied twice or lost after the restore shows up in the quantities.
 */
class TradingExactlyOnceTest {
    private static final int TRADES = 200_000;
    private static final double LIMIT = 400_000;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void when_memberKilledMidStream_then_positionsPnlAndAlertsEqualOracle(final TestInfo test) throws Exception {
        final Path workDir = TestWorkDir.of(test);
        final TradeStream stream = new TradeStream(17, TRADES, 2_000);
        final TradeStream.Expected expected = stream.expected(LIMIT);
        final KeyedJob<?> job = new PositionsJob(LIMIT).job();
        final JobOptions options = JobOptions.of(workDir.resolve("ingest")).withSnapshotInterval(200).withLocalParallelism(2);

        try (LocalCluster cluster = LocalCluster.builder().members(3).memberHeap("512m").workDir(workDir).start();
             SchemaLog log = SchemaLog.open(Jobs.logDirectory(job, options), Trades.TRADE, 6)) {
            final HazelcastInstance client = cluster.newClient();
            final Job running = Jobs.submit(client.getJet(), job, options);
            final Scenario.PacedWriter writer = new Scenario.PacedWriter(afterEach -> {
                for (int i = 0; i < TRADES; i++) {
                    stream.append(log, i, i + 1);
                    afterEach.run();
                }
            }, TRADES, 15);
            writer.start();
            writer.awaitAppended(TRADES * 2 / 5);
            await().atMost(Duration.ofMinutes(1)).until(() -> !client.getMap(Trades.POSITIONS).isEmpty());
            cluster.kill(cluster.members().get(1));
            System.out.println("killed member 2 at " + writer.appended.get() + " trades appended");
            writer.finish();

            final AtomicReference<List<String>> differences = new AtomicReference<>(List.of("not read yet"));
            try {
                await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500)).until(() -> {
                    differences.set(TradeStream.differences(expected, new HashMap<>(client.<String, Position>getMap(Trades.POSITIONS)),
                            new HashMap<>(client.<String, Exposure>getMap(Trades.EXPOSURE)),
                            new HashMap<>(client.<String, ExposureAlert>getMap(Trades.ALERTS))));
                    return differences.get().isEmpty();
                });
            } catch (final org.awaitility.core.ConditionTimeoutException e) {
                System.out.println("did not converge");
            }
            final Map<String, Position> positions = new HashMap<>(client.<String, Position>getMap(Trades.POSITIONS));
            long lost = 0;
            long duplicated = 0;
            for (final Position want : expected.positions().values()) {
                final Position got = positions.get(Trades.positionKey(want.account(), want.symbol()));
                final long applied = got == null ? 0 : got.trades();
                lost += Math.max(0, want.trades() - applied);
                duplicated += Math.max(0, applied - want.trades());
            }
            final long found = positions.values().stream().mapToLong(Position::trades).sum();
            System.out.println(TRADES + " expected, " + found + " found, " + lost + " lost, " + duplicated + " duplicated (trades "
                    + "applied to " + positions.size() + " positions of " + expected.positions().size() + "); "
                    + differences.get().size() + " positions, exposures or alerts differ; " + expected.alerts().size()
                    + " alerts expected, " + client.getMap(Trades.ALERTS).size() + " found; first differences: "
                    + differences.get().stream().limit(3).toList());
            assertThat(expected.alerts()).as("the stream breaches the limit").isNotEmpty();
            assertThat(lost + duplicated).as("trades lost or applied twice").isZero();
            assertThat(differences.get()).isEmpty();
            assertThat(client.getMap(job.lateMap()).size()).as("late trades").isZero();
            running.cancel();
        }
    }
}
