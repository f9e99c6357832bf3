package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.schema.KeyPartitions;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A number for each string key a window engine holds state for — the engines key everything by
 * long — and the key back from its number for results and side outputs. A key seen again is found
 * by its UTF-8 bytes where they lie in the record (no String per event); its number is freed when
 * the engine drops the key, so the table holds what the engine holds. Numbers are never reused (a
 * counter), so a result can never be told under another key's name. In the job's snapshots.
 * Single-threaded, like the engine.
 */
final class StringKeyIds {
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private final Utf8KeyMap<Long> byBytes = new Utf8KeyMap<>();
    private final Long2ObjectHashMap<KeyEntry<Long>> byId = new Long2ObjectHashMap<>();
    private long nextId;

    /** The number of the length-prefixed UTF-8 key at {@code at} in {@code buffer}, given when new. */
    long idAt(final DirectBuffer buffer, final int at) {
        final int length = buffer.getShort(at, ORDER) & 0xffff;
        final long hash = KeyPartitions.stringKeyHash(buffer, at + 2, length);
        final KeyEntry<Long> entry = byBytes.get(buffer, at + 2, length, hash);
        if (entry != null) {
            return entry.state;
        }
        final byte[] bytes = new byte[length];
        buffer.getBytes(at + 2, bytes);
        return add(bytes, hash, nextId++);
    }

    private long add(final byte[] bytes, final long hash, final long id) {
        final KeyEntry<Long> entry = new KeyEntry<>(bytes, new String(bytes, StandardCharsets.UTF_8), hash);
        entry.state = id;
        byBytes.add(entry);
        byId.put(id, entry);
        return id;
    }

    /** The key numbered {@code id}. @throws IllegalStateException for a number no key holds: a bug */
    String keyOf(final long id) {
        final KeyEntry<Long> entry = byId.get(id);
        if (entry == null) {
            throw new IllegalStateException("bug: window key number " + id + " belongs to no key");
        }
        return entry.stringKey;
    }

    /** The engine holds nothing more of key {@code id}. */
    void drop(final long id) {
        final KeyEntry<Long> entry = byId.remove(id);
        if (entry != null) {
            byBytes.remove(entry);
        }
    }

    int size() {
        return byId.size();
    }

    void write(final DataOutput out) throws IOException {
        out.writeLong(nextId);
        out.writeInt(byId.size());
        for (final KeyEntry<Long> entry : byId.values()) {
            out.writeLong(entry.state);
            out.writeShort(entry.keyBytes.length);
            out.write(entry.keyBytes);
        }
    }

    /** Replaces every key with what {@link #write} wrote. */
    void read(final DataInput in) throws IOException {
        byId.values().forEach(byBytes::remove);
        byId.clear();
        nextId = in.readLong();
        final int count = in.readInt();
        for (int i = 0; i < count; i++) {
            final long id = in.readLong();
            final byte[] bytes = new byte[in.readUnsignedShort()];
            in.readFully(bytes);
            add(bytes, KeyPartitions.stringKeyHash(new UnsafeBuffer(bytes), 0, bytes.length), id);
        }
    }
}
