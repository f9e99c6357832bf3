package io.streamgrid.client.impl;

import io.streamgrid.client.Delta;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * A conflated subscription's buffer: the latest change of each key not yet delivered. A newer
 * change of a waiting key replaces it and moves it to the back, so the buffer holds its changes in
 * the order of their latest arrival — per partition, journal order, which the mirror's check by
 * sequence needs. A change not newer than the waiting one (a shared read handing out a batch again)
 * is ignored. At most one change per key waits, however slow the listener.
 *
 * <p>Thread-safe: the feed's read threads offer, the delivery thread drains.
 */
final class LatestChanges {
    private LinkedHashMap<Object, Delta> waiting = new LinkedHashMap<>();
    private long replaced;

    /** Keeps {@code delta} as its key's latest change; returns whether the buffer was empty (the delivery thread may be asleep). */
    synchronized boolean offer(final Delta delta) {
        final boolean wasEmpty = waiting.isEmpty();
        final Delta previous = waiting.get(delta.key());
        if (previous != null) {
            if (previous.partition() == delta.partition() && previous.sequence() >= delta.sequence()) {
                return false;
            }
            waiting.remove(delta.key());
            replaced++;
        }
        waiting.put(delta.key(), delta);
        return wasEmpty;
    }

    /** The waiting changes, oldest first; the buffer is empty afterwards. */
    synchronized Collection<Delta> drain() {
        if (waiting.isEmpty()) {
            return List.of();
        }
        final Collection<Delta> out = waiting.values();
        waiting = new LinkedHashMap<>();
        return out;
    }

    synchronized int size() {
        return waiting.size();
    }

    /** Changes replaced by a newer one of their key before they were delivered. */
    synchronized long replaced() {
        return replaced;
    }
}
