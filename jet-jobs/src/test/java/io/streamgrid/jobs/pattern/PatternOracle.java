package io.streamgrid.jobs.pattern;

import io.streamgrid.jobs.schema.SchemaRecord;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The brute-force oracle of pattern matching, written from {@link Pattern}'s rules and nothing
 * else: per key, the events sorted in matching order; from each possible start, the one way the
 * rules extend it; the match that completes first (ties: the earliest start) is reported, and the
 * search goes on after its last event.
 */
public final class PatternOracle {
    /** One event as the oracle sees it: its place in matching order and a record to hand to conditions. */
    public record Event(String key, int schema, String schemaName, long time, long logPosition, long sequence, SchemaRecord record,
                 String fieldsText) {
    }

    private PatternOracle() {
    }

    public static Map<String, PatternAlert> alerts(final List<Event> events, final List<Pattern> patterns) {
        final Map<String, List<Event>> byKey = new HashMap<>();
        events.forEach(e -> byKey.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(e));
        final Map<String, PatternAlert> alerts = new HashMap<>();
        for (final List<Event> keyEvents : byKey.values()) {
            keyEvents.sort(Comparator.comparingLong(Event::time).thenComparingInt(Event::schema).thenComparingLong(Event::logPosition));
            for (final Pattern pattern : patterns) {
                find(keyEvents, pattern, alerts);
            }
        }
        return alerts;
    }

    private static void find(final List<Event> events, final Pattern pattern, final Map<String, PatternAlert> alerts) {
        int from = 0;
        while (true) {
            Taken best = null;
            for (int start = from; start < events.size(); start++) {
                final Taken taken = extend(events, start, pattern);
                if (taken != null && (best == null || taken.end < best.end)) {
                    best = taken;
                }
            }
            if (best == null) {
                return;
            }
            final StringBuilder readings = new StringBuilder();
            for (int i = 0; i < best.events.size(); i++) {
                final Event e = best.events.get(i);
                if (i > 0) {
                    readings.append('\n');
                }
                readings.append(best.steps.get(i)).append(' ').append(e.schemaName()).append('@').append(e.time())
                        .append(" #").append(e.sequence()).append(e.fieldsText());
            }
            final Event first = best.events.get(0);
            final PatternAlert alert = new PatternAlert(first.key(), pattern.name(), first.time(),
                    best.events.get(best.events.size() - 1).time(), readings.toString());
            alerts.put(alert.mapKey(first.sequence()), alert);
            from = best.end + 1;
        }
    }

    /** The events a match starting at {@code start} takes, with the step of each, and where it ends. */
    private static final class Taken implements Match {
        final List<Event> events = new ArrayList<>();
        final List<String> steps = new ArrayList<>();
        final long startTime;
        int end = -1;

        Taken(final long startTime) {
            this.startTime = startTime;
        }

        @Override
        public List<SchemaRecord> events(final String step) {
            final List<SchemaRecord> out = new ArrayList<>();
            for (int i = 0; i < events.size(); i++) {
                if (steps.get(i).equals(step)) {
                    out.add(events.get(i).record());
                }
            }
            return out;
        }

        @Override
        public long startTime() {
            return startTime;
        }
    }

    private static Taken extend(final List<Event> events, final int start, final Pattern pattern) {
        final List<Pattern.Step> steps = pattern.steps();
        final Event first = events.get(start);
        final Taken taken = new Taken(first.time());
        if (!first.schemaName().equals(steps.get(0).schema()) || !steps.get(0).condition().test(first.record(), taken)) {
            return null;
        }
        int step = 0;
        int count = 0;
        int at = start;
        while (true) {
            final Event e = events.get(at);
            taken.events.add(e);
            taken.steps.add(steps.get(step).name());
            if (++count == steps.get(step).times()) {
                step++;
                count = 0;
            }
            if (step == steps.size()) {
                taken.end = at;
                return taken;
            }
            // The next event this step can take, or the end of the match.
            while (true) {
                if (++at == events.size()) {
                    return null;
                }
                final Event next = events.get(at);
                if (next.time() - first.time() > pattern.withinMs()) {
                    return null;
                }
                if (!next.schemaName().equals(steps.get(step).schema())) {
                    continue;
                }
                if (steps.get(step).condition().test(next.record(), taken)) {
                    break;
                }
                if (count > 0) {
                    return null; // a repetition broken by its own schema
                }
            }
        }
    }
}
