package io.streamgrid.perf.bench;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.PredicateConfig;
import com.hazelcast.config.QueryCacheConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.QueryCache;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.client.Subscription;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cq.Where;
import io.streamgrid.jobs.usecase.IpWindowCount;
import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.Benchmark;
import io.streamgrid.perf.OpenLoop;
import io.streamgrid.perf.report.BenchResult;
import io.streamgrid.perf.report.Environment;
import io.streamgrid.perf.report.GoalCheck;
import io.streamgrid.perf.report.LatencyProfile;
import io.streamgrid.perf.report.Ratio;
import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Benchmark 4: continuous-query delivery latency on a 2-member process cluster. One client writes
 * {@code setAsync} at a fixed rate (open loop) over 10,000 keys; each value carries its write's
 * scheduled time and sequence, and {@code count = key % 100}, so {@code count < 10} — the
 * predicate of every subject, the same {@link Where} object — matches 10 % of the writes. Another
 * client listens; latency is delivery time minus scheduled write time, so a writer falling behind
 * counts too. Lost = matching writes of the measured phase whose delivery never came (within
 * {@value #DRAIN_SECONDS} s after the last write). Each subject and rate gets a fresh map and a
 * fresh listening client.
 */
public final class CqLatencyBench implements Benchmark {
    private static final String WHERE = "count < 10";
    private static final int DRAIN_SECONDS = 10;
    private static final List<Integer> RATES = List.of(10_000, 100_000);

    @Override
    public String name() {
        return "cq-latency";
    }

    @Override
    public String title() {
        return "continuous-query write→listener latency: StreamGrid subscription vs QueryCache vs predicate listener";
    }

    /** A way to listen; {@code onValue} gets each delivered matching value. */
    private record Subject(String label, Listening listening) {
        AutoCloseable listen(final LocalCluster cluster, final String map, final Consumer<IpWindowCount> onValue) {
            return listening.listen(cluster, map, onValue);
        }
    }

    /** Starts listening to {@code map}'s matching values; closing stops it. */
    @FunctionalInterface
    private interface Listening {
        AutoCloseable listen(LocalCluster cluster, String map, Consumer<IpWindowCount> onValue);
    }

    @Override
    public BenchResult run(final BenchContext context) throws Exception {
        final Duration warmUp = context.pick(Duration.ofSeconds(5), Duration.ofSeconds(10));
        final Duration measured = context.pick(Duration.ofSeconds(10), Duration.ofSeconds(30));
        final List<Subject> subjects = List.of(ours(), queryCache(), predicateListener());
        final List<LatencyProfile> latencies = new ArrayList<>();
        final List<String> writerLag = new ArrayList<>();
        try (LocalCluster cluster = LocalCluster.builder().members(2).memberHeap("1g")
                .workDir(context.workDir().resolve("cluster")).progress(context::progress).start()) {
            final HazelcastInstance writerClient = cluster.newClient();
            int mapId = 0;
            for (final int rate : RATES) {
                for (final Subject subject : subjects) {
                    final String map = "state.bench-cq-" + (mapId++);
                    latencies.add(measure(context, cluster, writerClient, subject, map, rate, warmUp, measured, writerLag));
                    writerClient.getMap(map).destroy();
                }
            }
        }
        final LatencyProfile ours10k = latencies.get(0);
        final LatencyProfile ours100k = latencies.get(subjects.size());
        final List<Ratio> ratios = new ArrayList<>();
        for (int r = 0; r < RATES.size(); r++) {
            final LatencyProfile ours = latencies.get(r * subjects.size());
            for (int s = 1; s < subjects.size(); s++) {
                final LatencyProfile other = latencies.get(r * subjects.size() + s);
                ratios.add(Ratio.of("StreamGrid / " + other.subject() + ", p99 at " + RATES.get(r) + "/s", ours.p99Us(),
                        other.p99Us(), "below 1: we deliver faster"));
            }
        }
        final boolean met = ours10k.p99Us() <= 1_000 && ours100k.lost() == 0;
        return new BenchResult(name(), title(), String.format(Locale.ROOT,
                "2 member processes (1 GB heap each, state map with sync backup and event journal), a writing client "
                        + "and a listening client in the benchmark JVM, all on 2 cores. setAsync at %s writes/s over %,d "
                        + "keys, %d%% matching `%s`; %d s warm-up, %d s measured per subject and rate, then up to %d s "
                        + "for late deliveries. The writer parks between writes (no spinning), leaving the cores to the "
                        + "cluster. Subjects: StreamGrid subscription (event journal, ordered deltas), "
                        + "Hazelcast QueryCache (populate on, delay 0, batch 1, listener on it), IMap entry listener with "
                        + "the predicate.", RATES, CqWorkload.KEYS, 10, WHERE, warmUp.toSeconds(), measured.toSeconds(), DRAIN_SECONDS),
                context.pick("quick", "full"), Instant.now().toString(), Environment.current(), List.of(), latencies, ratios,
                List.of(GoalCheck.of("Continuous-query write→listener p99 ≤ 1 ms at 10,000 updates/s, 0 lost at 100,000/s",
                        met, String.format(Locale.ROOT, "p99 %.0f µs at 10k/s (goal 1,000 µs); %d lost of %d at 100k/s",
                                ours10k.p99Us(), ours100k.lost(), ours100k.count() + ours100k.lost()))),
                List.of("Latency runs from the write's scheduled time: when the single writer thread cannot keep the "
                                + "rate, the backlog is charged to every subject alike. How far behind the writer fell: "
                                + String.join("; ", writerLag) + ".",
                        "Lost counts matching writes not delivered as such within " + DRAIN_SECONDS + " s after the last "
                                + "write: a subject still that far behind then has its backlog counted as lost. A StreamGrid subscription that falls behind "
                                + "its journal re-reads the partitions (a resync) and delivers the current values: the view "
                                + "is right again, but the superseded intermediate updates are counted as lost here.",
                        "Lost and count are of matching writes in the measured phase; `count` is the deliveries recorded "
                                + "(a QueryCache or listener may deliver an update twice after a retry, which would show as "
                                + "count above expected)."));
    }

    private static LatencyProfile measure(final BenchContext context, final LocalCluster cluster,
                                          final HazelcastInstance writerClient, final Subject subject, final String map,
                                          final int rate, final Duration warmUp, final Duration measured,
                                          final List<String> writerLag) throws Exception {
        final IMap<Long, IpWindowCount> writes = writerClient.getMap(map);
        final CqWorkload.Deliveries deliveries = new CqWorkload.Deliveries();
        final long[] nextSequence = {0};
        final BitSet expected = new BitSet();
        try (AutoCloseable listening = subject.listen(cluster, map, deliveries::accept)) {
            final OpenLoop.Operation write = (sequence, scheduled) -> {
                final int written = (int) nextSequence[0]++;
                if (CqWorkload.countOf(CqWorkload.keyOf(written)) < 10 && written >= deliveries.firstMeasured) {
                    expected.set(written);
                }
                CqWorkload.write(writes, written, scheduled);
            };
            context.progress(subject.label() + " at " + rate + "/s: warm-up " + warmUp.toSeconds() + " s");
            OpenLoop.run(rate, warmUp, write, OpenLoop.newHistogram(), OpenLoop.Wait.PARK);
            deliveries.firstMeasured = nextSequence[0];
            context.progress(subject.label() + " at " + rate + "/s: measuring " + measured.toSeconds() + " s");
            final Histogram callLatency = OpenLoop.newHistogram();
            OpenLoop.run(rate, measured, write, callLatency, OpenLoop.Wait.PARK);
            final String lag = String.format(Locale.ROOT, "%s at %,d/s: the writer issued setAsync %.0f µs after its "
                    + "schedule at p99 (%.0f µs at most)", subject.label(), rate, callLatency.getValueAtPercentile(99) / 1e3,
                    callLatency.getMaxValue() / 1e3);
            context.progress("  " + lag);
            writerLag.add(lag);
            final long drainDeadline = System.nanoTime() + Duration.ofSeconds(DRAIN_SECONDS).toNanos();
            while (deliveries.seenCount() < expected.cardinality() && System.nanoTime() < drainDeadline) {
                Thread.sleep(20);
            }
        }
        final int missing = deliveries.missing(expected);
        final LatencyProfile profile = LatencyProfile.ofNanos(subject.label(), rate / 1000 + "k updates/s", rate,
                deliveries.latency.copy(), missing);
        context.progress(String.format(Locale.ROOT, "%s at %d/s: %d expected, %d delivered, %d lost; p50 %.0f µs, "
                        + "p99 %.0f µs, p99.9 %.0f µs", subject.label(), rate, expected.cardinality(),
                expected.cardinality() - missing, missing, profile.p50Us(), profile.p99Us(),
                profile.p999Us()));
        return profile;
    }

    private static Subject ours() {
        return new Subject("StreamGrid subscription", (cluster, map, onValue) -> {
            final StreamGridClient client = StreamGridClient.connect(cluster.clientSettings());
            final Subscription subscription = CqWorkload.subscribeValues(client, map, WHERE, onValue);
            return () -> {
                subscription.close();
                client.close();
            };
        });
    }

    private static Subject queryCache() {
        return new Subject("Hazelcast QueryCache", (cluster, map, onValue) -> {
            final ClientConfig config = cluster.clientConfig();
            config.addQueryCacheConfig(map, new QueryCacheConfig("cq-" + map)
                    .setPredicateConfig(new PredicateConfig(Where.parse(WHERE)))
                    .setPopulate(true).setIncludeValue(true).setDelaySeconds(0).setBatchSize(1));
            final HazelcastInstance client = HazelcastClient.newHazelcastClient(config);
            final IMap<Long, IpWindowCount> imap = client.getMap(map);
            final QueryCache<Long, IpWindowCount> cache = imap.getQueryCache("cq-" + map);
            cache.addEntryListener(new CqWorkload.ValueListener(onValue), true);
            return client::shutdown;
        });
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Subject predicateListener() {
        return new Subject("entry listener with predicate", (cluster, map, onValue) -> {
            final HazelcastInstance client = HazelcastClient.newHazelcastClient(cluster.clientConfig());
            final IMap<Long, IpWindowCount> imap = client.getMap(map);
            final com.hazelcast.query.Predicate<Long, IpWindowCount> where = (com.hazelcast.query.Predicate) Where.parse(WHERE);
            imap.addEntryListener(new CqWorkload.ValueListener(onValue), where, true);
            return client::shutdown;
        });
    }
}
