package io.streamgrid.examples.recommendations;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.keyed.KeyedContext;
import io.streamgrid.jobs.keyed.KeyedFunction;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.Lookup;
import io.streamgrid.jobs.keyed.StreamGridJob;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;

import java.util.Arrays;

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
    private static final int ITEM = CLICK.layout().indexOf("item");
    private static final int CATEGORY = CLICK.layout().indexOf("category");
    private static final int ACTION = CLICK.layout().indexOf("action");

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
        return KeyedJob.<ClickProfile>builder(NAME, CLICK).function(new Recommend(halfLifeMs, sessionGapMs, topK, history))
                .state(ClickProfile.codec(CATEGORIES, history)).lookup(NEIGHBOURS, "item", Lookup.OnMissing.NULL)
                .time(TimePolicy.of(5_000, 60_000)).writes(RECOMMENDATIONS).build();
    }

    /** Updates the profile and rewrites the user's recommendations, per click. */
    static final class Recommend implements KeyedFunction<ClickProfile> {
        private final long halfLifeMs;
        private final long sessionGapMs;
        private final int topK;
        private final int history;

        Recommend(final long halfLifeMs, final long sessionGapMs, final int topK, final int history) {
            this.halfLifeMs = halfLifeMs;
            this.sessionGapMs = sessionGapMs;
            this.topK = topK;
            this.history = history;
        }

        @Override
        public void onEvent(final SchemaRecord click, final KeyedContext<ClickProfile> context) {
            ClickProfile profile = context.state();
            if (profile == null) {
                profile = new ClickProfile(CATEGORIES, history);
                context.setState(profile);
            }
            final long time = context.time();
            if (profile.lastEvent == Long.MIN_VALUE || time - profile.lastEvent > sessionGapMs) {
                profile.sessionStart = time;
                profile.sessionViews = 0;
            }
            profile.sessionViews++;
            profile.clicks++;
            profile.lastEvent = Math.max(profile.lastEvent, time);
            profile.decayTo(time, halfLifeMs);
            final int category = click.getInt(CATEGORY);
            if (category >= 0 && category < CATEGORIES) {
                profile.affinity[category] += WEIGHTS[click.getEnumOrdinal(ACTION)];
            }
            final long item = click.getLong(ITEM);
            profile.remember(item);
            context.put(RECOMMENDATIONS, context.longKey(), recommend(context.longKey(), profile, context.lookup(NEIGHBOURS), time));
        }

        private Recommendations recommend(final long user, final ClickProfile profile, final ItemNeighbours neighbours,
                                          final long time) {
            final long[] items = new long[topK];
            final double[] scores = new double[topK];
            int found = 0;
            if (neighbours != null) {
                for (int n = 0; n < neighbours.items().length; n++) {
                    final long candidate = neighbours.items()[n];
                    if (profile.seen(candidate)) {
                        continue; // the clicked item is in the history too
                    }
                    final int c = neighbours.categories()[n];
                    final double score = neighbours.counts()[n] * (1 + (c >= 0 && c < CATEGORIES ? profile.affinity[c] : 0));
                    found = insert(items, scores, found, candidate, score);
                }
            }
            return new Recommendations(user, Arrays.copyOf(items, found), Arrays.copyOf(scores, found),
                    profile.topCategory(), profile.sessionStart, profile.sessionViews, profile.clicks, time);
        }

        /** Inserts into the best-first top list (ties: lower item first); returns its new length. */
        private static int insert(final long[] items, final double[] scores, final int length, final long item, final double score) {
            int at = length;
            while (at > 0 && (scores[at - 1] < score || scores[at - 1] == score && items[at - 1] > item)) {
                at--;
            }
            if (at >= items.length) {
                return length;
            }
            final int kept = Math.min(length, items.length - 1);
            System.arraycopy(items, at, items, at + 1, kept - at);
            System.arraycopy(scores, at, scores, at + 1, kept - at);
            items[at] = item;
            scores[at] = score;
            return kept + 1;
        }
    }
}
