package io.streamgrid.perf.bench;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.client.Subscription;
import io.streamgrid.client.SubscriptionOptions;
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
import io.streamgrid.perf.report.Measurement;
import io.streamgrid.perf.report.Ratio;
import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;

/**
 * Continuous-query fan-out: 1, 10 and 100 subscriptions with different predicates on one map, in
 * one client and spread over several clients, against as many plain entry listeners with the same
 * predicates. What one more subscription costs: the members' CPU (process CPU time of both member
 * JVMs over the measured phase, minus that of the same writes with nobody listening — measured last,
 * when the members' code is warm, after an unused first round of it — divided by the subscriptions)
 * and the delivery p99 of all of them together.
 *
 * <p>Design: 2 member processes, one writing client at {@value #RATE} setAsync/s (open loop, parked
 * between writes) over {@link CqWorkload#KEYS} keys with {@code count = key % 100}; subscription
 * {@code i} asks for {@code count = i % 100}, so each receives 1 % of the writes and 100
 * subscriptions between them receive all. The rate is half of cq-latency's, so that one
 * subscription leaves the cores free and what grows with the count shows. Each phase uses a fresh
 * map; lost = matching writes of the measured phase a subscriber never received within
 * {@value #DRAIN_SECONDS} s after the last write.
 */
public final class CqFanOutBench implements Benchmark {
    private static final int RATE = 5_000;
    private static final List<Integer> COUNTS = List.of(1, 10, 100);
    private static final int MAX_CLIENTS = 10;
    private static final int DRAIN_SECONDS = 10;

    @Override
    public String name() {
        return "cq-fanout";
    }

    @Override
    public String title() {
        return "continuous-query fan-out: 1, 10 and 100 subscriptions on one map vs as many entry listeners";
    }

    /** One way of listening with {@code n} subscribers. */
    private enum Kind {
        OURS_ONE_CLIENT("StreamGrid subscriptions, one client", false),
        OURS_SEVERAL_CLIENTS("StreamGrid subscriptions, " + MAX_CLIENTS + " clients", false),
        CONFLATED_SEVERAL_CLIENTS("StreamGrid conflated subscriptions, " + MAX_CLIENTS + " clients", true),
        LISTENERS_ONE_CLIENT("entry listeners with predicate, one client", false);

        final String label;
        /** Conflated: its figure is the staleness (write → the view holds it or newer), and a write is lost when never covered. */
        final boolean conflated;

        Kind(final String label, final boolean conflated) {
            this.label = label;
            this.conflated = conflated;
        }
    }

    /** A phase's outcome: deliveries of all its subscribers together and the members' CPU. */
    private record Phase(Kind kind, int subscribers, LatencyProfile latency, double memberCores, double clientCores) {
    }

    @Override
    public BenchResult run(final BenchContext context) throws Exception {
        final Duration warmUp = context.pick(Duration.ofSeconds(5), Duration.ofSeconds(10));
        final Duration measured = context.pick(Duration.ofSeconds(10), Duration.ofSeconds(20));
        final List<Phase> phases = new ArrayList<>();
        final Phase idle;
        try (LocalCluster cluster = LocalCluster.builder().members(2).memberHeap("1g")
                .workDir(context.workDir().resolve("cluster")).progress(context::progress).start()) {
            final HazelcastInstance writer = cluster.newClient();
            int mapId = 0;
            // Once before the phases, unused: the members' code is warm for all of them.
            measure(context, cluster, writer, null, 0, "state.bench-fanout-" + mapId++, warmUp, measured);
            for (final int n : COUNTS) {
                for (final Kind kind : Kind.values()) {
                    if ((kind == Kind.OURS_SEVERAL_CLIENTS || kind == Kind.CONFLATED_SEVERAL_CLIENTS) && n == 1) {
                        continue; // one subscription: the same as one client
                    }
                    phases.add(measure(context, cluster, writer, kind, n, "state.bench-fanout-" + mapId++, warmUp, measured));
                }
            }
            idle = measure(context, cluster, writer, null, 0, "state.bench-fanout-" + mapId, warmUp, measured);
            context.progress(String.format(Locale.ROOT, "nobody listening (measured last, warm): members used %.2f cores, the "
                    + "benchmark JVM %.2f", idle.memberCores, idle.clientCores));
        }
        context.emptyWorkDir();
        return result(context, phases, idle, warmUp, measured);
    }

