package io.streamgrid.jobs.pipeline.impl;

import org.agrona.collections.Long2LongHashMap;

import java.util.Arrays;

/**
 * The timers of a partition's keys in firing order: earliest time first, and among timers of one
 * time in registration order (the sequence, kept in snapshots, so every replay fires them in the
 * same order).
 *
 * <p>Timers are grouped by time: one bucket per distinct time, a doubly linked list of timer nodes
 * in registration order, and a small binary heap of the distinct times. Registering and deleting a
 * timer are O(1) — a hash lookup of its time's bucket and a link or unlink — and only a new
 * distinct time touches the heap. Why not one heap of all timers: keys that re-arm their timer on
 * every event (an inactivity timeout) paid a delete and an insert in a heap of every key's timer,
 * O(log n) cache misses each; the distinct times in flight are few (one per millisecond of the
 * timeout), so their heap stays in cache. Nodes live in parallel arrays (no object per timer);
 * each timer in its key's entry knows its node, and each node its entry and slot.
 *
 * <p>One queue for event-time timers and one for processing-time timers; {@code processing} says
 * which of the entry's arrays this one indexes.
 */
final class TimerQueue {
    private static final int NONE = -1;
    private static final long NO_BUCKET = -1;

    private final boolean processing;
    private KeyEntry<?>[] nodeEntry = new KeyEntry<?>[64];
    private int[] nodeSlot = new int[64];
    private int[] nodeNext = new int[64];
    private int[] nodePrev = new int[64];
    private int freeNodes = NONE;
    private int usedNodes;
    /** Time to its bucket: head node in the high 32 bits, tail node in the low 32. */
    private final Long2LongHashMap buckets = new Long2LongHashMap(NO_BUCKET);
    /** Distinct times with a bucket; may also hold times whose bucket emptied (skipped when they come up). */
    private long[] times = new long[64];
    private int timeCount;
    private int size;

    TimerQueue(final boolean processing) {
        this.processing = processing;
    }

    int size() {
        return size;
    }

    void clear() {
        Arrays.fill(nodeEntry, null);
        freeNodes = NONE;
        usedNodes = 0;
        buckets.clear();
        timeCount = 0;
        size = 0;
    }

    private long[] timersOf(final KeyEntry<?> entry) {
        return processing ? entry.processingTimers : entry.timers;
    }

    /** The slot of {@code entry}'s timer at {@code time} in this queue's timers, or -1. */
    int slotOf(final KeyEntry<?> entry, final long time) {
        return KeyEntry.find(timersOf(entry), processing ? entry.processingTimerCount : entry.timerCount, time);
    }

    /** Adds a timer at {@code time} to {@code entry} (the caller checked it has none at that time) and to the queue. */
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
        enqueue(entry, slot);
    }

    /**
     * Queues the timer already in {@code slot} of {@code entry}, after those queued before it at
     * the same time. After a restore, call it in (time, sequence) order.
     */
    void enqueue(final KeyEntry<?> entry, final int slot) {
        final long[] timers = timersOf(entry);
        final long time = timers[KeyEntry.WIDTH * slot];
        final int node = newNode(entry, slot);
        timers[KeyEntry.WIDTH * slot + 2] = node;
        final long bucket = buckets.get(time);
        if (bucket == NO_BUCKET) {
            buckets.put(time, pack(node, node));
            pushTime(time);
        } else {
            final int tail = tail(bucket);
            nodeNext[tail] = node;
            nodePrev[node] = tail;
            buckets.put(time, pack(head(bucket), node));
        }
        size++;
    }

    /** Removes the entry's timer in {@code slot} from the queue and from the entry. */
    void remove(final KeyEntry<?> entry, final int slot) {
        final long[] timers = timersOf(entry);
        final long time = timers[KeyEntry.WIDTH * slot];
        final int node = (int) timers[KeyEntry.WIDTH * slot + 2];
        final long bucket = buckets.get(time);
        final int prev = nodePrev[node];
        final int next = nodeNext[node];
        if (prev == NONE && next == NONE) {
            buckets.remove(time); // its time stays in the heap until it comes up
        } else {
            if (prev != NONE) {
                nodeNext[prev] = next;
            }
            if (next != NONE) {
                nodePrev[next] = prev;
            }
            buckets.put(time, pack(prev == NONE ? next : head(bucket), next == NONE ? prev : tail(bucket)));
        }
        freeNode(node);
        size--;
        final int last = processing ? --entry.processingTimerCount : --entry.timerCount;
        if (slot != last) {
            System.arraycopy(timers, KeyEntry.WIDTH * last, timers, KeyEntry.WIDTH * slot, KeyEntry.WIDTH);
            nodeSlot[(int) timers[KeyEntry.WIDTH * slot + 2]] = slot; // its node follows it
        }
    }

    /** Time of the earliest timer; only when {@link #size()} is positive. */
    long peekTime() {
        while (!buckets.containsKey(times[0])) {
            popTime(); // a time whose timers were all deleted
        }
        return times[0];
    }

    /** Entry of the earliest timer (call {@link #peekTime()} first). */
    KeyEntry<?> peekEntry() {
        return nodeEntry[head(buckets.get(peekTime()))];
    }

    int peekSlot() {
        return nodeSlot[head(buckets.get(peekTime()))];
    }

    private int newNode(final KeyEntry<?> entry, final int slot) {
        int node = freeNodes;
        if (node != NONE) {
            freeNodes = nodeNext[node];
        } else {
            if (usedNodes == nodeEntry.length) {
                final int capacity = usedNodes * 2;
                nodeEntry = Arrays.copyOf(nodeEntry, capacity);
                nodeSlot = Arrays.copyOf(nodeSlot, capacity);
                nodeNext = Arrays.copyOf(nodeNext, capacity);
                nodePrev = Arrays.copyOf(nodePrev, capacity);
            }
            node = usedNodes++;
        }
        nodeEntry[node] = entry;
        nodeSlot[node] = slot;
        nodeNext[node] = NONE;
        nodePrev[node] = NONE;
        return node;
    }

    private void freeNode(final int node) {
        nodeEntry[node] = null;
        nodeNext[node] = freeNodes;
        freeNodes = node;
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

    private void pushTime(final long time) {
        if (timeCount == times.length) {
            times = Arrays.copyOf(times, timeCount * 2);
        }
        int i = timeCount++;
        while (i > 0) {
            final int parent = (i - 1) >>> 1;
            if (times[parent] <= time) {
                break;
            }
            times[i] = times[parent];
            i = parent;
        }
        times[i] = time;
    }

    private void popTime() {
        final long last = times[--timeCount];
        int i = 0;
        while (true) {
            final int left = 2 * i + 1;
            if (left >= timeCount) {
                break;
            }
            final int child = left + 1 < timeCount && times[left + 1] < times[left] ? left + 1 : left;
            if (times[child] >= last) {
                break;
            }
            times[i] = times[child];
            i = child;
        }
        times[i] = last;
    }
}
