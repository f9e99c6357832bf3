package io.streamgrid.client.impl;

import io.streamgrid.client.Delta;
import io.streamgrid.cq.Where;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;

/**
 * What a subscription's listener has been told, per key, and the folding of changes into it: a
 * change becomes the delta to tell only when it changes what the listener knows (a replay of known
 * state is dropped, an UPDATE of an unknown key is an ENTER), and a journal change the mirror
 * already reflects — per partition, by sequence — is dropped. Catching up after a snapshot query
 * (at the start, and at every resync) turns the query's result and the journal changes around it
 * into the deltas that bring the listener to the map's state without telling anything twice.
 *
 * <p>Not thread-safe: the subscription's delivery thread owns it (the map it writes may be read by
 * other threads when it is a ConcurrentHashMap: a {@link MirrorView}).
 */
final class DeltaMirror {
    private static final Object ABSENT = new Object();

    private final Map<Object, Object> mirror;
    private final Where where;
    /** Per partition, the highest journal sequence the mirror reflects. */
    private final long[] appliedThrough;

    /** A change read from a partition's journal: the key's value before and after, at {@code sequence}. */
    record Change(Object key, Object oldValue, Object newValue, int partition, long sequence) {
    }

    /** @param mirror empty; where the result is kept */
    DeltaMirror(final Map<Object, Object> mirror, final Where where, final int partitions) {
        if (!mirror.isEmpty()) {
            throw new IllegalArgumentException("bug: a subscription starts with an empty mirror");
        }
        this.mirror = mirror;
        this.where = where;
        this.appliedThrough = new long[partitions];
    }

    /**
     * Folds {@code delta} into the mirror; returns the delta to tell the listener (its kind as the
     * listener sees it), or null when it changes nothing the listener knows or the mirror already
     * reflects its sequence.
     */
    Delta apply(final Delta delta) {
        if (delta.sequence() >= 0) {
            if (delta.sequence() <= appliedThrough[delta.partition()]) {
                return null;
            }
            appliedThrough[delta.partition()] = delta.sequence();
        }
        final Object previous = mirror.get(delta.key());
        if (delta.kind() == Delta.Kind.LEAVE) {
            if (previous == null) {
                return null;
            }
            mirror.remove(delta.key());
            return new Delta(Delta.Kind.LEAVE, delta.key(), previous, delta.partition(), delta.sequence());
        }
        if (Objects.equals(previous, delta.value())) {
            return null;
        }
        mirror.put(delta.key(), delta.value());
        final Delta.Kind kind = previous == null ? Delta.Kind.ENTER : Delta.Kind.UPDATE;
        return kind == delta.kind() ? delta : new Delta(kind, delta.key(), delta.value(), delta.partition(), delta.sequence());
    }

    /** The delta a journal change makes for this subscription's predicate; null when the key was and is outside it. */
    Delta toDelta(final Change change) {
        final boolean wasIn = where.test(change.oldValue());
        final boolean isIn = where.test(change.newValue());
        if (isIn) {
            return new Delta(wasIn ? Delta.Kind.UPDATE : Delta.Kind.ENTER, change.key(), change.newValue(), change.partition(),
                    change.sequence());
        }
        return wasIn ? new Delta(Delta.Kind.LEAVE, change.key(), change.oldValue(), change.partition(), change.sequence()) : null;
    }

    /**
     * Catches {@code parts} up with the map: {@code current} is what a query of them returned (keys
     * and values inside the predicate), taken between the journal tails {@code before} and
     * {@code after} (per partition), and {@code window} the journal's changes between those tails, in
     * order per partition. The first time ({@code initial}) the mirror becomes {@code current} and is
     * told as the snapshot by the caller; afterwards the keys the mirror knows but the query did not
     * return leave, and the query's keys enter or update. Then the window's changes that follow the
     * query's state, per key, are folded in (a key's changes up to the last one equal to its queried
     * state are already in it). The mirror then reflects every
     * partition of {@code parts} through its {@code after} tail. Each delta goes to {@code tell} as
     * soon as the mirror holds it; the first time, {@code snapshotTaken} runs once the mirror is
     * {@code current} and before any window delta is told.
     */
    void catchUp(final Set<Integer> parts, final Map<Object, Object> current, final List<Change> window, final long[] before,
                 final long[] after, final ToIntFunction<Object> partitionOf, final boolean initial, final Runnable snapshotTaken,
                 final Consumer<Delta> tell) {
        final Map<Object, Integer> cut = new HashMap<>();
        for (int i = 0; i < window.size(); i++) {
            final Change change = window.get(i);
            final Object state = where.test(change.newValue()) ? change.newValue() : ABSENT;
            if (Objects.equals(state, current.getOrDefault(change.key(), ABSENT))) {
                cut.put(change.key(), i);
            }
        }
        if (initial) {
            mirror.putAll(current);
            snapshotTaken.run();
        } else {
            final List<Object> gone = new ArrayList<>();
            for (final Object key : mirror.keySet()) {
                if (parts.contains(partitionOf.applyAsInt(key)) && !current.containsKey(key)) {
                    gone.add(key);
                }
            }
            for (final Object key : gone) {
                fold(tell, new Delta(Delta.Kind.LEAVE, key, mirror.get(key), partitionOf.applyAsInt(key), -1));
            }
            for (final Map.Entry<Object, Object> entry : current.entrySet()) {
                final boolean known = mirror.containsKey(entry.getKey());
                fold(tell, new Delta(known ? Delta.Kind.UPDATE : Delta.Kind.ENTER, entry.getKey(), entry.getValue(),
                        partitionOf.applyAsInt(entry.getKey()), -1));
            }
        }
        for (final int p : parts) {
            // The window's changes follow the query's tail, whatever was applied before: a journal
            // that began again (a new cluster) numbers them below the old position.
            appliedThrough[p] = before[p];
        }
        for (int i = 0; i < window.size(); i++) {
            final Change change = window.get(i);
            if (i > cut.getOrDefault(change.key(), -1)) {
                final Delta delta = toDelta(change);
                if (delta != null) {
                    fold(tell, delta);
                }
            }
        }
        for (final int p : parts) {
            appliedThrough[p] = after[p];
        }
    }

    private void fold(final Consumer<Delta> tell, final Delta delta) {
        final Delta applied = apply(delta);
        if (applied != null) {
            tell.accept(applied);
        }
    }
}
