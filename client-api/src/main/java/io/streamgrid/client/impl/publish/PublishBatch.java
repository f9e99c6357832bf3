package io.streamgrid.client.impl.publish;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.core.Offloadable;
import com.hazelcast.map.EntryProcessor;

import java.io.Serializable;
import java.util.Map;

/**
 * A batch of one publisher's events, run on the member that owns the publisher's ledger entry —
 * off the partition thread ({@link Offloadable}: the log may block), the entry locked meanwhile so
 * the publisher's batches run one at a time. An empty batch opens the publisher. The backups get
 * the new ledger only ({@link SetLedger}), never the events again.
 */
public final class PublishBatch implements EntryProcessor<String, PublisherLedger, PublishBatch.Reply>, Offloadable,
        HazelcastInstanceAware, Serializable {
    private static final long serialVersionUID = 1L;

    private final String schema;
    private final String publisherId;
    private final long[] sequences;
    private final String[] events;
    private transient HazelcastInstance member;
    private transient PublisherLedger written;

    public PublishBatch(final String schema, final String publisherId, final long[] sequences, final String[] events) {
        this.schema = schema;
        this.publisherId = publisherId;
        this.sequences = sequences;
        this.events = events;
    }

    /** The ledger entry's key of a publisher. */
    public static String key(final String schema, final String publisherId) {
        return schema + "/" + publisherId;
    }

    @Override
    public Reply process(final Map.Entry<String, PublisherLedger> entry) {
        final MemberPublishing.BatchResult result = MemberPublishing.of(member)
                .publish(schema, publisherId, entry.getValue(), sequences, events);
        written = result.ledger();
        entry.setValue(written);
        return new Reply(result.statuses(), result.reasons(), written.lastSequence());
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

    /** Per event its status ({@link MemberPublishing#APPENDED} ...) and reason; the highest sequence now in the log. */
    public record Reply(byte[] statuses, String[] reasons, long durableSequence) implements Serializable {
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
