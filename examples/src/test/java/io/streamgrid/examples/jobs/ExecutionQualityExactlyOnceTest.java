package io.streamgrid.examples.jobs;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.examples.trading.ExecutionQuality;
import io.streamgrid.examples.trading.ExecutionQualityJobs;
import io.streamgrid.examples.trading.QuoteStream;
import io.streamgrid.examples.trading.Quotes;
import io.streamgrid.examples.trading.TradeStream;
import io.streamgrid.examples.trading.Trades;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.Scenario;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.JobOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: the execution-quality example — trades keyed by account re-keyed by symbol,
 * joined with quotes by symbol (each trade with every quote of the second before it), the pairs'
 * slippage summed per symbol: three jobs chained through two emitted logs — runs exactly-once on
 * three member processes while 40,000 trades and their quotes are appended; a member is killed
 * with SIGKILL mid-stream, so all three jobs restore from snapshots and emit part of their output
 * again. Per symbol, the count of pairs and the summed slippage must equal the brute-force oracle's:
 * a pair lost anywhere in the chain lowers a count, one made or counted twice raises it.
 */
class ExecutionQualityExactlyOnceTest {
    private static final int TRADES = 40_000;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void when_memberKilledMidStream_then_everyTradeQuotePairIsCountedOnce(final TestInfo test) throws Exception {
        final Path workDir = TestWorkDir.of(test);
        final TradeStream trades = new TradeStream(23, TRADES, 500);
        final QuoteStream quotes = new QuoteStream(trades, 29);
        final Map<String, ExecutionQuality> expected = quotes.expected();
        final List<KeyedJob<?>> jobs = ExecutionQualityJobs.jobs();
        final JobOptions options = JobOptions.of(workDir.resolve("ingest")).withSnapshotInterval(200).withLocalParallelism(2);

        try (LocalCluster cluster = LocalCluster.builder().members(3).memberHeap("512m").workDir(workDir).start();
             SchemaLog tradeLog = SchemaLog.open(SchemaLog.directoryOf(options.ingestDir(), Trades.TRADE.name()), Trades.TRADE, 6);
             SchemaLog quoteLog = SchemaLog.open(SchemaLog.directoryOf(options.ingestDir(), Quotes.QUOTE.name()), Quotes.QUOTE, 6)) {
            final HazelcastInstance client = cluster.newClient();
            final List<Job> running = new ArrayList<>();
            for (final KeyedJob<?> job : jobs) {
                running.add(Jobs.submit(client.getJet(), job, options));
                for (final var emitted : job.emits()) { // the next job reads it: wait until its writer has created it
                    await().atMost(Duration.ofMinutes(1)).until(() -> SchemaLog.exists(SchemaLog.directoryOf(options.ingestDir(), emitted.name())));
                }
            }
            final Scenario.PacedWriter writer = new Scenario.PacedWriter(afterEach -> {
                for (int i = 0; i < TRADES; i++) {
                    quotes.appendBefore(quoteLog, i);
                    trades.append(tradeLog, i, i + 1);
                    afterEach.run();
                }
                quoteLog.appendEndOfStream(); // the last trades need not wait for quotes that will not come
            }, TRADES, 15);
            writer.start();
            writer.awaitAppended(TRADES * 2 / 5);
            await().atMost(Duration.ofMinutes(1)).until(() -> !client.getMap(Quotes.EXECUTION_QUALITY).isEmpty());
            cluster.kill(cluster.members().get(1));
            System.out.println("killed member 2 at " + writer.appended.get() + " trades appended");
            writer.finish();

            try {
                await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500))
                        .until(() -> expected.equals(new HashMap<>(client.<String, ExecutionQuality>getMap(Quotes.EXECUTION_QUALITY))));
            } catch (final org.awaitility.core.ConditionTimeoutException e) {
                System.out.println("did not converge");
            }
            final Map<String, ExecutionQuality> found = new HashMap<>(client.<String, ExecutionQuality>getMap(Quotes.EXECUTION_QUALITY));
            long pairs = 0;
            long foundPairs = 0;
            long lost = 0;
            long duplicated = 0;
            for (final ExecutionQuality want : expected.values()) {
                final ExecutionQuality got = found.get(want.symbol());
                final long counted = got == null ? 0 : got.pairs();
                pairs += want.pairs();
                foundPairs += counted;
                lost += Math.max(0, want.pairs() - counted);
                duplicated += Math.max(0, counted - want.pairs());
            }
            System.out.println(pairs + " expected, " + foundPairs + " found, " + lost + " lost, " + duplicated + " duplicated (trade-quote "
                    + "pairs of " + TRADES + " trades and " + quotes.quotes().size() + " quotes over " + expected.size() + " symbols); late: "
                    + jobs.stream().mapToInt(job -> client.getMap(job.lateMap()).size()).sum());
            assertThat(pairs).as("the streams pair up").isGreaterThan(TRADES);
            assertThat(lost + duplicated).as("pairs lost or counted twice").isZero();
            assertThat(found).isEqualTo(expected);
            for (final KeyedJob<?> job : jobs) {
                assertThat(client.getMap(job.lateMap()).size()).as("late events of " + job.name()).isZero();
            }
            running.forEach(Job::cancel);
        }
    }
}
