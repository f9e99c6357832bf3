package io.streamgrid.client.impl.publish;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.core.Offloadable;
import com.hazelcast.map.EntryProcessor;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.DataSerializable;

import java.io.IOException;
import java.io.Serializable;
import java.util.Map;

/**
 * A batch of one publisher's events, run on the member that owns the publisher's ledger entry —
 * off the partition thread ({@link Offloadable}: the log may block), the entry locked meanwhile so
 * the publisher's batches run one at a time. An empty batch opens the publisher (and, when asked
 * and the log is Kafka, replies with the {@link KafkaRoute} the publisher then produces by itself). The backups get
 * the new ledger only ({@link SetLedger}), never the events again. The events travel as one UTF-8
 * array of JSON texts ({@link DataSerializable}: Java serialization of a string per event cost the
 * member's partition thread more than the client's whole batch, perf/NOTES.md).
 */
public final class PublishBatch implements EntryProcessor<String, PublisherLedger, PublishBatch.Reply>, Offloadable,
        HazelcastInstanceAware, DataSerializable {
    private String schema;
    private String publisherId;
    private long[] sequences;
    private byte[] events;
    private int[] ends;
    private boolean routeWanted;
    private transient HazelcastInstance member;
    private transient PublisherLedger written;

    /** For Hazelcast's deserialization only. */
    public PublishBatch() {
    }

    /**
     * @param events the events' JSON texts one after the other in UTF-8
     * @param ends   per event, the index in {@code events} just after it
     */
    public PublishBatch(final String schema, final String publisherId, final long[] sequences, final byte[] events, final int[] ends) {
        if (sequences.length != ends.length) {
            throw new IllegalArgumentException(sequences.length + " sequences for " + ends.length + " events");
        }
        this.schema = schema;
        this.publisherId = publisherId;
        this.sequences = sequences;
        this.events = events;
        this.ends = ends;
    }

    /** Opens publisher {@code publisherId}; the reply carries its Kafka route when {@code routeWanted} and the log is Kafka. */
    public static PublishBatch open(final String schema, final String publisherId, final boolean routeWanted) {
        final PublishBatch open = new PublishBatch(schema, publisherId, new long[0], new byte[0], new int[0]);
        open.routeWanted = routeWanted;
        return open;
    }

    @Override
    public void writeData(final ObjectDataOutput out) throws IOException {
        out.writeString(schema);
        out.writeString(publisherId);
        out.writeLongArray(sequences);
        out.writeByteArray(events);
        out.writeIntArray(ends);
        out.writeBoolean(routeWanted);
    }

    @Override
    public void readData(final ObjectDataInput in) throws IOException {
        schema = in.readString();
        publisherId = in.readString();
        sequences = in.readLongArray();
        events = in.readByteArray();
        ends = in.readIntArray();
        routeWanted = in.readBoolean();
    }

    /** The ledger entry's key of a publisher. */
    public static String key(final String schema, final String publisherId) {
        return schema + "/" + publisherId;
    }

    @Override
    public Reply process(final Map.Entry<String, PublisherLedger> entry) {
        final MemberPublishing publishing = MemberPublishing.of(member);
        final MemberPublishing.BatchResult result = publishing.publish(schema, publisherId, entry.getValue(), sequences, events, ends);
        written = result.ledger();
        entry.setValue(written);
        final KafkaRoute route = routeWanted ? publishing.kafkaRoute(schema, publisherId, written) : null;
        return new Reply(result.statuses(), result.reasons(), written.lastSequence(), route);
    }

    @Override
    public EntryProcessor<String, PublisherLedger, Reply> getBackupProcessor() {
        return written == null ? null : new SetLedger(written);
    }

    @Override
    public String getExecutorName() {
        return OFFLOADABLE_EXECUTOR;
    }

    @Override
    public void setHazelcastInstance(final HazelcastInstance hazelcastInstance) {
        this.member = hazelcastInstance;
    }

    /**
     * Per event its status ({@link MemberPublishing#APPENDED} ...) and reason; the highest sequence
     * now in the log; for an open that asked, the route to produce by, null when the log is not Kafka.
     */
    public record Reply(byte[] statuses, String[] reasons, long durableSequence, KafkaRoute route) implements Serializable {
    }

    /** On a backup: the ledger the primary wrote. */
    static final class SetLedger implements EntryProcessor<String, PublisherLedger, Reply>, Serializable {
        private static final long serialVersionUID = 1L;
        private final PublisherLedger ledger;

        SetLedger(final PublisherLedger ledger) {
            this.ledger = ledger;
        }

        @Override
        public Reply process(final Map.Entry<String, PublisherLedger> entry) {
            entry.setValue(ledger);
            return null;
        }
    }
}
