package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.window.impl.TimeHeap;
import org.agrona.collections.Long2LongHashMap;

import java.util.Arrays;

/**
 * The timers of a partition's keys in firing order: earliest time first, and among timers of one
 * time in registration order (the sequence, kept in snapshots, so every replay fires them in the
 * same order).
 *
 * <p>The timers themselves are kept in their key's entry (time and sequence; the snapshot writes
 * them from there). This queue holds one node per key that has timers, at a time no later than the
 * key's earliest timer (or of a key whose timers were all deleted, until it comes up). Nodes are grouped by time: one bucket per distinct time holding a linked
 * list of nodes, and a small binary heap of the distinct times. When a bucket reaches the front, a
 * node whose key's earliest timer is later moves to that timer's bucket, and the nodes that are due
 * are sorted by their timers' sequences — then they fire in that order.
 *
 * <p>Why this shape: keys that re-arm their timer on every event (an inactivity timeout: delete
 * the timer, register a later one) only change their entry — the key keeps its node, and a later
 * timer needs no queue work until the node's time comes, once per timeout instead of once per
 * event. Registering a timer earlier than the key's node adds a node
 * there; the old one goes stale and is dropped when it comes up (a node is live while its entry
 * names it). Should stale nodes outnumber the live ones by far (a key that keeps moving its timer
 * earlier), the queue drops them all in one pass.
 *
 * <p>Nodes live in parallel arrays (no object per timer). One queue for event-time timers and one
 * for processing-time timers; {@code processing} says which of the entry's fields this one uses.
 */
final class TimerQueue {
    private static final int NONE = -1;
    private static final long NO_BUCKET = -1;
    private static final long NOT_PREPARED = Long.MIN_VALUE;
    /** Stale nodes tolerated before a sweep: this many per live node, plus {@link #STALE_SLACK}. */
    private static final int STALE_PER_LIVE = 4;
    private static final int STALE_SLACK = 4_096;

    private final boolean processing;
    private KeyEntry<?>[] nodeEntry = new KeyEntry<?>[64];
    /** The sequence of the timer the node was queued for (orders a bucket's appends). */
    private long[] nodeSequence = new long[64];
    private long[] nodeTime = new long[64];
    private int[] nodeNext = new int[64];
    private int freeNodes = NONE;
    private int usedNodes;
    /** Nodes in buckets, live and stale. */
    private int queuedNodes;
    /** Nodes an entry names (entries without timers included, until their node comes up). */
    private int liveNodes;
    /** Time to its bucket: head node in the high 32 bits, tail node in the low 32. */
    private final Long2LongHashMap buckets = new Long2LongHashMap(NO_BUCKET);
    /** Heap of the distinct times that have a bucket: exactly those. */
    private final TimeHeap times = new TimeHeap();
    /** Timers of all entries in this queue. */
    private int size;
    /** The time whose bucket holds only due nodes in sequence order, or {@link #NOT_PREPARED}. */
    private long preparedTime = NOT_PREPARED;
    /** Nodes examined by {@link #prepare} so far (tests check that buckets are not sorted over and over). */
    private long preparedNodes;
    /** A bucket's due nodes, sorted by their timers' sequences (reused). */
    private final NodesBySequence due = new NodesBySequence();

    TimerQueue(final boolean processing) {
        this.processing = processing;
    }

    /** Timers held (deleted ones not counted). */
    int size() {
        return size;
    }

    long preparedNodes() {
        return preparedNodes;
    }

    /** Nodes held, live and stale (tests check that stale ones do not pile up). */
    int queuedNodes() {
        return queuedNodes;
    }

    void clear() {
        Arrays.fill(nodeEntry, null);
        freeNodes = NONE;
        usedNodes = 0;
        queuedNodes = 0;
        liveNodes = 0;
        buckets.clear();
        times.clear();
        size = 0;
        preparedTime = NOT_PREPARED;
    }

    private long[] timersOf(final KeyEntry<?> entry) {
        return processing ? entry.processingTimers : entry.timers;
    }

    private int timerCountOf(final KeyEntry<?> entry) {
        return processing ? entry.processingTimerCount : entry.timerCount;
    }

    private int nodeOf(final KeyEntry<?> entry) {
        return processing ? entry.processingNode : entry.eventNode;
    }

    private void setNode(final KeyEntry<?> entry, final int node) {
        if (processing) {
            entry.processingNode = node;
        } else {
            entry.eventNode = node;
        }
    }

    /** The slot of {@code entry}'s timer at {@code time} in this queue's timers, or -1. */
    int slotOf(final KeyEntry<?> entry, final long time) {
        return KeyEntry.find(timersOf(entry), timerCountOf(entry), time);
    }

