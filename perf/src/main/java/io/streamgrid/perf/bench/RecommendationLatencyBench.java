package io.streamgrid.perf.bench;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.config.ProcessingGuarantee;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.client.Delta;
import io.streamgrid.client.DeltaListener;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.client.Subscription;
import io.streamgrid.client.SubscriptionOptions;
import io.streamgrid.examples.recommendations.ClickStream;
import io.streamgrid.examples.recommendations.ItemNeighbours;
import io.streamgrid.examples.recommendations.Recommendations;
import io.streamgrid.examples.recommendations.RecommendationsJob;
import io.streamgrid.examples.recommendations.Recommender;
import io.streamgrid.jobs.event.BuiltInEvents;
import io.streamgrid.jobs.event.ClickAction;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.Benchmark;
import io.streamgrid.perf.report.BenchResult;
import io.streamgrid.perf.report.Environment;
import io.streamgrid.perf.report.LatencyProfile;
import io.streamgrid.perf.report.Ratio;

import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Click → updated recommendation visible to a subscribed client, at 10,000 clicks/s: the
 * recommendations example (keyed job, recommendations rewritten per click) followed by a StreamGrid
 * subscription, against the same work in one plain Jet pipeline ({@code mapUsingIMap} for the item's
 * neighbours, {@code mapStateful} per user with the same {@link Recommender}, ordered putAll sink)
 * followed by an IMap entry listener.
 *
 * <p>Design: clicks are appended open-loop to a schema log (event time = wall clock), users in
 * turn, so each user clicks once a second and no update is coalesced away; each click's scheduled
 * time is kept by its place in the stream, and a delivered recommendation names its user and
 * click count, so the receiving client knows which click it answers. Latency = delivery time −
 * the click's scheduled time; every click of the measured phase must be delivered, or it is
 * counted as lost.
 */
public final class RecommendationLatencyBench implements Benchmark {
    static final int USERS = 10_000;
    static final int ITEMS = 5_000;
    static final int RATE = 10_000;
    static final int PARTITIONS = 2;
    static final int PARALLELISM = 2;
    /** No state.* name: the reference map gets Hazelcast's defaults, without the event journal state maps carry. */
    static final String JET_RECOMMENDATIONS = "jet-recommendations";
    private static final long DRAIN_SECONDS = 10;

    @Override
    public String name() {
        return "recommendation-latency";
    }

    @Override
    public String title() {
        return "click → updated recommendation visible to a subscribed client at 10,000 clicks/s: keyed job + subscription vs "
                + "plain Jet mapStateful + mapUsingIMap + entry listener";
    }

    @Override
    public BenchResult run(final BenchContext context) throws Exception {
        final Duration warmUp = context.pick(Duration.ofSeconds(5), Duration.ofSeconds(10));
        final Duration measured = context.pick(Duration.ofSeconds(10), Duration.ofSeconds(30));
        final Map<Long, ItemNeighbours> neighbours = new ClickStream(2026, 1, ITEMS, 6).neighbours();
        final LatencyProfile ours;
        final LatencyProfile jet;
        try (EmbeddedGrid grid = EmbeddedGrid.start(context.workDir().resolve("member"));
             StreamGridClient client = StreamGridClient.connect(grid.clientSettings())) {
            final HazelcastInstance member = grid.member();
            member.getMap(RecommendationsJob.NEIGHBOURS).putAll(neighbours);
            ours = measure(context, member, "StreamGrid keyed job + subscription", context.workDir().resolve("ingest-ours"),
                    RecommendationLatencyBench::startOurs, onValue -> subscribe(client, onValue), warmUp, measured);
            jet = measure(context, member, "plain Jet mapStateful + mapUsingIMap + entry listener",
                    context.workDir().resolve("ingest-jet"), RecommendationLatencyBench::startJet,
                    onValue -> listen(client.hazelcast(), onValue), warmUp, measured);
        }
        context.emptyWorkDir();
        return new BenchResult(name(), title(), String.format(Locale.ROOT, "One embedded member (Jet, 2 cooperative threads) "
                        + "and one client in the benchmark JVM, on 2 cores. Clicks of %,d users (in turn: one click per user "
                        + "per second) over %,d items with neighbours in dim.item-neighbours, appended open-loop at %,d/s to a "
                        + "schema log of %d partitions; local parallelism %d; no processing guarantee for either. %d s warm-up, "
                        + "%d s measured per subject, then up to %d s for late deliveries. Latency from the click's scheduled "
                        + "append to the client's listener receiving the user's recommendation for that click.", USERS, ITEMS,
                        RATE, PARTITIONS, PARALLELISM, warmUp.toSeconds(), measured.toSeconds(), DRAIN_SECONDS),
                context.pick("quick", "full"), Instant.now().toString(), Environment.current(), List.of(), List.of(ours, jet),
                List.of(Ratio.of("plain Jet / StreamGrid, p50 latency", jet.p50Us(), ours.p50Us(), "above 1: we are faster"),
                        Ratio.of("plain Jet / StreamGrid, p99 latency", jet.p99Us(), ours.p99Us(), "above 1: we are faster")),
                List.of(),
                List.of("Both do the same work per click (the example's Recommender: profile update, neighbours scored and "
                                + "ranked); ours looks neighbours up in a member-local replica, Jet's mapUsingIMap reads the map.",
                        "The StreamGrid subscription reads the map's event journal and delivers ordered deltas (no update "
                                + "lost on member failure); the entry listener gets Hazelcast's map events.",
                        "Lost counts measured clicks whose recommendation was not delivered within " + DRAIN_SECONDS + " s."));
    }

