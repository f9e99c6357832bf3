package io.streamgrid.jobs.window;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Brute-force reference for the windowing rules, written apart from the engine: no incremental
 * state, no timers — for each event it recomputes which windows still take it from the watermark of
 * its partition, and at the end it groups the accepted events. Slow on purpose; for test streams.
 *
 * <p>Rules (see {@link WindowPolicy}): the watermark before an event is the highest timestamp
 * earlier in its partition minus the allowed disorder. Sliding/tumbling: window {@code [s, e)} takes
 * the event unless {@code e + lateness <= watermark}; an event some window refused is late.
 * Sessions: sessions are the groups of a key's accepted events with gaps below {@code gap}; a
 * session is closed for good once {@code end + lateness <= watermark}; an event touching no open
 * session, whose own session would already be closed, is late.
 */
public final class WindowOracle {
    /** One event as the oracle sees it; {@code payload} is whatever the caller aggregates. */
    public record Event(int partition, long key, long timestamp, long sequence, Object payload) {
    }

    /** A window's key in results: the event key and the window start. */
    public record WindowId(long key, long start, long end) {
    }

    /** Accepted events per window, and the sequence numbers of late events. */
    public record Result(Map<WindowId, List<Event>> windows, Set<Long> lateSequences) {
    }

    private WindowOracle() {
    }

    public static Result sliding(final List<Event> arrivalOrder, final long size, final long slide,
                                 final long disorder, final long lateness) {
        final Map<WindowId, List<Event>> windows = new HashMap<>();
        final Set<Long> late = new HashSet<>();
        final Map<Integer, Long> maxTimestampByPartition = new HashMap<>();
        for (final Event event : arrivalOrder) {
            final long watermark = watermark(maxTimestampByPartition, event.partition(), disorder);
            // Every window [start, start+size) with start <= ts < start+size, start a multiple of slide.
            final long lastStart = Math.floorDiv(event.timestamp(), slide) * slide;
            boolean refused = false;
            for (long start = lastStart; start > event.timestamp() - size; start -= slide) {
                final long end = start + size;
                if (end + lateness <= watermark) {
                    refused = true;
                } else {
                    windows.computeIfAbsent(new WindowId(event.key(), start, end), id -> new ArrayList<>()).add(event);
                }
            }
            if (refused) {
                late.add(event.sequence());
            }
            maxTimestampByPartition.merge(event.partition(), event.timestamp(), Math::max);
        }
        return new Result(windows, late);
    }

    public static Result sessions(final List<Event> arrivalOrder, final long gap, final long disorder, final long lateness) {
        final Map<WindowId, List<Event>> closed = new HashMap<>();
        final Map<Long, List<Event>> openEventsByKey = new HashMap<>();
        final Set<Long> late = new HashSet<>();
        final Map<Integer, Long> maxTimestampByPartition = new HashMap<>();
        for (final Event event : arrivalOrder) {
            final long watermark = watermark(maxTimestampByPartition, event.partition(), disorder);
            final List<Event> open = openEventsByKey.computeIfAbsent(event.key(), k -> new ArrayList<>());
            // Close for good every session whose end + lateness is behind the watermark.
            for (final Map.Entry<WindowId, List<Event>> session : sessionsOf(event.key(), open, gap).entrySet()) {
                if (session.getKey().end() + lateness <= watermark) {
                    closed.put(session.getKey(), session.getValue());
                    open.removeAll(session.getValue());
                }
            }
            boolean touches = false;
            for (final WindowId session : sessionsOf(event.key(), open, gap).keySet()) {
                if (session.start() < event.timestamp() + gap && event.timestamp() < session.end()) {
                    touches = true;
                }
            }
            if (!touches && event.timestamp() + gap + lateness <= watermark) {
                late.add(event.sequence());
            } else {
                open.add(event);
            }
            maxTimestampByPartition.merge(event.partition(), event.timestamp(), Math::max);
        }
        final Map<WindowId, List<Event>> all = new HashMap<>(closed);
        openEventsByKey.forEach((key, events) -> all.putAll(sessionsOf(key, events, gap)));
        return new Result(all, late);
    }

    /** Groups events into sessions: sorted by time, a new session where the gap is at least {@code gap}. */
    private static Map<WindowId, List<Event>> sessionsOf(final long key, final List<Event> events, final long gap) {
        final List<Event> sorted = new ArrayList<>(events);
        sorted.sort((a, b) -> Long.compare(a.timestamp(), b.timestamp()));
        final Map<WindowId, List<Event>> sessions = new TreeMap<>((a, b) -> Long.compare(a.start(), b.start()));
        List<Event> current = new ArrayList<>();
        for (final Event event : sorted) {
            if (!current.isEmpty() && event.timestamp() - current.get(current.size() - 1).timestamp() >= gap) {
                sessions.put(idOf(key, current, gap), current);
                current = new ArrayList<>();
            }
            current.add(event);
        }
        if (!current.isEmpty()) {
            sessions.put(idOf(key, current, gap), current);
        }
        return sessions;
    }

    private static WindowId idOf(final long key, final List<Event> session, final long gap) {
        return new WindowId(key, session.get(0).timestamp(), session.get(session.size() - 1).timestamp() + gap);
    }

    private static long watermark(final Map<Integer, Long> maxTimestampByPartition, final int partition, final long disorder) {
        final Long max = maxTimestampByPartition.get(partition);
        return max == null ? Long.MIN_VALUE : max - disorder;
    }
}