    /** Adds a timer at {@code time} to {@code entry} (the caller checked it has none at that time). */
    void add(final KeyEntry<?> entry, final long time, final long sequence) {
        final int slot;
        if (processing) {
            entry.processingTimers = KeyEntry.withRoom(entry.processingTimers, entry.processingTimerCount);
            slot = entry.processingTimerCount++;
        } else {
            entry.timers = KeyEntry.withRoom(entry.timers, entry.timerCount);
            slot = entry.timerCount++;
        }
        final long[] timers = timersOf(entry);
        timers[KeyEntry.WIDTH * slot] = time;
        timers[KeyEntry.WIDTH * slot + 1] = sequence;
        size++;
        final int node = nodeOf(entry);
        // A node at or before the new timer covers it — except in the sorted front bucket, whose
        // order would not put this newest timer after the others of its time.
        if (node == NONE || time < nodeTime[node] || time == nodeTime[node] && time == preparedTime) {
            attach(entry, time, sequence);
        }
    }

    /**
     * Queues an entry restored with its timers (after a restore, once per entry, in any order:
     * ties are ordered by sequence when they come due).
     */
    void restore(final KeyEntry<?> entry) {
        final int count = timerCountOf(entry);
        if (count > 0) {
            size += count;
            attachAtEarliest(entry);
        }
    }

    /**
     * Removes the entry's timer in {@code slot}. Its node stays, even when that was the entry's
     * last timer: a timer re-armed later (deleted, then registered again) reuses it.
     */
    void remove(final KeyEntry<?> entry, final int slot) {
        final long[] timers = timersOf(entry);
        final int last = processing ? --entry.processingTimerCount : --entry.timerCount;
        if (slot != last) {
            System.arraycopy(timers, KeyEntry.WIDTH * last, timers, KeyEntry.WIDTH * slot, KeyEntry.WIDTH);
        }
        size--;
    }

    /**
     * Whether a timer at or before {@code upTo} is queued; if so it is at the front (then
     * {@link #peekTime()} and {@link #pollEntry()} are cheap). Buckets later than {@code upTo} are
     * not looked at: a node's time is a lower bound of its key's timers, so the front's time alone
     * can say that nothing is due — and a bucket is sorted only once it is due, when it is emptied.
     */
    boolean hasDue(final long upTo) {
        // Settles the front on the way: drops stale nodes, moves early ones, sorts a due bucket.
        while (times.size() > 0 && times.peek() <= upTo) {
            final long time = times.peek();
            if (preparedTime != time) {
                prepare(time);
                continue;
            }
            final long bucket = buckets.get(time);
            final int node = head(bucket);
            final KeyEntry<?> entry = nodeEntry[node];
            if (nodeOf(entry) != node) {
                unlinkHead(time, bucket, node);
                freeNode(node);
            } else if (timerCountOf(entry) == 0) {
                unlinkHead(time, bucket, node);
                release(entry, node);
            } else if (earliestTime(entry) != time) {
                unlinkHead(time, bucket, node); // its timer at this time was deleted after the bucket was prepared
                moveToEarliest(entry, node);
            } else {
                return true;
            }
        }
        return false;
    }

    /** Time of the earliest timer; only when {@link #size()} is positive. */
    long peekTime() {
        hasDue(Long.MAX_VALUE);
        return times.peek();
    }

    /**
     * Removes the earliest timer from its entry and the queue and returns the entry; only when
     * {@link #size()} is positive. The entry's other timers stay queued.
     */
    KeyEntry<?> pollEntry() {
        hasDue(Long.MAX_VALUE);
        final long time = times.peek();
        final long bucket = buckets.get(time);
        final int node = head(bucket);
        final KeyEntry<?> entry = nodeEntry[node];
        unlinkHead(time, bucket, node);
        freeNode(node);
        setNode(entry, NONE);
        liveNodes--;
        remove(entry, slotOf(entry, time));
        if (timerCountOf(entry) > 0) {
            attachAtEarliest(entry);
        }
        return entry;
    }

    /**
     * Walks the bucket of {@code time}: stale nodes are freed, nodes whose entry's earliest timer is
     * later move there, and the rest (due now) are relinked in their timers' sequence order.
     */
    private void prepare(final long time) {
        due.clear();
        for (int node = head(buckets.get(time)), next; node != NONE; node = next) {
            next = nodeNext[node];
            preparedNodes++;
            final KeyEntry<?> entry = nodeEntry[node];
            if (nodeOf(entry) != node) {
                freeNode(node);
                continue;
            }
            if (timerCountOf(entry) == 0) {
                release(entry, node);
                continue;
            }
            final int slot = earliestSlot(entry);
            final long[] timers = timersOf(entry);
            if (timers[KeyEntry.WIDTH * slot] != time) {
                moveToEarliest(entry, node);
                continue;
            }
            due.add(node, timers[KeyEntry.WIDTH * slot + 1]);
        }
        if (due.count() == 0) {
            buckets.remove(time);
            times.pop();
            return;
        }
        due.sort();
        final int count = due.count();
        for (int i = 0; i < count; i++) {
            final int node = due.node(i);
            nodeSequence[node] = due.sequence(i);
            nodeNext[node] = i + 1 < count ? due.node(i + 1) : NONE;
        }
        buckets.put(time, pack(due.node(0), due.node(count - 1)));
        preparedTime = time;
    }

