package io.streamgrid.jobs.join;

import io.streamgrid.jobs.keyed.KeyedContext;
import io.streamgrid.jobs.keyed.KeyedFunction;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;

/**
 * A symmetric join as a keyed function: each arriving event meets the kept events of the other side
 * of its key — every pair the rule matches goes to the user's function at once, its partners in time
 * order (found by binary search: the kept events are sorted) — and is then kept itself for partners
 * yet to come, until a timer at or after its expiry drops it.
 * An event its side's filter refuses is left out before any of that: it meets no one and is not kept.
 * A pair is made when the later of its two events arrives, so each pair is made once; the events
 * kept are the key's state, in the job's snapshots, so a restored job makes the same pairs again
 * from the same events and no others.
 */
final class PairJoinFunction implements KeyedFunction<JoinBuffers>, JoinContext {
    private final EventSchema left;
    private final EventSchema right;
    private final JoinRule rule;
    private final long latenessMs;
    private final JoinFunction onPair;
    private final EventFilter leftWhere;
    private final EventFilter rightWhere;
    /** Timers that drop kept events are set at multiples of this. */
    private final long granularity;
    /** Made on the member at the first event (the function travels there serialized). */
    private transient SchemaRecord keptLeft;
    private transient SchemaRecord keptRight;
    /** The layout the left side's events came in last: one comparison per event instead of a name's. */
    private transient SchemaLayout leftLayout;
    private transient KeyedContext<JoinBuffers> bound;

    PairJoinFunction(final EventSchema left, final EventSchema right, final JoinRule rule, final long latenessMs,
                     final JoinFunction onPair, final EventFilter leftWhere, final EventFilter rightWhere) {
        this.left = left;
        this.right = right;
        this.rule = rule;
        this.latenessMs = latenessMs;
        this.onPair = onPair;
        this.leftWhere = leftWhere;
        this.rightWhere = rightWhere;
        this.granularity = rule.timerGranularity(latenessMs);
    }

    @Override
    public void onEvent(final SchemaRecord event, final KeyedContext<JoinBuffers> context) {
        final boolean isLeft = isLeft(event);
        if (!(isLeft ? leftWhere : rightWhere).keep(event)) {
            return;
        }
        final long time = event.eventTime();
        JoinBuffers buffers = context.state();
        bound = context;
        try {
            if (buffers != null) {
                final JoinSide partners = isLeft ? buffers.right : buffers.left;
                final SchemaRecord partner = isLeft ? keptRight : keptLeft;
                final long last = rule.lastPartnerTime(isLeft, time);
                for (int i = partners.firstAtOrAfter(rule.firstPartnerTime(isLeft, time)); i < partners.count()
                        && partners.time(i) <= last; i++) {
                    partner.wrap(partners.buffer(), partners.offset(i), partners.length(i));
                    if (isLeft) {
                        onPair.onPair(event, partner, this);
                    } else {
                        onPair.onPair(partner, event, this);
                    }
                }
            }
        } finally {
            bound = null;
        }
        final long expiry = rule.expiry(isLeft, time, latenessMs);
        if (expiry <= context.watermark()) {
            return; // no partner can come any more: a late event meets those kept, and is not kept
        }
        if (buffers == null) {
            buffers = new JoinBuffers();
            context.setState(buffers);
        }
        (isLeft ? buffers.left : buffers.right).add(event.buffer(), event.offset(), event.length(), time, expiry);
        context.registerTimer(expiry + Math.floorMod(-expiry, granularity)); // rounded up: a few timers per key and span
    }

    @Override
    public void onTimer(final long time, final KeyedContext<JoinBuffers> context) {
        final JoinBuffers buffers = context.state();
        if (buffers == null) {
            return;
        }
        buffers.left.expire(time);
        buffers.right.expire(time);
        if (buffers.isEmpty()) {
            context.clearState();
        }
    }

    private boolean isLeft(final SchemaRecord event) {
        if (keptLeft == null) {
            keptLeft = new SchemaRecord(left.layout());
            keptRight = new SchemaRecord(right.layout());
        }
        final SchemaLayout layout = event.layout();
        if (layout == leftLayout) {
            return true;
        }
        if (layout.schema().name().equals(left.name())) {
            leftLayout = layout;
            return true;
        }
        return false;
    }

    // ---- JoinContext: the bound keyed context, during a pair's call ----

    @Override
    public long longKey() {
        return bound.longKey();
    }

    @Override
    public String stringKey() {
        return bound.stringKey();
    }

    @Override
    public void put(final String map, final Object key, final Object value) {
        bound.put(map, key, value);
    }

    @Override
    public void remove(final String map, final Object key) {
        bound.remove(map, key);
    }

    @Override
    public SchemaRecord newEvent(final EventSchema schema) {
        return bound.newEvent(schema);
    }

    @Override
    public void emit(final SchemaRecord event) {
        bound.emit(event);
    }
}
