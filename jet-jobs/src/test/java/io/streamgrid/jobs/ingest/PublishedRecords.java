package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.PublishedSequence;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.schema.SchemaLayout;

import java.nio.ByteOrder;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The publish tests' oracle: reads a log record by record, independently of the publish path, and
 * counts each sequence of one publisher. Also a main, for a check run on another "host" (a network
 * namespace the test's own JVM cannot reach): arguments bootstrap servers, topic prefix, publisher
 * id, expected events; prints the tally and exits 0 only when nothing is lost or duplicated.
 */
public final class PublishedRecords {
    private PublishedRecords() {
    }

    /** How a log holds sequences 1..expected of a publisher. */
    public record Tally(long expected, long found, long lost, long duplicated) {
        public boolean exact() {
            return lost == 0 && duplicated == 0 && found == expected;
        }

        @Override
        public String toString() {
            return expected + " expected, " + found + " found, " + lost + " lost, " + duplicated + " duplicated";
        }
    }

    public static void main(final String[] args) {
        try (EventLog log = new KafkaLogs(args[0], args[1], (short) 1).open(EventType.CLICK.schema(), "click")) {
            final Tally tally = tally(log, args[2], Long.parseLong(args[3]));
            System.out.println(tally + " (" + log.name() + ")");
            System.exit(tally.exact() ? 0 : 1);
        }
    }

    /** Sequences 1..{@code expected} of publisher {@code publisherId} in {@code log}: each should be there once. */
    public static Tally tally(final EventLog log, final String publisherId, final long expected) {
        final EventLog.PublisherSlot slot = log.publisherSlot(publisherId);
        if (slot.isNew()) {
            throw new AssertionError("the log holds no slot for publisher " + publisherId);
        }
        final Map<Long, Integer> counts = counts(log, slot.slot());
        long lost = 0;
        long duplicated = 0;
        for (long sequence = 1; sequence <= expected; sequence++) {
            final int count = counts.getOrDefault(sequence, 0);
            lost += count == 0 ? 1 : 0;
            duplicated += Math.max(0, count - 1);
        }
        return new Tally(expected, counts.size(), lost, duplicated);
    }

    /** Per sequence of {@code slot}'s published records, how many times the log holds it: read to the end, record by record. */
    public static Map<Long, Integer> counts(final EventLog log, final int slot) {
        final Map<Long, Integer> counts = new HashMap<>();
        for (int p = 0; p < log.partitions(); p++) {
            final long end = log.lastIndexNow(p);
            try (LogReader reader = log.reader(p, LogReader.START)) {
                final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
                while (reader.lastIndex() < end && System.nanoTime() < deadline) {
                    final int length = reader.next();
                    if (length >= SchemaLayout.HEADER && reader.buffer().getByte(0) == SchemaLayout.KIND_PUBLISHED) {
                        final long sequence = reader.buffer().getLong(4, ByteOrder.LITTLE_ENDIAN);
                        if (PublishedSequence.slot(sequence) == slot) {
                            counts.merge(PublishedSequence.sequence(sequence), 1, Integer::sum);
                        }
                    }
                }
                if (reader.lastIndex() < end) {
                    throw new AssertionError("partition " + p + " of " + log.name() + " not read to its end (" + end + ") within a minute");
                }
            }
        }
        return counts;
    }
}
