package io.streamgrid.jobs.join;

import java.io.Serializable;

/**
 * Which left and right events of a key form a pair — the partners of an event are those whose time
 * is in a range around its own (within the bound, or in its window) — and how long each must be kept
 * for a partner that may still come. An event is kept until the watermark has passed the last time a partner
 * could have and still not be late: events behind the watermark by more than the allowed lateness
 * never reach the join (they go to its late map).
 */
record JoinRule(boolean window, long lowerMs, long upperMs, long sizeMs) implements Serializable {
    /** Pairs whose right event is between {@code lowerMs} and {@code upperMs} (both included) after the left one. */
    static JoinRule interval(final long lowerMs, final long upperMs) {
        return new JoinRule(false, lowerMs, upperMs, 0);
    }

    /** Pairs in the same tumbling window of {@code sizeMs}, windows starting at multiples of it. */
    static JoinRule tumbling(final long sizeMs) {
        return new JoinRule(true, 0, 0, sizeMs);
    }

    /** The earliest time of a partner of an event of one side at {@code time}. */
    long firstPartnerTime(final boolean left, final long time) {
        if (window) {
            return Math.floorDiv(time, sizeMs) * sizeMs;
        }
        return left ? time + lowerMs : time - upperMs;
    }

    /** The latest time of a partner of an event of one side at {@code time}. */
    long lastPartnerTime(final boolean left, final long time) {
        if (window) {
            return Math.floorDiv(time, sizeMs) * sizeMs + sizeMs - 1;
        }
        return left ? time + upperMs : time - lowerMs;
    }

    /**
     * How far apart the timers that drop kept events are: a quarter of the time an event is kept
     * for at least (the bound's span or the window, plus the lateness), so a key has a few timers
     * per span, not one per event; an event then lives at most that much past its expiry.
     */
    long timerGranularity(final long latenessMs) {
        final long span = (window ? sizeMs : upperMs - lowerMs) + latenessMs;
        return Math.max(1, span / 4);
    }

    /**
     * The watermark at which an event of one side at {@code time} can no longer meet a partner: a
     * partner arriving then is at or after {@code watermark - latenessMs}, past the latest time that
     * could match. The event's timer is set there.
     */
    long expiry(final boolean left, final long time, final long latenessMs) {
        if (window) {
            return Math.floorDiv(time, sizeMs) * sizeMs + sizeMs + latenessMs;
        }
        final long latestPartner = left ? time + upperMs : time - lowerMs;
        return latestPartner + latenessMs + 1;
    }

    @Override
    public String toString() {
        return window ? "tumbling windows of " + sizeMs + " ms" : "right " + lowerMs + " to " + upperMs + " ms after left";
    }
}
