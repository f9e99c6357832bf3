package io.streamgrid.jobs.pipeline.impl;

import org.agrona.DirectBuffer;

import java.util.function.Consumer;

/**
 * String keys to their entries, looked up by the key's UTF-8 bytes where they lie in a record: a
 * hit allocates nothing (no String is built per event). Open addressing with linear probing;
 * removal shifts the following run back, so no tombstones accumulate.
 */
final class Utf8KeyMap<S> {
    private KeyEntry<S>[] slots = newSlots(64);
    private int size;

    int size() {
        return size;
    }

    /** The entry whose key is the {@code length} bytes at {@code offset}, or null. */
    KeyEntry<S> get(final DirectBuffer buffer, final int offset, final int length, final long hash) {
        final int mask = slots.length - 1;
        for (int i = home(hash, mask); ; i = (i + 1) & mask) {
            final KeyEntry<S> entry = slots[i];
            if (entry == null) {
                return null;
            }
            if (entry.hash == hash && sameBytes(entry.keyBytes, buffer, offset, length)) {
                return entry;
            }
        }
    }

    /** Adds an entry whose key is not in the map yet. */
    void add(final KeyEntry<S> entry) {
        if (2 * (size + 1) > slots.length) {
            resize();
        }
        insert(slots, entry);
        size++;
    }

    void remove(final KeyEntry<S> entry) {
        final int mask = slots.length - 1;
        int i = home(entry.hash, mask);
        while (slots[i] != entry) {
            if (slots[i] == null) {
                return;
            }
            i = (i + 1) & mask;
        }
        slots[i] = null;
        size--;
        // Shift back any later entry of the run whose home slot is at or before the hole.
        for (int j = (i + 1) & mask; slots[j] != null; j = (j + 1) & mask) {
            final int home = home(slots[j].hash, mask);
            final boolean movable = i <= j ? home <= i || home > j : home <= i && home > j;
            if (movable) {
                slots[i] = slots[j];
                slots[j] = null;
                i = j;
            }
        }
    }

    /** Sum over the keys of the slots between each key's home slot and its slot (tests check the hashing). */
    long totalDisplacement() {
        final int mask = slots.length - 1;
        long total = 0;
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] != null) {
                total += (i - home(slots[i].hash, mask)) & mask;
            }
        }
        return total;
    }

    void forEach(final Consumer<KeyEntry<S>> action) {
        for (final KeyEntry<S> entry : slots) {
            if (entry != null) {
                action.accept(entry);
            }
        }
    }

    void clear() {
        slots = newSlots(64);
        size = 0;
    }

    private void resize() {
        final KeyEntry<S>[] bigger = newSlots(slots.length * 2);
        for (final KeyEntry<S> entry : slots) {
            if (entry != null) {
                insert(bigger, entry);
            }
        }
        slots = bigger;
    }

    private static <S> void insert(final KeyEntry<S>[] target, final KeyEntry<S> entry) {
        final int mask = target.length - 1;
        int i = home(entry.hash, mask);
        while (target[i] != null) {
            i = (i + 1) & mask;
        }
        target[i] = entry;
    }

    /**
     * A key's home slot, from the high half of its hash: the log chose the key's partition from the
     * low bits (hash mod partitions), so within one partition they are alike.
     */
    private static int home(final long hash, final int mask) {
        return (int) (hash >>> 32) & mask;
    }

    private static boolean sameBytes(final byte[] key, final DirectBuffer buffer, final int offset, final int length) {
        if (key.length != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (key[i] != buffer.getByte(offset + i)) {
                return false;
            }
        }
        return true;
    }

    @SuppressWarnings("unchecked")
    private static <S> KeyEntry<S>[] newSlots(final int capacity) {
        return (KeyEntry<S>[]) new KeyEntry<?>[capacity];
    }
}
