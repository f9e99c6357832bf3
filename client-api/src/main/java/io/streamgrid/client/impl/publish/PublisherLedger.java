package io.streamgrid.client.impl.publish;

import java.io.Serializable;
import java.util.Arrays;

/**
 * What the members know of one publisher, the value of its entry in {@link MemberPublishing#LEDGERS}
 * (backed up like any map entry): its slot in the log; its settled sequence (every one at or below
 * it is in the log, or was refused); per log partition an index every later record of the
 * publisher exceeds; per partition the highest sequence the last read of the log found there (a
 * sequence at or below it in its partition is in the log too: {@code PublishedSequence.inLog}); and
 * who wrote this value — a member trusts a ledger without reading the log only if it wrote it itself.
 */
public final class PublisherLedger implements Serializable {
    private static final long serialVersionUID = 1L;

    private final int slot;
    private final long lastSequence;
    private final long[] tails;
    private final String writer;
    private final long[] highs;

    public PublisherLedger(final int slot, final long lastSequence, final long[] tails, final String writer, final long[] highs) {
        if (highs.length != tails.length) {
            throw new IllegalArgumentException(tails.length + " tails, " + highs.length + " highest sequences");
        }
        this.slot = slot;
        this.lastSequence = lastSequence;
        this.tails = tails.clone();
        this.writer = writer;
        this.highs = highs.clone();
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

    /** Per partition, the highest sequence of the publisher the last read of the log found there (0 when none). */
    public long[] highs() {
        return highs.clone();
    }

    /** The UUID of the member that wrote this ledger, or the name of a publisher that reported it. */
    public String writer() {
        return writer;
    }

    @Override
    public String toString() {
        return "PublisherLedger{slot=" + slot + ", lastSequence=" + lastSequence + ", tails=" + Arrays.toString(tails)
                + ", highs=" + Arrays.toString(highs) + ", writer=" + writer + "}";
    }
}
