package io.streamgrid.jobs.pipeline.impl;

/**
 * A keyed run's timers: one queue in event time, one in processing time; one timer per key and
 * time (registering it again does nothing), timers of equal time in the order they were registered.
 * What fires them, and when, is the run's ({@link KeyedRun}).
 */
final class KeyTimers<S> {
    final TimerQueue eventTime = new TimerQueue(false);
    final TimerQueue processingTime = new TimerQueue(true);
    /** Orders timers of equal time; part of the run's snapshot. */
    private long sequence;
    /**
     * The earliest event-time timer registered since event-time timers last fired: only such a
     * timer can be due while the watermark stands still (the others were later than it when it last moved).
     */
    private long earliestRegistered = Long.MAX_VALUE;

    /** Registers a timer of {@code entry}'s key at {@code time} in {@code queue} (one of this object's two). */
    void register(final TimerQueue queue, final KeyEntry<S> entry, final long time) {
        if (queue.slotOf(entry, time) < 0) {
            queue.add(entry, time, sequence++);
            if (queue == eventTime) {
                earliestRegistered = Math.min(earliestRegistered, time);
            }
        }
    }

    /** Deletes the timer of {@code entry}'s key at {@code time} from {@code queue}, if there is one. */
    void delete(final TimerQueue queue, final KeyEntry<S> entry, final long time) {
        final int slot = queue.slotOf(entry, time);
        if (slot >= 0) {
            queue.remove(entry, slot);
        }
    }

    /** Whether an event-time timer registered since they last fired is due at {@code watermark}. */
    boolean registeredDueAt(final long watermark) {
        return earliestRegistered <= watermark;
    }

    /** Event-time timers are about to fire. */
    void firingEventTime() {
        earliestRegistered = Long.MAX_VALUE;
    }

    long sequence() {
        return sequence;
    }

    /** Rebuilds both queues from {@code entries}' timers, their order from {@code restoredSequence} on (after a restore). */
    void rebuild(final Iterable<KeyEntry<S>> entries, final long restoredSequence) {
        sequence = restoredSequence;
        eventTime.clear();
        processingTime.clear();
        for (final KeyEntry<S> entry : entries) {
            eventTime.restore(entry);
            processingTime.restore(entry);
        }
    }
}