    /** Starts a subject's job reading the click log under the ingest directory {@code ingest}. */
    private interface Starter {
        Job start(HazelcastInstance member, Path ingest);
    }

    /** Starts delivering each recommendation the client receives to a consumer; closing stops it. */
    private interface Listening {
        AutoCloseable listen(Consumer<Recommendations> onValue) throws Exception;
    }

    private static LatencyProfile measure(final BenchContext context, final HazelcastInstance member, final String label,
                                          final Path ingest, final Starter starter, final Listening listening,
                                          final Duration warmUp, final Duration measured) throws Exception {
        final BuiltInEvents events = new BuiltInEvents();
        final SplittableRandom random = new SplittableRandom(7);
        final ClickAction[] actions = ClickAction.values();
        try (SchemaLog log = SchemaLog.open(clickLog(ingest), RecommendationsJob.CLICK, PARTITIONS)) {
            final Job job = starter.start(member, ingest);
            try {
                // Click n is user n % USERS's (n / USERS + 1)-th: the recommendation names both.
                return DeliveryLatency.measure(context, label, "clicks", RATE, warmUp, measured, Duration.ofSeconds(DRAIN_SECONDS),
                        click -> {
                            final long item = random.nextInt(ITEMS);
                            log.append(events.click(System.currentTimeMillis(), click, click % USERS, item, (int) (item % 20),
                                    actions[random.nextInt(100) < 70 ? 0 : random.nextInt(100) < 85 ? 1 : 2]));
                        },
                        delivered -> listening.listen(r -> delivered.accept((int) ((r.clicks() - 1) * USERS + r.user()))));
            } finally {
                job.cancel();
            }
        }
    }

    private static JobConfig config(final String name) {
        return new JobConfig().setName(name).setProcessingGuarantee(ProcessingGuarantee.NONE);
    }

    private static Job startOurs(final HazelcastInstance member, final Path ingest) {
        return Jobs.submit(member.getJet(), new RecommendationsJob().job(), JobOptions.of(ingest).withLocalParallelism(PARALLELISM),
                null, config("bench-recommendations"));
    }

    private static Path clickLog(final Path ingest) {
        return SchemaLog.directoryOf(ingest, RecommendationsJob.CLICK.name());
    }

    /** One click as the plain Jet pipeline carries it, and with the item's neighbours (null: none). */
    record Click(long user, long time, long item, int category, int action) implements Serializable {
    }

    record Enriched(Click click, ItemNeighbours neighbours) implements Serializable {
    }

    private static Job startJet(final HazelcastInstance member, final Path ingest) {
        final Recommender recommender = new RecommendationsJob().recommender();
        final Pipeline pipeline = Pipeline.create();
        pipeline.readFrom(SchemaLogSource.of(clickLog(ingest), RecommendationsJob.CLICK, PARALLELISM,
                        r -> new Click(r.getLong(0), r.eventTime(), r.getLong(2), r.getInt(3), r.getEnumOrdinal(4))))
                .withoutTimestamps()
                .mapUsingIMap(RecommendationsJob.NEIGHBOURS, Click::item, (Click click, ItemNeighbours n) -> new Enriched(click, n))
                .groupingKey(enriched -> enriched.click().user())
                .mapStateful(recommender::newProfile, (profile, user, e) -> recommender.onClick(profile, user, e.click().time(),
                        e.click().item(), e.click().category(), e.click().action(), e.neighbours()))
                .writeTo(OrderedMapSink.of(JET_RECOMMENDATIONS, Recommendations::user));
        return member.getJet().newJob(pipeline, config("bench-jet-recommendations"));
    }

    private static AutoCloseable subscribe(final StreamGridClient client, final Consumer<Recommendations> onValue) {
        final Subscription subscription = client.subscribe(RecommendationsJob.RECOMMENDATIONS, "clicks > 0", new DeltaListener() {
            @Override
            public void onSnapshot(final Map<Object, Object> entries) {
            }

            @Override
            public void onDelta(final Delta delta) {
                if (delta.kind() != Delta.Kind.LEAVE) {
                    onValue.accept((Recommendations) delta.value());
                }
            }
        }, SubscriptionOptions.defaults());
        return subscription::close;
    }

    /** An entry listener on the plain pipeline's map, values included. */
    private static AutoCloseable listen(final HazelcastInstance client, final Consumer<Recommendations> onValue) {
        final IMap<Long, Recommendations> map = client.getMap(JET_RECOMMENDATIONS);
        final java.util.UUID id = map.addEntryListener(new Values(onValue), true);
        return () -> map.removeEntryListener(id);
    }

    private record Values(Consumer<Recommendations> onValue)
            implements EntryAddedListener<Long, Recommendations>, EntryUpdatedListener<Long, Recommendations> {
        @Override
        public void entryAdded(final EntryEvent<Long, Recommendations> event) {
            onValue.accept(event.getValue());
        }

        @Override
        public void entryUpdated(final EntryEvent<Long, Recommendations> event) {
            onValue.accept(event.getValue());
        }
    }
}
