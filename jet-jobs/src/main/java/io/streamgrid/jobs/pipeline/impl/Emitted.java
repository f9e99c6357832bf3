package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.schema.SchemaLayout;

/**
 * The sequence of an emitted event ({@link SchemaLayout#KIND_EMITTED}): the writer — the partition
 * of the job that emitted it — in the top 16 bits, that writer's count of emitted events (1, 2, ...)
 * in the low 48.
 */
final class Emitted {
    /** Writers from {@link io.streamgrid.jobs.schema.PublishedSequence#FIRST_SLOT} up are publishers. */
    static final int MAX_WRITERS = io.streamgrid.jobs.schema.PublishedSequence.FIRST_SLOT;
    static final long MAX_COUNT = (1L << 48) - 1;

    private Emitted() {
    }

    static long sequence(final int writer, final long count) {
        if (writer < 0 || writer >= MAX_WRITERS || count < 1 || count > MAX_COUNT) {
            throw new IllegalArgumentException("emitted event of writer " + writer + " with count " + count
                    + ": writers are 0.." + (MAX_WRITERS - 1) + ", counts 1.." + MAX_COUNT);
        }
        return (long) writer << 48 | count;
    }

    static int writer(final long sequence) {
        return (int) (sequence >>> 48);
    }

    static long count(final long sequence) {
        return sequence & MAX_COUNT;
    }
}