    private void moveToEarliest(final KeyEntry<?> entry, final int node) {
        final int slot = earliestSlot(entry);
        final long[] timers = timersOf(entry);
        queuedNodes--; // append counts it again
        append(timers[KeyEntry.WIDTH * slot], node, timers[KeyEntry.WIDTH * slot + 1]);
    }

    private void attachAtEarliest(final KeyEntry<?> entry) {
        final int slot = earliestSlot(entry);
        final long[] timers = timersOf(entry);
        attach(entry, timers[KeyEntry.WIDTH * slot], timers[KeyEntry.WIDTH * slot + 1]);
    }

    /** Gives the entry a new node at {@code time}; a node it had goes stale. */
    private void attach(final KeyEntry<?> entry, final long time, final long sequence) {
        if (nodeOf(entry) == NONE) {
            liveNodes++;
        }
        final int node = newNode(entry);
        setNode(entry, node);
        append(time, node, sequence);
        if (queuedNodes - liveNodes > (long) STALE_PER_LIVE * liveNodes + STALE_SLACK) {
            sweep();
        }
    }

    /** Frees the node of an entry left without timers. */
    private void release(final KeyEntry<?> entry, final int node) {
        setNode(entry, NONE);
        liveNodes--;
        freeNode(node);
    }

    private int earliestSlot(final KeyEntry<?> entry) {
        final long[] timers = timersOf(entry);
        final int count = timerCountOf(entry);
        int earliest = 0;
        for (int slot = 1; slot < count; slot++) {
            if (timers[KeyEntry.WIDTH * slot] < timers[KeyEntry.WIDTH * earliest]) {
                earliest = slot;
            }
        }
        return earliest;
    }

    private long earliestTime(final KeyEntry<?> entry) {
        return timersOf(entry)[KeyEntry.WIDTH * earliestSlot(entry)];
    }

    private void append(final long time, final int node, final long sequence) {
        nodeTime[node] = time;
        nodeSequence[node] = sequence;
        nodeNext[node] = NONE;
        final long bucket = buckets.get(time);
        if (bucket == NO_BUCKET) {
            buckets.put(time, pack(node, node));
            times.push(time);
        } else {
            final int tail = tail(bucket);
            if (time == preparedTime && sequence < nodeSequence[tail]) {
                preparedTime = NOT_PREPARED; // out of order behind a sorted bucket: sort it again
            }
            nodeNext[tail] = node;
            buckets.put(time, pack(head(bucket), node));
        }
        queuedNodes++;
    }

    private void unlinkHead(final long time, final long bucket, final int node) {
        final int next = nodeNext[node];
        if (next == NONE) {
            buckets.remove(time);
            times.pop();
            if (preparedTime == time) {
                preparedTime = NOT_PREPARED;
            }
        } else {
            buckets.put(time, pack(next, tail(bucket)));
        }
    }

    /** Frees every stale node and every node of an entry without timers; the others keep their buckets and order. */
    private void sweep() {
        final long[] bucketTimes = times.toArray();
        times.clear();
        for (final long time : bucketTimes) {
            int kept = NONE;
            int keptTail = NONE;
            for (int node = head(buckets.get(time)), next; node != NONE; node = next) {
                next = nodeNext[node];
                final KeyEntry<?> entry = nodeEntry[node];
                if (nodeOf(entry) == node && timerCountOf(entry) > 0) {
                    nodeNext[node] = NONE;
                    if (kept == NONE) {
                        kept = node;
                    } else {
                        nodeNext[keptTail] = node;
                    }
                    keptTail = node;
                } else if (nodeOf(entry) == node) {
                    release(entry, node);
                } else {
                    freeNode(node);
                }
            }
            if (kept == NONE) {
                buckets.remove(time);
                if (preparedTime == time) {
                    preparedTime = NOT_PREPARED;
                }
            } else {
                buckets.put(time, pack(kept, keptTail));
                times.push(time);
            }
        }
    }

    private int newNode(final KeyEntry<?> entry) {
        int node = freeNodes;
        if (node != NONE) {
            freeNodes = nodeNext[node];
        } else {
            if (usedNodes == nodeEntry.length) {
                final int capacity = usedNodes * 2;
                nodeEntry = Arrays.copyOf(nodeEntry, capacity);
                nodeSequence = Arrays.copyOf(nodeSequence, capacity);
                nodeTime = Arrays.copyOf(nodeTime, capacity);
                nodeNext = Arrays.copyOf(nodeNext, capacity);
            }
            node = usedNodes++;
        }
        nodeEntry[node] = entry;
        return node;
    }

    private void freeNode(final int node) {
        nodeEntry[node] = null;
        nodeNext[node] = freeNodes;
        freeNodes = node;
        queuedNodes--;
    }

    private static long pack(final int head, final int tail) {
        return ((long) head << 32) | (tail & 0xffffffffL);
    }

    private static int head(final long bucket) {
        return (int) (bucket >>> 32);
    }

    private static int tail(final long bucket) {
        return (int) bucket;
    }
}