    private BenchResult result(final BenchContext context, final List<Phase> phases, final Phase idle,
                               final Duration warmUp, final Duration measured) {
        final List<Measurement> measurements = new ArrayList<>();
        final List<LatencyProfile> latencies = new ArrayList<>();
        for (final Phase phase : phases) {
            latencies.add(phase.latency);
            measurements.add(Measurement.of(phase.kind.label + ", " + phase.subscribers,
                    phase.kind == Kind.LISTENERS_ONE_CLIENT ? "reference" : "ours",
                    "member CPU per subscriber, % of a core", 100 * memberCostPerSubscriber(phase, idle)));
        }
        for (final Phase phase : phases) {
            measurements.add(Measurement.of(phase.kind.label + ", " + phase.subscribers,
                    phase.kind == Kind.LISTENERS_ONE_CLIENT ? "reference" : "ours",
                    "client CPU per subscriber, % of a core", 100 * clientCostPerSubscriber(phase, idle)));
        }
        final Phase ours100 = find(phases, Kind.OURS_ONE_CLIENT, 100);
        final Phase listeners100 = find(phases, Kind.LISTENERS_ONE_CLIENT, 100);
        final Phase ours1 = find(phases, Kind.OURS_ONE_CLIENT, 1);
        final Phase conflated100 = find(phases, Kind.CONFLATED_SEVERAL_CLIENTS, 100);
        final double conflatedCpu = memberCostPerSubscriber(conflated100, idle);
        final long lost = phases.stream().filter(p -> p.kind != Kind.LISTENERS_ONE_CLIENT).mapToLong(p -> p.latency.lost()).sum();
        final double oursCpu = memberCostPerSubscriber(ours100, idle);
        final double listenerCpu = memberCostPerSubscriber(listeners100, idle);
        final double oursBoth = oursCpu + clientCostPerSubscriber(ours100, idle);
        final double listenerBoth = listenerCpu + clientCostPerSubscriber(listeners100, idle);
        return new BenchResult(name(), title(), String.format(Locale.ROOT,
                "2 member processes (1 GB heap each, state map with sync backup and event journal), writing and listening "
                        + "clients in the benchmark JVM, all on 2 cores. setAsync at %,d writes/s over %,d keys; subscriber i "
                        + "asks for `count = i %% 100` (1%% of the writes each). Subscriber counts %s: StreamGrid subscriptions "
                        + "in one client and spread over %d clients (every change, and conflated), and as many entry listeners with the same predicates in "
                        + "one client. %d s warm-up, %d s measured per phase, fresh map each; member CPU = process CPU time of "
                        + "both members over the measured phase; per subscriber = (that − the same writes with nobody "
                        + "listening: %.2f cores) / subscribers. Client CPU alike, of the benchmark JVM (the writer, and the "
                        + "subscribers' clients; nobody listening: %.2f cores). On 2 shared cores a phase's two figures "
                        + "trade against each other: CPU one process takes the other does not get.", RATE, CqWorkload.KEYS,
                        COUNTS, MAX_CLIENTS, warmUp.toSeconds(), measured.toSeconds(), idle.memberCores, idle.clientCores),
                context.pick("quick", "full"), Instant.now().toString(), Environment.current(), measurements, latencies,
                List.of(Ratio.of("StreamGrid / entry listeners, member CPU per subscriber at 100", oursCpu, listenerCpu,
                                "below 1: a subscription costs the members less than a listener"),
                        Ratio.of("StreamGrid / entry listeners, members' and client's CPU per subscriber at 100", oursBoth,
                                listenerBoth, "below 1: a subscription costs the machine less than a listener"),
                        Ratio.of("StreamGrid / entry listeners, delivery p99 at 100", ours100.latency.p99Us(),
                                listeners100.latency.p99Us(), "below 1: we deliver faster"),
                        Ratio.of("StreamGrid, delivery p99 at 100 / at 1 subscription", ours100.latency.p99Us(),
                                ours1.latency.p99Us(), "how delivery slows as subscriptions are added (1 = not at all)"),
                        Ratio.of("StreamGrid conflated over " + MAX_CLIENTS + " clients / entry listeners, member CPU per subscriber "
                                + "at 100", conflatedCpu, listenerCpu, "below 1: a conflated subscription costs the members less"),
                        Ratio.of("StreamGrid conflated over " + MAX_CLIENTS + " clients (staleness) / entry listeners (latency), "
                                + "p99 at 100", conflated100.latency.p99Us(), listeners100.latency.p99Us(), "below 1: fresher")),
                List.of(GoalCheck.of("An added subscription costs the members no more CPU than an added entry listener "
                                + "(at 100), nothing lost", oursCpu <= listenerCpu && lost == 0,
                        String.format(Locale.ROOT, "%.3f %% vs %.3f %% of a core per subscriber; %d lost in all our phases",
                                100 * oursCpu, 100 * listenerCpu, lost)),
                        GoalCheck.of("100 CONFLATED subscriptions over " + MAX_CLIENTS + " clients: member CPU per subscription ≤ an "
                                + "entry listener's", conflatedCpu <= listenerCpu, String.format(Locale.ROOT,
                                "%.3f %% vs %.3f %% of a core per subscriber", 100 * conflatedCpu, 100 * listenerCpu)),
                        GoalCheck.of("100 CONFLATED subscriptions over " + MAX_CLIENTS + " clients: staleness p99 ≤ the entry "
                                + "listeners' delivery p99", conflated100.latency.p99Us() <= listeners100.latency.p99Us(),
                                String.format(Locale.ROOT, "%.0f µs vs %.0f µs", conflated100.latency.p99Us(),
                                        listeners100.latency.p99Us()))),
                List.of("Lost counts matching writes of the measured phase a subscriber had not received " + DRAIN_SECONDS
                                + " s after the last write; a subscription that resynchronised delivers current values, so "
                                + "superseded intermediate writes count as lost here.",
                        "Latency runs from the write's scheduled time to the listener call, over every delivery of every "
                                + "subscriber of the phase; for conflated subscriptions the figure is staleness: from each write's "
                                + "scheduled time until its subscriber's view holds it or a newer write of its key (a write "
                                + "superseded before delivery is covered by the newer one, not lost)."));
    }

