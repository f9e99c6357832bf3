package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.SchemaLayout;

/**
 * The sequence of a published event ({@link SchemaLayout#KIND_PUBLISHED}): the publisher's slot in
 * the log in the top 16 bits — {@value #FIRST_SLOT} and up, so never the partition of a job that
 * emits into the same log — and the publisher's own sequence number (1, 2, ...) in the low 48.
 */
public final class PublishedSequence {
    /** Slots below are emitting jobs' partitions (see {@link SchemaLayout#KIND_EMITTED}). */
    public static final int FIRST_SLOT = 1 << 15;
    public static final int SLOTS = (1 << 16) - FIRST_SLOT;
    public static final long MAX_SEQUENCE = (1L << 48) - 1;

    private PublishedSequence() {
    }

    public static long of(final int slot, final long sequence) {
        if (slot < FIRST_SLOT || slot >= FIRST_SLOT + SLOTS || sequence < 1 || sequence > MAX_SEQUENCE) {
            throw new IllegalArgumentException("published event of slot " + slot + " with sequence " + sequence + ": slots are "
                    + FIRST_SLOT + ".." + (FIRST_SLOT + SLOTS - 1) + ", sequences 1.." + MAX_SEQUENCE);
        }
        return (long) slot << 48 | sequence;
    }

    public static int slot(final long recordSequence) {
        return (int) (recordSequence >>> 48);
    }

    public static long sequence(final long recordSequence) {
        return recordSequence & MAX_SEQUENCE;
    }
}
