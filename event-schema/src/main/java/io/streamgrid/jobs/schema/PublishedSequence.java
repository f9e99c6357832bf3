package io.streamgrid.jobs.schema;

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

    /**
     * Whether a publisher's event numbered {@code sequence} is in the log already, given the
     * publisher's {@code settled} sequence (every one at or below it is in the log or was refused)
     * and its highest sequence in the event's own partition: a publisher's records in one partition
     * are in sequence order and what reached the partition of them is a prefix (one ordered writer
     * at a time), while across partitions a writer that died may have left gaps.
     */
    public static boolean inLog(final long sequence, final long settled, final long highestInPartition) {
        return sequence <= settled || sequence <= highestInPartition;
    }

    /**
     * The publisher's settled sequence after its records were read: the lowest over partitions of
     * its highest there (or of {@code settled}, when higher) — every sequence at or below it is in
     * the log, or was refused. The highest overall is not: a writer that died mid-batch may have
     * reached one partition and not another.
     *
     * @param settled            the settled sequence known before the read (0 when none)
     * @param highestInPartition per partition, the publisher's highest sequence found there (0 when none)
     */
    public static long settled(final long settled, final long[] highestInPartition) {
        long lowest = Long.MAX_VALUE;
        for (final long highest : highestInPartition) {
            lowest = Math.min(lowest, Math.max(settled, highest));
        }
        return highestInPartition.length == 0 ? settled : lowest;
    }

    public static int slot(final long recordSequence) {
        return (int) (recordSequence >>> 48);
    }

    public static long sequence(final long recordSequence) {
        return recordSequence & MAX_SEQUENCE;
    }
}
