package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.KeyPartitions;
import io.streamgrid.jobs.schema.PublishedSequence;
import io.streamgrid.jobs.schema.json.FlatJson;
import io.streamgrid.jobs.schema.json.PublishedJson;
import io.streamgrid.jobs.schema.json.RecordEncoder;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Appends applications' published events to one {@link EventLog}, each publisher's at most once.
 *
 * <p>A publisher numbers its events 1, 2, 3, ... and holds a slot of the log
 * ({@link PublishedSequence}); its events are {@link SchemaLayout#KIND_PUBLISHED} records whose
 * sequence carries both. The caller keeps, per publisher, a ledger: the highest sequence known
 * to be in the log, and per partition an index every later record of the publisher exceeds
 * ({@link #tails()}, then the {@link Outcome#tails()} of each batch). When the caller cannot be sure
 * its ledger saw the last batch (a member died after appending, before its ledger was backed up),
 * {@link #scan} reads the log after those indexes for the publisher's records: the log, not the
 * ledger, says what is in it — the technique of {@link LoadLedger}, per publisher.
 *
 * <p>Events arrive as flat JSON objects (field name to value), UTF-8 ({@link EventTexts}), and are
 * validated before anything of them is appended: a bad event is rejected with the reason naming the
 * field, never half-written, and the others of its batch are appended. Those in the plain form an
 * application's event builder writes are encoded straight from their bytes ({@link PublishedJson});
 * the others are parsed in full. Thread-safe (one batch at a time per log).
 */
public final class LogPublisher implements AutoCloseable {
    public static final byte APPENDED = 0;
    /** The sequence was in the log already: not appended again. */
    public static final byte DUPLICATE = 1;
    public static final byte REJECTED = 2;

    /** How long a scan waits for records the log says it holds (a Kafka fetch). */
    private static final long SCAN_WAIT_NANOS = TimeUnit.SECONDS.toNanos(60);

    /**
     * What a batch did: per event (in order) its status and, when rejected, the reason; the
     * publisher's new ledger: {@code lastSequence} and {@code tails}.
     */
    public record Outcome(byte[] statuses, String[] reasons, long lastSequence, long[] tails) {
    }

    private final EventLog log;
    private final PublishedJson plain;
    private final RecordEncoder full;

    public LogPublisher(final EventLog log) {
        this.log = log;
        this.plain = new PublishedJson(log.schema());
        this.full = new RecordEncoder(log.schema());
    }

    public EventLog log() {
        return log;
    }

    /** Per partition, the index of its last record now: the ledger of a publisher that has appended nothing yet. */
    public synchronized long[] tails() {
        final long[] tails = new long[log.partitions()];
        for (int p = 0; p < tails.length; p++) {
            tails[p] = log.lastIndexNow(p);
        }
        return tails;
    }

    /**
     * Per partition, the highest sequence of {@code slot}'s records after {@code tails[p]}, or 0
     * when there is none: read from the log up to its end now. With the ledger's settled sequence,
     * {@link PublishedSequence#settled} and {@link PublishedSequence#inLog} say what is in the log.
     *
     * @throws IllegalStateException when the log does not deliver the records it says it holds within a minute
     */
    public synchronized long[] scan(final int slot, final long[] tails) {
        final long[] highest = new long[tails.length];
        for (int p = 0; p < tails.length; p++) {
            final long end = log.lastIndexNow(p);
            if (end <= tails[p]) {
                continue;
            }
            try (LogReader reader = log.reader(p, tails[p])) {
                final long deadline = System.nanoTime() + SCAN_WAIT_NANOS;
                while (reader.lastIndex() < end) {
                    final int length = reader.next();
                    if (length < 0) {
                        if (System.nanoTime() > deadline) {
                            throw new IllegalStateException(log.name() + " partition " + p + " says it ends at " + end
                                    + " but delivered records up to " + reader.lastIndex() + " only");
                        }
                        LockSupport.parkNanos(1_000_000);
                        continue;
                    }
                    final DirectBuffer buffer = reader.buffer();
                    if (length >= SchemaLayout.HEADER && buffer.getByte(0) == SchemaLayout.KIND_PUBLISHED
                            && buffer.getByte(1) == SchemaLayout.MARKER) {
                        final long sequence = buffer.getLong(4, ByteOrder.LITTLE_ENDIAN);
                        if (PublishedSequence.slot(sequence) == slot) {
                            highest[p] = Math.max(highest[p], PublishedSequence.sequence(sequence));
                        }
                    }
                }
            }
        }
        return highest;
    }

    /**
     * Appends {@code events} — numbered {@code sequences}, increasing — except those already in the
     * log ({@link PublishedSequence#inLog}: at or below {@code settled}, or at or below
     * {@code highs[p]} of their partition; reported {@link #DUPLICATE}, or {@link #REJECTED} again if
     * invalid) and the invalid ones; then flushes the log, so that appended means durable.
     *
     * @param highs per partition the publisher's highest sequence found there by the last {@link #scan} (zeros when none)
     * @throws IllegalStateException when the log cannot take them (nothing of the batch is then
     *                               known to be in it or not: the caller must {@link #scan} before
     *                               appending for this publisher again)
     */
    public synchronized Outcome append(final int slot, final long settled, final long[] highs, final long[] tails, final long[] sequences,
                                       final EventTexts events) {
        if (sequences.length != events.count()) {
            throw new IllegalArgumentException(sequences.length + " sequences for " + events.count() + " events");
        }
        final long[] nextTails = new long[tails.length];
        for (int p = 0; p < tails.length; p++) {
            nextTails[p] = Math.max(tails[p], log.tailIndex(p)); // taken before this batch: its records come after
        }
        final byte[] statuses = new byte[sequences.length];
        final String[] reasons = new String[sequences.length];
        for (int i = 0; i < sequences.length; i++) {
            final long sequence = sequences[i];
            final long published = PublishedSequence.of(slot, sequence);
            SchemaRecord record = plain.encode(events.utf8(), events.start(i), events.end(i), published);
            if (record == null) { // not in the plain form: the full way, which also names what is wrong
                try {
                    record = full.encodePublished(FlatJson.parse(events.text(i)), published);
                } catch (final IllegalArgumentException e) {
                    statuses[i] = REJECTED;
                    reasons[i] = e.getMessage();
                    continue;
                }
            }
            if (PublishedSequence.inLog(sequence, settled, highs[KeyPartitions.partitionOf(record, highs.length)])) {
                statuses[i] = DUPLICATE;
                continue;
            }
            log.append(record);
            statuses[i] = APPENDED;
        }
        log.flush();
        return new Outcome(statuses, reasons, Math.max(settled, sequences.length == 0 ? 0 : sequences[sequences.length - 1]), nextTails);
    }

    @Override
    public void close() {
        log.close();
    }
}
