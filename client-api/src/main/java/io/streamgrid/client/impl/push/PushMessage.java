package io.streamgrid.client.impl.push;

import com.hazelcast.internal.nio.DataReader;
import com.hazelcast.internal.nio.DataWriter;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.DataSerializable;

import java.io.IOException;

/**
 * What a member pushes to a client's feed of one map ({@link MemberPush}), on the client's own
 * topic. Three kinds:
 * <ul>
 *   <li>{@link #CHANGES}: the journal changes of one partition from sequence {@code from} (where the
 *       previous message of this attachment ended) to {@code next}, those the feed's predicates pass
 *       — possibly none, when only the position moved;</li>
 *   <li>{@link #LOST}: the partition's changes from {@code from} on cannot be pushed (the journal
 *       overwrote them, or went back): the feed's subscriptions resynchronise it. The member has
 *       detached the partition;</li>
 *   <li>{@link #POSITIONS}: every partition this feed is attached to on the member, with its
 *       attachment and pushed position — sent every sweep, so a client that missed a message (a
 *       dropped event) sees the gap without waiting for the partition's next change.</li>
 * </ul>
 * A member sends the messages for one feed that are ready at once as one {@link #BUNDLE}, in order
 * (under load, fewer and larger messages: fewer wake-ups of the threads on both sides).
 * Each attachment of a partition carries the {@code generation} the client gave it: a message of
 * an older attachment is dropped by the client.
 */
public final class PushMessage implements DataSerializable {
    public static final byte CHANGES = 0;
    public static final byte LOST = 1;
    public static final byte POSITIONS = 2;
    public static final byte BUNDLE = 3;

    private byte kind;
    private String map;
    private int partition;
    private int generation;
    private long from;
    private long next;
    private String reason;
    /** CHANGES, on the member: the journal's serialized keys and values, written as they are. */
    private Data[] keyData;
    private Data[] oldData;
    private Data[] newData;
    /** CHANGES, on the client: the keys and values read back. */
    private Object[] keys;
    private Object[] oldValues;
    private Object[] newValues;
    private long[] sequences;
    private int[] partitions;
    private int[] generations;
    private long[] positions;
    private PushMessage[] bundled;

    /** For Hazelcast's deserialization only. */
    public PushMessage() {
    }

    static PushMessage changes(final String map, final int partition, final int generation, final long from, final long next,
                               final Data[] keys, final Data[] oldValues, final Data[] newValues, final long[] sequences) {
        final PushMessage m = new PushMessage();
        m.kind = CHANGES;
        m.map = map;
        m.partition = partition;
        m.generation = generation;
        m.from = from;
        m.next = next;
        m.keyData = keys;
        m.oldData = oldValues;
        m.newData = newValues;
        m.sequences = sequences;
        return m;
    }

    static PushMessage lost(final String map, final int partition, final int generation, final long from, final String reason) {
        final PushMessage m = new PushMessage();
        m.kind = LOST;
        m.map = map;
        m.partition = partition;
        m.generation = generation;
        m.from = from;
        m.reason = reason;
        return m;
    }

    static PushMessage positions(final String map, final int[] partitions, final int[] generations, final long[] positions) {
        final PushMessage m = new PushMessage();
        m.kind = POSITIONS;
        m.map = map;
        m.partitions = partitions;
        m.generations = generations;
        m.positions = positions;
        return m;
    }

    static PushMessage bundle(final PushMessage[] messages) {
        final PushMessage m = new PushMessage();
        m.kind = BUNDLE;
        m.map = messages[0].map;
        m.bundled = messages;
        return m;
    }

    /** BUNDLE: the messages it carries, in the order they were sent. */
    public PushMessage[] bundled() {
        return bundled;
    }

    public byte kind() {
        return kind;
    }

    public String map() {
        return map;
    }

    public int partition() {
        return partition;
    }

    public int generation() {
        return generation;
    }

    /** CHANGES and LOST: the sequence this message continues from. */
    public long from() {
        return from;
    }

    /** CHANGES: the sequence the next message of this attachment continues from. */
    public long next() {
        return next;
    }

    /** LOST: why. */
    public String reason() {
        return reason;
    }

    /** CHANGES: how many changes it carries. */
    public int size() {
        return keys == null ? 0 : keys.length;
    }

    public Object key(final int i) {
        return keys[i];
    }

    public Object oldValue(final int i) {
        return oldValues[i];
    }

    public Object newValue(final int i) {
        return newValues[i];
    }

    public long sequence(final int i) {
        return sequences[i];
    }

    /** POSITIONS: the partitions attached. */
    public int[] partitions() {
        return partitions;
    }

    public int[] generations() {
        return generations;
    }

    /** POSITIONS: per partition, the sequence its next CHANGES message continues from. */
    public long[] positions() {
        return positions;
    }

    @Override
    public void writeData(final ObjectDataOutput out) throws IOException {
        out.writeByte(kind);
        out.writeString(map);
        switch (kind) {
            case CHANGES -> {
                writeHead(out);
                out.writeLong(next);
                final DataWriter data = (DataWriter) out;
                out.writeInt(keyData.length);
                for (int i = 0; i < keyData.length; i++) {
                    data.writeData(keyData[i]);
                    data.writeData(oldData[i]);
                    data.writeData(newData[i]);
                    out.writeLong(sequences[i]);
                }
            }
            case LOST -> {
                writeHead(out);
                out.writeString(reason);
            }
            case BUNDLE -> {
                out.writeInt(bundled.length);
                for (final PushMessage message : bundled) {
                    message.writeData(out);
                }
            }
            default -> {
                out.writeIntArray(partitions);
                out.writeIntArray(generations);
                out.writeLongArray(positions);
            }
        }
    }

    private void writeHead(final ObjectDataOutput out) throws IOException {
        out.writeInt(partition);
        out.writeInt(generation);
        out.writeLong(from);
    }

    @Override
    public void readData(final ObjectDataInput in) throws IOException {
        kind = in.readByte();
        map = in.readString();
        if (kind == BUNDLE) {
            bundled = new PushMessage[in.readInt()];
            for (int i = 0; i < bundled.length; i++) {
                bundled[i] = new PushMessage();
                bundled[i].readData(in);
            }
            return;
        }
        if (kind == POSITIONS) {
            partitions = in.readIntArray();
            generations = in.readIntArray();
            positions = in.readLongArray();
            return;
        }
        partition = in.readInt();
        generation = in.readInt();
        from = in.readLong();
        if (kind == LOST) {
            reason = in.readString();
            return;
        }
        next = in.readLong();
        final int n = in.readInt();
        keys = new Object[n];
        oldValues = new Object[n];
        newValues = new Object[n];
        sequences = new long[n];
        final DataReader data = (DataReader) in;
        for (int i = 0; i < n; i++) {
            keys[i] = data.readDataAsObject();
            oldValues[i] = data.readDataAsObject();
            newValues[i] = data.readDataAsObject();
            sequences[i] = in.readLong();
        }
    }
}
