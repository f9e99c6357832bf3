package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.schema.KeyPartitions;
import io.streamgrid.jobs.keyed.StateCodec;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A keyed partition's keys — each with its state and timers — found from a record's key bytes
 * without an object per lookup (long keys in an Agrona map, string keys by their UTF-8 bytes), and
 * their part of the partition's snapshot: key, state (through the job's codec) and timers.
 *
 * @param <S> the job's state
 */
final class KeyTable<S> {
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private final boolean stringKey;
    private final StateCodec<S> codec;
    private final Long2ObjectHashMap<KeyEntry<S>> longKeys = new Long2ObjectHashMap<>();
    private final Utf8KeyMap<S> stringKeys = new Utf8KeyMap<>();

    KeyTable(final boolean stringKey, final StateCodec<S> codec) {
        this.stringKey = stringKey;
        this.codec = codec;
    }

    boolean stringKeys() {
        return stringKey;
    }

    /**
     * The entry of the key at {@code at} in {@code buffer} (a long, or a length-prefixed UTF-8 string);
     * for a key the table does not hold, a new entry the table takes only if it keeps something
     * ({@link #settle}). Why: a function without state (a filter, a projection) met each event's key
     * as an entry put into the map and removed again at once — a fifth of NEXMark Q1's profile.
     */
    KeyEntry<S> entryAt(final DirectBuffer buffer, final int at) {
        if (!stringKey) {
            final long key = buffer.getLong(at, ORDER);
            final KeyEntry<S> entry = longKeys.get(key);
            return entry != null ? entry : new KeyEntry<>(key);
        }
        final int length = buffer.getShort(at, ORDER) & 0xffff;
        final long hash = KeyPartitions.stringKeyHash(buffer, at + 2, length);
        KeyEntry<S> entry = stringKeys.get(buffer, at + 2, length, hash);
        if (entry == null) {
            final byte[] bytes = new byte[length];
            buffer.getBytes(at + 2, bytes);
            entry = new KeyEntry<>(bytes, new String(bytes, StandardCharsets.UTF_8), hash);
        }
        return entry;
    }

    /** The key at {@code at} in {@code buffer} as text, for side outputs. */
    String textAt(final DirectBuffer buffer, final int at) {
        return stringKey ? buffer.getStringWithoutLengthUtf8(at + 2, buffer.getShort(at, ORDER) & 0xffff)
                : Long.toString(buffer.getLong(at, ORDER));
    }

    /** After a call that may have changed {@code entry}: the table drops it when it holds nothing (no state, no timer), and takes it when it does. */
    void settle(final KeyEntry<S> entry) {
        final boolean keeps = !entry.isEmpty();
        if (keeps == entry.inTable) {
            return;
        }
        if (keeps) {
            add(entry);
            return;
        }
        if (stringKey) {
            stringKeys.remove(entry);
        } else {
            longKeys.remove(entry.longKey);
        }
        entry.inTable = false;
    }

    private void add(final KeyEntry<S> entry) {
        if (stringKey) {
            stringKeys.add(entry);
        } else {
            longKeys.put(entry.longKey, entry);
        }
        entry.inTable = true;
    }

    /** Keys holding state or timers. */
    int size() {
        return stringKey ? stringKeys.size() : longKeys.size();
    }

    List<KeyEntry<S>> entries() {
        final List<KeyEntry<S>> entries = new ArrayList<>(size());
        if (stringKey) {
            stringKeys.forEach(entries::add);
        } else {
            longKeys.values().forEach(entries::add);
        }
        return entries;
    }

    /** Every key: count, then per key its bytes, its state (when it has one: the time it was written, then the state) and both timer lists. */
    void write(final DataOutput data) throws IOException {
        final List<KeyEntry<S>> entries = entries();
        data.writeInt(entries.size());
        for (final KeyEntry<S> entry : entries) {
            if (stringKey) {
                data.writeShort(entry.keyBytes.length);
                data.write(entry.keyBytes);
            } else {
                data.writeLong(entry.longKey);
            }
            data.writeBoolean(entry.state != null);
            if (entry.state != null) {
                data.writeLong(entry.stateWrittenAt);
                codec.write(entry.state, data);
            }
            writeTimers(data, entry.timers, entry.timerCount);
            writeTimers(data, entry.processingTimers, entry.processingTimerCount);
        }
    }

    /** Replaces every key by those {@link #write} wrote; the timer queues are rebuilt by the caller. */
    void read(final DataInput data) throws IOException {
        longKeys.clear();
        stringKeys.clear();
        final int count = data.readInt();
        for (int k = 0; k < count; k++) {
            final KeyEntry<S> entry;
            if (stringKey) {
                final byte[] bytes = new byte[data.readShort() & 0xffff];
                data.readFully(bytes);
                entry = new KeyEntry<>(bytes, new String(bytes, StandardCharsets.UTF_8),
                        KeyPartitions.stringKeyHash(new UnsafeBuffer(bytes), 0, bytes.length));
            } else {
                entry = new KeyEntry<>(data.readLong());
            }
            add(entry);
            if (data.readBoolean()) {
                entry.stateWrittenAt = data.readLong();
                entry.state = codec.read(data);
            }
            entry.timerCount = data.readInt();
            entry.timers = readTimers(data, entry.timerCount);
            entry.processingTimerCount = data.readInt();
            entry.processingTimers = readTimers(data, entry.processingTimerCount);
        }
    }

    /** Time and sequence of each timer; positions in the queue are rebuilt on restore. */
    private static void writeTimers(final DataOutput data, final long[] timers, final int count) throws IOException {
        data.writeInt(count);
        for (int slot = 0; slot < count; slot++) {
            data.writeLong(timers[KeyEntry.WIDTH * slot]);
            data.writeLong(timers[KeyEntry.WIDTH * slot + 1]);
        }
    }

    private static long[] readTimers(final DataInput data, final int count) throws IOException {
        final long[] timers = new long[KeyEntry.WIDTH * Math.max(2, count)];
        for (int slot = 0; slot < count; slot++) {
            timers[KeyEntry.WIDTH * slot] = data.readLong();
            timers[KeyEntry.WIDTH * slot + 1] = data.readLong();
        }
        return timers;
    }
}