    /** Cores the members used beyond nobody listening, per subscriber of {@code phase}. */
    private static double memberCostPerSubscriber(final Phase phase, final Phase idle) {
        return (phase.memberCores - idle.memberCores) / phase.subscribers;
    }

    /** Cores the benchmark JVM used beyond nobody listening, per subscriber of {@code phase}. */
    private static double clientCostPerSubscriber(final Phase phase, final Phase idle) {
        return (phase.clientCores - idle.clientCores) / phase.subscribers;
    }

    private static Phase find(final List<Phase> phases, final Kind kind, final int subscribers) {
        return phases.stream().filter(p -> p.kind == kind && p.subscribers == subscribers).findFirst()
                .orElseThrow(() -> new IllegalStateException("bug: no phase " + kind + " × " + subscribers));
    }

    /** One phase: {@code n} subscribers of {@code kind} (none when {@code kind} is null) while the writer writes. */
    private static Phase measure(final BenchContext context, final LocalCluster cluster, final HazelcastInstance writerClient,
                                 final Kind kind, final int n, final String map, final Duration warmUp,
                                 final Duration measured) throws Exception {
        final String label = kind == null ? "nobody listening" : kind.label + " × " + n;
        final IMap<Long, IpWindowCount> writes = writerClient.getMap(map);
        final List<CqWorkload.Deliveries> deliveries = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            deliveries.add(new CqWorkload.Deliveries());
        }
        final BitSet[] expectedByCount = new BitSet[100];
        for (int c = 0; c < 100; c++) {
            expectedByCount[c] = new BitSet();
        }
        final long[] nextSequence = {0};
        final long[] firstMeasured = {Long.MAX_VALUE};
        context.progress(label + ": subscribing");
        try (Listeners listening = Listeners.start(cluster, kind, map, deliveries)) {
            final OpenLoop.Operation write = (sequence, scheduled) -> {
                final int written = (int) nextSequence[0]++;
                if (written >= firstMeasured[0]) {
                    expectedByCount[(int) CqWorkload.countOf(CqWorkload.keyOf(written))].set(written);
                }
                CqWorkload.write(writes, written, scheduled);
            };
            context.progress(label + ": warm-up " + warmUp.toSeconds() + " s");
            OpenLoop.run(RATE, warmUp, write, OpenLoop.newHistogram(), OpenLoop.Wait.PARK);
            firstMeasured[0] = nextSequence[0];
            deliveries.forEach(d -> d.firstMeasured = firstMeasured[0]);
            context.progress(label + ": measuring " + measured.toSeconds() + " s");
            final long cpuBefore = ProcessCpu.members(cluster);
            final long clientCpuBefore = ProcessCpu.own();
            final long start = System.nanoTime();
            OpenLoop.run(RATE, measured, write, OpenLoop.newHistogram(), OpenLoop.Wait.PARK);
            final double elapsed = System.nanoTime() - start;
            final double cores = (ProcessCpu.members(cluster) - cpuBefore) / elapsed;
            final double clientCores = (ProcessCpu.own() - clientCpuBefore) / elapsed;
            final long deadline = System.nanoTime() + Duration.ofSeconds(DRAIN_SECONDS).toNanos();
            while (!allArrived(deliveries, expectedByCount, kind != null && kind.conflated) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            final Histogram all = new Histogram(3);
            long lost = 0;
            long expectedTotal = 0;
            final boolean conflated = kind != null && kind.conflated;
            for (int i = 0; i < n; i++) {
                final CqWorkload.Deliveries d = deliveries.get(i);
                all.add((conflated ? d.staleness : d.latency).copy());
                lost += conflated ? d.uncovered(expectedByCount[i % 100]) : d.missing(expectedByCount[i % 100]);
                expectedTotal += expectedByCount[i % 100].cardinality();
            }
            final LatencyProfile latency = LatencyProfile.ofNanos(kind == null ? label : kind.label, n + " subscribers", RATE,
                    all, lost);
            context.progress(String.format(Locale.ROOT, "%s: %d expected, %d lost; p50 %.0f µs, p99 %.0f µs; members used "
                    + "%.2f cores, the benchmark JVM %.2f", label, expectedTotal, lost, latency.p50Us(), latency.p99Us(), cores,
                    clientCores));
            return new Phase(kind, n, latency, cores, clientCores);
        } finally {
            writes.destroy();
        }
    }

