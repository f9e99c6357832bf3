package io.streamgrid.sink;

import com.hazelcast.core.HazelcastInstance;
import com.sun.management.HotSpotDiagnosticMXBean;

import java.lang.management.ManagementFactory;

/**
 * The size of the largest entry StreamGrid's processors put in a Jet snapshot: the sink's prepared
 * transactions and the jobs' window and keyed state (jet-jobs) are cut into entries of at most
 * {@link #maxBytes}. It lives in the sink's module because that is the lowest module whose
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
 * any size.
 *
 * <p>A member setting: the Hazelcast member property {@value #PROPERTY} (from the configuration's
 * {@code jobs.snapshot-entry-bytes}; 0 or absent: the size above), read by each processor when it
 * starts. Tests set it small so that their restores put states and transactions together from
 * many entries.
 */
public final class SnapshotEntries {
    /** The member property that sets the largest entry, in bytes; 0 or absent: {@link #defaultMaxBytes()}. */
    public static final String PROPERTY = "streamgrid.snapshot-entry-bytes";
    /** The smallest entry a member may be set to: a chunk still holds its headers. */
    public static final int MIN_BYTES = 64;
    /** The largest: half of what Cassandra takes in one request by default. */
    public static final int LIMIT_BYTES = 8 << 20;
    private static final int DEFAULT_BYTES = defaultBytes();
    private static final int MAX_G1_BYTES = 6 << 20;
    private static final int BYTES_OTHER_COLLECTORS = 1 << 20;

    private SnapshotEntries() {
    }

    /** Three quarters of this JVM's G1 heap region, at most 6 MiB; 1 MiB under other collectors. */
    public static int defaultMaxBytes() {
        return DEFAULT_BYTES;
    }

    /**
     * The largest snapshot entry on {@code member}, in bytes (an entry's value; its key is a few
     * bytes more): its {@value #PROPERTY} property, else {@link #defaultMaxBytes()}.
     *
     * @throws IllegalArgumentException when the property is not a whole number from {@value #MIN_BYTES}
     *                                  to {@value #LIMIT_BYTES} (or 0), naming it
     */
    public static int maxBytes(final HazelcastInstance member) {
        return parse(member.getConfig().getProperty(PROPERTY));
    }

    /** Whether a member or a sink may be set to {@code bytes}: 0 (the default), or {@value #MIN_BYTES} to {@value #LIMIT_BYTES}. */
    public static boolean allowed(final int bytes) {
        return bytes == 0 || bytes >= MIN_BYTES && bytes <= LIMIT_BYTES;
    }

    /** {@code value} as {@link #maxBytes(HazelcastInstance)} reads it; null or "0": the default. */
    public static int parse(final String value) {
        if (value == null || value.isBlank() || value.strip().equals("0")) {
            return DEFAULT_BYTES;
        }
        final int bytes;
        try {
            bytes = Integer.parseInt(value.strip());
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException(PROPERTY + " is '" + value + "': give a whole number of bytes, or 0 for the default", e);
        }
        if (!allowed(bytes)) {
            throw new IllegalArgumentException(PROPERTY + " is " + bytes + ": give " + MIN_BYTES + " to " + LIMIT_BYTES
                    + " bytes, or 0 for the default");
        }
        return bytes;
    }

    private static int defaultBytes() {
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
