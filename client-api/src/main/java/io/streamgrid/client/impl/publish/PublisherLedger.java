package io.streamgrid.client.impl.publish;

import java.io.Serializable;
import java.util.Arrays;

/**
 * What the members know of one publisher, the value of its entry in {@link MemberPublishing#LEDGERS}
 * (backed up like any map entry): its slot in the log, the highest sequence in the log, per log
 * partition an index every later record of the publisher exceeds, and which member wrote this
 * value — a member trusts a ledger without reading the log only if it wrote it itself.
 */
public final class PublisherLedger implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int slot;
    private final long lastSequence;
    private final long[] tails;
    private final String writer;

    public PublisherLedger(final int slot, final long lastSequence, final long[] tails, final String writer) {
        this.slot = slot;
        this.lastSequence = lastSequence;
        this.tails = tails.clone();
        this.writer = writer;
    }

    public int slot() {
        return slot;
    }

    public long lastSequence() {
        return lastSequence;
    }

    public long[] tails() {
        return tails.clone();
    }

    /** The UUID of the member that wrote this ledger. */
    public String writer() {
        return writer;
    }

    @Override
    public String toString() {
        return "PublisherLedger{slot=" + slot + ", lastSequence=" + lastSequence + ", tails=" + Arrays.toString(tails)
                + ", writer=" + writer + "}";
    }
}
