package io.streamgrid.examples.recommendations;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.LongKeyContext;
import io.streamgrid.jobs.keyed.LongKeyedFunction;
import io.streamgrid.jobs.keyed.Lookup;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.keyed.StreamGridJob;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.schema.TypedField.EnumField;
import io.streamgrid.jobs.schema.TypedField.IntField;
import io.streamgrid.jobs.schema.TypedField.LongField;


/**
 * Real-time recommendations from a click stream, on the public job API. Per user, in keyed state
 * ({@link ClickProfile}): affinity per category — each view adds 1, each click 3, each purchase 10,
 * and it halves every {@code halfLifeMs} of event time; the last {@code history} items seen; the
 * session (a gap of more than {@code sessionGapMs} starts a new one). On every click the user's
 * recommendations are recomputed at once and written to {@code state.recommendations}: the clicked
 * item's neighbours from {@code dim.item-neighbours} (co-occurrence counts kept in the grid, see
 * {@link ItemNeighbours}), each scored {@code count × (1 + affinity of its category)}, without the
 * clicked item and the items in the history, best {@code topK} first (ties: lower item first). An
 * item without neighbours gives an empty list.
 *
 * <p>Reads the built-in {@code click} schema: user, item, category (0–{@value #CATEGORIES}-1 as
 * the generator makes them; others add no affinity), action (view, click, purchase).
 */
public final class RecommendationsJob implements StreamGridJob {
    public static final String NAME = "recommendations";
    public static final String NEIGHBOURS = "dim.item-neighbours";
    public static final String RECOMMENDATIONS = "state.recommendations";
    public static final int CATEGORIES = 20;
    /** Affinity added per action, by the {@code action} field's ordinal: view, click, purchase. */
    static final double[] WEIGHTS = {1, 3, 10};
    /** The built-in click schema the job reads. */
    public static final EventSchema CLICK = EventType.CLICK.schema();
    private static final LongField ITEM = CLICK.longField("item");
    private static final IntField CATEGORY = CLICK.intField("category");
    private static final EnumField ACTION = CLICK.enumField("action");

    private final long halfLifeMs;
    private final long sessionGapMs;
    private final int topK;
    private final int history;

    /** Half-life one hour, sessions split by 30 minutes, top 5, the last 20 items remembered. */
    public RecommendationsJob() {
        this(3_600_000, 1_800_000, 5, 20);
    }

    public RecommendationsJob(final long halfLifeMs, final long sessionGapMs, final int topK, final int history) {
        if (halfLifeMs < 1 || sessionGapMs < 1 || topK < 1 || history < 1) {
            throw new IllegalArgumentException("half-life, session gap, top-k and history must be positive, were " + halfLifeMs
                    + ", " + sessionGapMs + ", " + topK + ", " + history);
        }
        this.halfLifeMs = halfLifeMs;
        this.sessionGapMs = sessionGapMs;
        this.topK = topK;
        this.history = history;
    }

    public long halfLifeMs() {
        return halfLifeMs;
    }

    public long sessionGapMs() {
        return sessionGapMs;
    }

    public int topK() {
        return topK;
    }

    public int history() {
        return history;
    }

    @Override
    public KeyedJob<?> job() {
        return KeyedJob.<ClickProfile>builder(NAME, CLICK).longKeyed(new Recommend(recommender()))
                .state(StateCodec.derived(ClickProfile.class)).lookup(NEIGHBOURS, "item", Lookup.OnMissing.NULL)
                .time(TimePolicy.of(5_000, 60_000)).writes(RECOMMENDATIONS).build();
    }

    /** The same work per click, for code that keeps the profile itself (the plain-Jet reference of the latency benchmark). */
    public Recommender recommender() {
        return new Recommender(halfLifeMs, sessionGapMs, topK, history);
    }

    /** Updates the profile and rewrites the user's recommendations, per click. */
    static final class Recommend implements LongKeyedFunction<ClickProfile> {
        private final Recommender recommender;

        Recommend(final Recommender recommender) {
            this.recommender = recommender;
        }

        @Override
        public void onEvent(final SchemaRecord click, final LongKeyContext<ClickProfile> context) {
            ClickProfile profile = context.state();
            if (profile == null) {
                profile = recommender.newProfile();
                context.setState(profile);
            }
            context.put(RECOMMENDATIONS, context.longKey(), recommender.onClick(profile, context.longKey(), context.time(),
                    click.get(ITEM), click.get(CATEGORY), click.ordinal(ACTION), context.lookup(NEIGHBOURS)));
        }
    }
}
