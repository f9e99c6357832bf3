package io.streamgrid.client.impl.publish;

import com.hazelcast.map.EntryProcessor;

import java.io.Serializable;
import java.util.Map;

/**
 * A {@link KafkaPublisher}'s report of how far its acknowledged events reached: sets the publisher's
 * ledger unless the entry already holds a higher sequence (a late report of an instance that has
 * since been replaced). Its writer is the publisher, never a member, so the next open reads the log
 * after the reported offsets rather than trusting it: the ledger only shortens that read.
 */
final class AdvanceLedger implements EntryProcessor<String, PublisherLedger, Void>, Serializable {
    private static final long serialVersionUID = 1L;
    private final PublisherLedger ledger;
    private transient boolean applied;

    AdvanceLedger(final PublisherLedger ledger) {
        this.ledger = ledger;
    }

    @Override
    public Void process(final Map.Entry<String, PublisherLedger> entry) {
        final PublisherLedger current = entry.getValue();
        if (current == null || current.slot() == ledger.slot() && current.lastSequence() < ledger.lastSequence()) {
            entry.setValue(ledger);
            applied = true;
        }
        return null;
    }

    @Override
    public EntryProcessor<String, PublisherLedger, Void> getBackupProcessor() {
        return applied ? new SetBackup(ledger) : null;
    }

    /** On a backup: the ledger the primary set. */
    private record SetBackup(PublisherLedger ledger) implements EntryProcessor<String, PublisherLedger, Void>, Serializable {
        @Override
        public Void process(final Map.Entry<String, PublisherLedger> entry) {
            entry.setValue(ledger);
            return null;
        }
    }
}
