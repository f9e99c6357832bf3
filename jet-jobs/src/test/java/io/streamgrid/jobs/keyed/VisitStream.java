package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.schema.KeyPartitions;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * A seeded stream of visits for keyed-job tests, and the brute-force oracle of {@link BucketCounts}
 * over it. Event time advances about 5 ms per event; most events are up to {@code disorder} behind,
 * {@code lateFraction} of them up to four times the lateness behind (some within it, some beyond).
 */
public final class VisitStream {
    /** One visit: its partition in a log of the given partition count, user, time, sequence. */
    public record Visit(int partition, String user, long time, long sequence) {
    }

    private final List<Visit> visits = new ArrayList<>();

    public VisitStream(final long seed, final int count, final int users, final int partitions, final long disorder,
                       final long lateness, final double lateFraction) {
        final SplittableRandom random = new SplittableRandom(seed);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final SchemaLayout layout = BucketCounts.VISIT.layout();
        final SchemaRecord record = new SchemaRecord(layout);
        final int user = layout.indexOf("user");
        for (int i = 0; i < count; i++) {
            // Skewed: a quarter of the visits go to a tenth of the users.
            final int id = random.nextInt(4) == 0 ? random.nextInt(Math.max(1, users / 10)) : random.nextInt(users);
            final String name = "user-" + id;
            long time = 1_700_000_000_000L + i * 5L;
            time -= random.nextDouble() < lateFraction ? random.nextLong(4 * lateness + 1) : random.nextLong(disorder + 1);
            record.wrapForWrite(buffer, 0).setString(user, name);
            visits.add(new Visit(KeyPartitions.partitionOf(record, partitions), name, time, i));
        }
    }

    public List<Visit> visits() {
        return visits;
    }

    /** Appends visits {@code from} (inclusive) to {@code to} (exclusive) to {@code log}. */
    public void append(final SchemaLog log, final int from, final int to) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final SchemaLayout layout = BucketCounts.VISIT.layout();
        final SchemaRecord record = new SchemaRecord(layout);
        for (int i = from; i < to; i++) {
            final Visit visit = visits.get(i);
            record.wrapForWrite(buffer, 0).sequence(visit.sequence()).setString(layout.indexOf("user"), visit.user())
                    .setTimestamp(layout.indexOf("ts"), visit.time()).setDouble(layout.indexOf("amount"), visit.sequence() % 100);
            log.append(record);
        }
    }

    /** What the oracle expects: the bucket counts by map key, and the sequences of the visits dropped as too late. */
    public record Expected(Map<String, Long> counts, TreeSet<Long> late) {
    }

    /**
     * The brute force, apart from the job: per partition in log order, the watermark before a
     * visit is the highest earlier time minus the disorder; a visit more than the lateness behind it
     * is dropped to the late side output; every other visit counts in its user's bucket.
     */
    public Expected expected(final long disorder, final long lateness) {
        final Map<Integer, Long> maxTime = new HashMap<>();
        final Map<String, Long> counts = new HashMap<>();
        final TreeSet<Long> late = new TreeSet<>();
        for (final Visit visit : visits) {
            final Long max = maxTime.get(visit.partition());
            if (max != null && visit.time() < max - disorder - lateness) {
                late.add(visit.sequence());
            } else {
                final long start = Math.floorDiv(visit.time(), BucketCounts.SIZE) * BucketCounts.SIZE;
                counts.merge(BucketCounts.mapKey(visit.user(), start), 1L, Long::sum);
            }
            maxTime.merge(visit.partition(), visit.time(), Math::max);
        }
        return new Expected(counts, late);
    }
}
