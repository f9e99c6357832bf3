package io.streamgrid.jobs.window.impl;

import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.window.WindowAggregation;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;
import org.agrona.collections.Long2ObjectHashMap;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Session windows: per key, events closer than {@code gap} ms share a session
 * {@code [first event, last event + gap)}. An event that bridges two sessions merges them; a merged
 * session that was reported under another start is retracted there ({@link WindowListener#onRetract})
 * and reported under its new start. A session is dropped once {@code end + allowed lateness} is
 * behind the watermark; an event that would only form a session that closed that long ago is late.
 *
 * <p>A key is registered in the timer wheel at one time only — the earliest time one of its sessions
 * is due (its end while it has an unemitted change, else its end plus allowed lateness) — and
 * re-registers itself when visited; an event that extends a session moves nothing. Registrations
 * left behind when a key's due time moved earlier are stale and skipped when their time comes.
 */
public final class SessionWindowEngine<A> extends AbstractWindowEngine<A> {
    private static final long NOT_EMITTED = Long.MIN_VALUE;
    private final long gap;
    private final Long2ObjectHashMap<KeySessions<A>> sessionsByKey = new Long2ObjectHashMap<>();

    public SessionWindowEngine(final WindowDefinition.Session window, final WindowPolicy policy,
                               final WindowAggregation<A> aggregation, final WindowListener<A> listener) {
        super(policy, aggregation, listener);
        this.gap = window.gap();
    }

    /** A key's sessions, sorted by start and never overlapping, and the one time the key is registered at. */
    private static final class KeySessions<A> {
        final List<Session<A>> sessions;
        long nextDue = Long.MAX_VALUE;

        KeySessions(final int capacity) {
            sessions = new ArrayList<>(capacity);
        }
    }

    private static final class Session<A> {
        long start;
        long end;
        A accumulator;
        int sequence;
        boolean dirty;
        long emittedStart = NOT_EMITTED;
    }

    @Override
    void process(final SchemaRecord event, final long key, final long timestamp) {
        KeySessions<A> keySessions = sessionsByKey.get(key);
        final List<Session<A>> sessions = keySessions == null ? null : keySessions.sessions;
        Session<A> target = null;
        if (sessions != null) {
            // Sessions are sorted by start and never overlap; the ones this event touches are adjacent.
            for (int i = 0; i < sessions.size(); i++) {
                final Session<A> session = sessions.get(i);
                if (session.start < timestamp + gap && timestamp < session.end) {
                    if (target == null) {
                        target = session;
                    } else {
                        merge(key, target, session);
                        sessions.remove(i--);
                    }
                }
            }
        }
        if (target == null) {
            final long end = timestamp + gap;
            if (end + lateness <= watermark) {
                lateEvents++;
                listener.onLate(event, watermark, "its session would have ended at " + end
                        + " and closed at watermark " + watermark + " (allowed lateness " + lateness + " ms)");
                return;
            }
            if (keySessions == null) {
                keySessions = new KeySessions<>(2);
                sessionsByKey.put(key, keySessions);
            }
            target = new Session<>();
            target.start = timestamp;
            target.end = end;
            target.accumulator = aggregation.create();
            insertSorted(keySessions.sessions, target);
        }
        aggregation.accumulate(target.accumulator, event);
        target.start = Math.min(target.start, timestamp);
        target.end = Math.max(target.end, timestamp + gap);
        if (target.end <= watermark) {
            emit(key, target, true);
        } else {
            target.dirty = true;
        }
        ensureDue(key, keySessions, dueTime(target));
    }

    /** When {@code session} next needs a visit: its end to emit a change, else its end plus lateness to drop it. */
    private long dueTime(final Session<A> session) {
        return session.dirty ? session.end : session.end + lateness;
    }

    /** Makes sure {@code key} is visited at {@code time} or earlier; one registration per key. */
    private void ensureDue(final long key, final KeySessions<A> keySessions, final long time) {
        if (time < keySessions.nextDue) {
            keySessions.nextDue = time;
            scheduleDue(time, key); // a time at or below the watermark is visited at the next advance
        }
    }

    private void merge(final long key, final Session<A> target, final Session<A> other) {
        aggregation.combine(target.accumulator, other.accumulator);
        target.start = Math.min(target.start, other.start);
        target.end = Math.max(target.end, other.end);
        target.sequence = Math.max(target.sequence, other.sequence);
        if (other.emittedStart != NOT_EMITTED) {
            listener.onRetract(key, other.emittedStart);
        }
    }

    private static <A> void insertSorted(final List<Session<A>> sessions, final Session<A> session) {
        int i = 0;
        while (i < sessions.size() && sessions.get(i).start < session.start) {
            i++;
        }
        sessions.add(i, session);
    }

    private void emit(final long key, final Session<A> session, final boolean afterWatermark) {
        if (session.emittedStart != NOT_EMITTED && session.emittedStart != session.start) {
            listener.onRetract(key, session.emittedStart);
        }
        session.sequence++;
        session.dirty = false;
        session.emittedStart = session.start;
        listener.onWindow(key, session.start, session.end, session.accumulator, session.sequence, afterWatermark);
    }

    @Override
    void onDue(final long key, final long time) {
        final KeySessions<A> keySessions = sessionsByKey.get(key);
        if (keySessions == null || time != keySessions.nextDue) {
            return; // a stale registration: the key was re-registered earlier and has moved on
        }
        final List<Session<A>> sessions = keySessions.sessions;
        long next = Long.MAX_VALUE;
        for (int i = 0; i < sessions.size(); i++) {
            final Session<A> session = sessions.get(i);
            if (session.dirty && session.end <= watermark) {
                emit(key, session, false);
            }
            if (session.end + lateness <= watermark) {
                sessions.remove(i--);
            } else {
                next = Math.min(next, dueTime(session));
            }
        }
        if (sessions.isEmpty()) {
            sessionsByKey.remove(key);
            listener.onKeyDropped(key);
            return;
        }
        keySessions.nextDue = next;
        scheduleDue(next, key);
    }

    @Override
    public int keyCount() {
        return sessionsByKey.size();
    }

    @Override
    void writeKeys(final DataOutput out) throws IOException {
        out.writeInt(sessionsByKey.size());
        final Long2ObjectHashMap<KeySessions<A>>.EntryIterator keys = sessionsByKey.entrySet().iterator();
        while (keys.hasNext()) {
            keys.next();
            out.writeLong(keys.getLongKey());
            final List<Session<A>> sessions = keys.getValue().sessions;
            out.writeInt(sessions.size());
            for (final Session<A> session : sessions) {
                out.writeLong(session.start);
                out.writeLong(session.end);
                out.writeInt(session.sequence);
                out.writeBoolean(session.dirty);
                out.writeLong(session.emittedStart);
                aggregation.write(session.accumulator, out);
            }
        }
    }

    @Override
    void restoreKeys(final DataInput in) throws IOException {
        sessionsByKey.clear();
        final int keys = in.readInt();
        for (int k = 0; k < keys; k++) {
            final long key = in.readLong();
            final int count = in.readInt();
            final KeySessions<A> keySessions = new KeySessions<>(Math.max(2, count));
            long next = Long.MAX_VALUE;
            for (int s = 0; s < count; s++) {
                final Session<A> session = new Session<>();
                session.start = in.readLong();
                session.end = in.readLong();
                session.sequence = in.readInt();
                session.dirty = in.readBoolean();
                session.emittedStart = in.readLong();
                session.accumulator = aggregation.read(in);
                keySessions.sessions.add(session);
                next = Math.min(next, dueTime(session));
            }
            if (next != Long.MAX_VALUE) {
                ensureDue(key, keySessions, next);
            }
            sessionsByKey.put(key, keySessions);
        }
    }
}
