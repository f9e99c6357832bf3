package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.event.EventType;

/**
 * What a deterministic event generator produces. The same spec always yields the same events.
 *
 * <p>Event {@code i} "arrives" at {@code startTimeMs + i * 1000 / eventsPerSecond} (event-time
 * pacing, not wall-clock). An on-time event's timestamp is its arrival time minus a uniform jitter
 * of 0 to {@code maxDisorderMs}; a late one (probability {@code lateFraction}) is older than that by
 * a further 1 to {@code maxLatenessMs}. Keys are drawn from {@code 0..keys-1} with a Zipf
 * distribution of exponent {@code zipfExponent} (0: uniform). With {@code hotKeyFraction > 0},
 * that share of events goes to one "hot" key that changes every {@code hotKeyPeriodMs} — a spike.
 *
 * @param type a built-in event type for {@link EventGenerator}; null for a schema's events
 */
public record GeneratorSpec(
        EventType type,
        long seed,
        long events,
        long eventsPerSecond,
        int keys,
        double zipfExponent,
        long maxDisorderMs,
        double lateFraction,
        long maxLatenessMs,
        long startTimeMs,
        double hotKeyFraction,
        long hotKeyPeriodMs) {

    public GeneratorSpec {
        check(events >= 0, "events must be >= 0, was " + events);
        check(eventsPerSecond > 0, "eventsPerSecond must be positive, was " + eventsPerSecond);
        check(keys > 0, "keys must be positive, was " + keys);
        check(zipfExponent >= 0, "zipfExponent must be >= 0, was " + zipfExponent);
        check(maxDisorderMs >= 0, "maxDisorderMs must be >= 0, was " + maxDisorderMs);
        check(lateFraction >= 0 && lateFraction <= 1, "lateFraction must be 0 to 1, was " + lateFraction);
        check(maxLatenessMs >= 1, "maxLatenessMs must be >= 1, was " + maxLatenessMs);
        check(startTimeMs >= 0, "startTimeMs must be >= 0, was " + startTimeMs);
        check(hotKeyFraction >= 0 && hotKeyFraction <= 1, "hotKeyFraction must be 0 to 1, was " + hotKeyFraction);
        check(hotKeyPeriodMs > 0, "hotKeyPeriodMs must be positive, was " + hotKeyPeriodMs);
    }

    /** A spec for a schema's events ({@link SchemaGenerator}): no built-in type; refine with the withers. */
    public static GeneratorSpec forSchema(final long seed, final long events, final int keys) {
        return of(null, seed, events, keys);
    }

    /** A spec with no disorder, no late events, uniform keys and no spikes; refine with the withers. */
    public static GeneratorSpec of(final EventType type, final long seed, final long events, final int keys) {
        return new GeneratorSpec(type, seed, events, 1_000, keys, 0, 0, 0, 1, 1_767_225_600_000L, 0, 60_000);
    }

    public GeneratorSpec withRate(final long perSecond) {
        return new GeneratorSpec(type, seed, events, perSecond, keys, zipfExponent, maxDisorderMs, lateFraction,
                maxLatenessMs, startTimeMs, hotKeyFraction, hotKeyPeriodMs);
    }

    public GeneratorSpec withZipf(final double exponent) {
        return new GeneratorSpec(type, seed, events, eventsPerSecond, keys, exponent, maxDisorderMs, lateFraction,
                maxLatenessMs, startTimeMs, hotKeyFraction, hotKeyPeriodMs);
    }

    public GeneratorSpec withDisorder(final long maxDisorder, final double late, final long maxLateness) {
        return new GeneratorSpec(type, seed, events, eventsPerSecond, keys, zipfExponent, maxDisorder, late,
                maxLateness, startTimeMs, hotKeyFraction, hotKeyPeriodMs);
    }

    public GeneratorSpec withHotKeys(final double fraction, final long periodMs) {
        return new GeneratorSpec(type, seed, events, eventsPerSecond, keys, zipfExponent, maxDisorderMs, lateFraction,
                maxLatenessMs, startTimeMs, fraction, periodMs);
    }

    /** Event times from {@code startMs} on (for events that follow the clock: the clock's time). */
    public GeneratorSpec withStart(final long startMs) {
        return new GeneratorSpec(type, seed, events, eventsPerSecond, keys, zipfExponent, maxDisorderMs, lateFraction,
                maxLatenessMs, startMs, hotKeyFraction, hotKeyPeriodMs);
    }

    /** As many events as are due in {@code count}; the rest unchanged. */
    public GeneratorSpec withEvents(final long count) {
        return new GeneratorSpec(type, seed, count, eventsPerSecond, keys, zipfExponent, maxDisorderMs, lateFraction,
                maxLatenessMs, startTimeMs, hotKeyFraction, hotKeyPeriodMs);
    }

    /** When event {@code i} arrives (its event time before disorder and lateness). */
    public long arrival(final long i) {
        return startTimeMs + i * 1000 / eventsPerSecond;
    }

    private static void check(final boolean condition, final String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }
}
