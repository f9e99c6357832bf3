package io.streamgrid.examples.fraud;

import io.streamgrid.jobs.ingest.PartitionReader;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a feedback log back as a checker would (tests, demos): every event record in log order, per
 * partition, with the repeats a restored emitter left in it counted apart — an emitted record whose
 * sequence (writer and count) was seen before in its partition is a repeat.
 */
public final class FeedbackLog {
    /** One feedback record as read. */
    public record Entry(int partition, int kind, long user, long txn, long ts, Features features, double score, long modelVersion,
                        boolean fraud, long scoringLagMs) {
    }

    /** The records taken (first of each sequence), in log order per partition, partitions in order; and the repeats skipped. */
    public record Contents(List<Entry> entries, long repeats) {
        public List<Entry> ofKind(final int kind) {
            return entries.stream().filter(e -> e.kind() == kind).toList();
        }
    }

    /** How the payments (txns) a checker expects appear among some entries. */
    public record Tally(String what, long expected, long found, long lost, long duplicated, long unexpected) {
        /** Every expected txn exactly once, no other. */
        public boolean exact() {
            return lost == 0 && duplicated == 0 && unexpected == 0;
        }

        @Override
        public String toString() {
            return what + ": " + expected + " expected, " + found + " found, " + lost + " lost, " + duplicated + " duplicated"
                    + (unexpected == 0 ? "" : ", " + unexpected + " unexpected");
        }
    }

    private FeedbackLog() {
    }

    /** Counts each of {@code expected} among {@code entries}' txns: missing, there more than once, or there unexpected. */
    public static Tally tally(final String what, final Set<Long> expected, final List<Entry> entries) {
        final Map<Long, Integer> times = new HashMap<>();
        entries.forEach(e -> times.merge(e.txn(), 1, Integer::sum));
        final long lost = expected.stream().filter(txn -> !times.containsKey(txn)).count();
        final long duplicated = times.values().stream().mapToLong(t -> t - 1).sum();
        final long unexpected = times.keySet().stream().filter(txn -> !expected.contains(txn)).count();
        return new Tally(what, expected.size(), expected.size() - lost, lost, duplicated, unexpected);
    }

    public static Contents read(final Path logDir) {
        final List<Entry> entries = new ArrayList<>();
        long repeats = 0;
        try (SchemaLog log = SchemaLog.openExisting(logDir, Payments.FEEDBACK)) {
            final SchemaRecord record = new SchemaRecord(Payments.FEEDBACK.layout());
            for (int p = 0; p < log.partitions(); p++) {
                final Set<Long> seen = new HashSet<>();
                try (PartitionReader reader = log.reader(p, PartitionReader.START)) {
                    int length;
                    while ((length = reader.next()) >= 0) {
                        final byte kind = reader.buffer().getByte(0);
                        if (kind != SchemaLayout.KIND_EMITTED && kind != SchemaLayout.KIND_EVENT) {
                            continue; // heartbeats, end of stream
                        }
                        record.wrap(reader.buffer(), 0, length);
                        if (kind == SchemaLayout.KIND_EMITTED && !seen.add(record.sequence())) {
                            repeats++;
                            continue;
                        }
                        entries.add(new Entry(p, record.getEnumOrdinal(Feedback.KIND), record.getLong(Feedback.USER),
                                record.getLong(Feedback.TXN), record.getTimestamp(Feedback.TS), Feedback.features(record),
                                record.getDouble(Feedback.SCORE), record.getLong(Feedback.VERSION), record.getBoolean(Feedback.FRAUD),
                                record.getLong(Feedback.SCORING_LAG)));
                    }
                }
            }
        }
        return new Contents(entries, repeats);
    }
}
