package io.streamgrid.sink;

import com.sun.management.HotSpotDiagnosticMXBean;

import java.lang.management.ManagementFactory;

/**
 * The size of the largest entry StreamGrid's processors put in a Jet snapshot: the sink's prepared
 * transactions and the jobs' window and keyed state (jet-jobs) are cut into entries of at most
 * {@link #MAX_BYTES}. It lives in the sink's module because that is the lowest module whose
 * processors write snapshots; jet-jobs depends on it.
 *
 * <p>Why a bound at all: with {@code persistence.jobs} every snapshot entry becomes one row written
 * to Cassandra in one request, and Cassandra refuses a request over 16 MiB ("CQL Message of size …
 * exceeds allowed maximum", {@code native_transport_max_message_size}; a mutation over half the
 * commit-log segment, 16 MiB too by default, would be refused as well): one larger entry failed
 * every snapshot of a durable job, for ever ({@code StatePersistenceTest}). Large entries also
 * grow Jet's snapshot writer buffer and are copied whole at every step.
 *
 * <p>Why this size: three quarters of a G1 heap region (at most 6 MiB), so that each entry's arrays
 * — the processor's, Jet's serialised copy and the copy Jet keeps in its snapshot map until the
 * snapshot after next — are humongous objects: G1 allocates them outside the young generation and
 * frees them when dead, and no young collection copies them (with 64 KiB entries the snapshot
 * taken each second was most of what the exactly-once benchmark's young collections copied). 1 MiB
 * under other collectors. The size is no part of any snapshot format: a restore takes entries of
 * any size. The system property {@code streamgrid.snapshot.chunk-bytes} overrides it, read once
 * when this class loads (tests set it small so that their restores put states and transactions
 * together from many entries).
 */
public final class SnapshotEntries {
    /** The largest snapshot entry, in bytes (an entry's value; its key is a few bytes more). */
    public static final int MAX_BYTES = maxBytes();
    private static final int MAX_G1_BYTES = 6 << 20;
    private static final int BYTES_OTHER_COLLECTORS = 1 << 20;

    private SnapshotEntries() {
    }

    private static int maxBytes() {
        final Integer forced = Integer.getInteger("streamgrid.snapshot.chunk-bytes");
        if (forced != null) {
            return forced;
        }
        try {
            final HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            if (Boolean.parseBoolean(hotSpot.getVMOption("UseG1GC").getValue())) {
                final long region = Long.parseLong(hotSpot.getVMOption("G1HeapRegionSize").getValue());
                return (int) Math.min(MAX_G1_BYTES, region / 4 * 3);
            }
        } catch (final RuntimeException notHotSpot) {
            // no such options: the default below
        }
        return BYTES_OTHER_COLLECTORS;
    }
}