    private static boolean allArrived(final List<CqWorkload.Deliveries> deliveries, final BitSet[] expectedByCount,
                                      final boolean conflated) {
        for (int i = 0; i < deliveries.size(); i++) {
            final CqWorkload.Deliveries d = deliveries.get(i);
            if ((conflated ? d.coveredCount() : d.seenCount()) < expectedByCount[i % 100].cardinality()) {
                return false;
            }
        }
        return true;
    }

    /** The subscribers of a phase and the clients they live in; closing ends them. */
    private static final class Listeners implements AutoCloseable {
        private final List<AutoCloseable> open = new ArrayList<>();

        static Listeners start(final LocalCluster cluster, final Kind kind, final String map,
                               final List<CqWorkload.Deliveries> deliveries) {
            final Listeners listeners = new Listeners();
            if (kind == null) {
                return listeners;
            }
            try {
                if (kind == Kind.LISTENERS_ONE_CLIENT) {
                    final HazelcastInstance client = cluster.newClient();
                    listeners.open.add(client::shutdown);
                    final IMap<Long, IpWindowCount> imap = client.getMap(map);
                    for (int i = 0; i < deliveries.size(); i++) {
                        @SuppressWarnings({"unchecked", "rawtypes"})
                        final com.hazelcast.query.Predicate<Long, IpWindowCount> where =
                                (com.hazelcast.query.Predicate) Where.parse(whereOf(i));
                        imap.addEntryListener(new CqWorkload.ValueListener(deliveries.get(i)::accept), where, true);
                    }
                    return listeners;
                }
                final int clients = kind == Kind.OURS_ONE_CLIENT ? 1 : Math.min(MAX_CLIENTS, deliveries.size());
                final List<StreamGridClient> streamGridClients = new ArrayList<>();
                for (int c = 0; c < clients; c++) {
                    final StreamGridClient client = StreamGridClient.connect(cluster.clientSettings());
                    listeners.open.add(client::close);
                    streamGridClients.add(client);
                }
                for (int i = 0; i < deliveries.size(); i++) {
                    final CqWorkload.Deliveries target = deliveries.get(i);
                    final Subscription subscription = CqWorkload.subscribeValues(streamGridClients.get(i % clients), map, whereOf(i),
                            target::accept, kind.conflated ? SubscriptionOptions.conflated() : SubscriptionOptions.defaults());
                    listeners.open.add(0, subscription::close); // closed before its client
                }
                return listeners;
            } catch (final RuntimeException e) {
                listeners.close();
                throw e;
            }
        }

        private static String whereOf(final int subscriber) {
            return "count = " + subscriber % 100;
        }

        /** Closes every subscriber and client, then rethrows the first failure with the others attached. */
        @Override
        public void close() {
            RuntimeException failure = null;
            for (final AutoCloseable closeable : open) {
                try {
                    closeable.close();
                } catch (final Exception e) {
                    if (failure == null) {
                        failure = new IllegalStateException("closing the phase's subscribers failed", e);
                    } else {
                        failure.addSuppressed(e);
                    }
                }
            }
            open.clear();
            if (failure != null) {
                throw failure;
            }
        }
    }
}
