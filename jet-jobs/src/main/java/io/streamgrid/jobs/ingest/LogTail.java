package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;

import java.time.Duration;

/**
 * What the last records of a log say about events appended next: whether the stream was ended (an
 * end-of-stream record among them: every job counts later events as late), and the latest event time
 * among them (events appended with earlier times are late for windows that closed). Read from at most
 * {@value #LOOKBACK} indexes before each partition's last record — the tail, not the whole log — so
 * "ended" and "latest" describe what was appended last.
 *
 * @param ended           an end-of-stream record is among the last records of some partition
 * @param latestEventTime the latest event time among the last records, {@link Long#MIN_VALUE} when
 *                        they hold no event (an empty log)
 */
public record LogTail(boolean ended, long latestEventTime) {
    /** Indexes read back from each partition's last record (a Kafka partition's transaction markers take indexes too). */
    static final int LOOKBACK = 64;
    private static final long QUIET_NANOS = 300_000_000L;

    /**
     * Reads the tail of every partition of {@code log}, waiting at most {@code patience} per
     * partition for a reader to deliver what is there ({@link KafkaLog} fetches asynchronously).
     *
     * @throws IllegalStateException when the log does not answer (as {@link EventLog#lastIndexNow})
     */
    public static LogTail of(final EventLog log, final Duration patience) {
        final SchemaRecord record = new SchemaRecord(log.schema().layout());
        boolean ended = false;
        long latest = Long.MIN_VALUE;
        for (int p = 0; p < log.partitions(); p++) {
            final long last = log.lastIndexNow(p);
            if (last == LogReader.START) {
                continue;
            }
            try (LogReader reader = readerNear(log, p, last)) {
                if (reader == null) {
                    continue;
                }
                final long deadline = System.nanoTime() + patience.toNanos();
                long quietSince = 0;
                boolean readAny = false;
                while (reader.lastIndex() < last && System.nanoTime() < deadline) {
                    final int length = reader.next();
                    if (length < 0) {
                        // A Kafka partition's last index may be a transaction marker no reader returns: once records
                        // came and then none for a while, the reader has given what there is.
                        if (quietSince == 0) {
                            quietSince = System.nanoTime();
                        } else if (readAny && System.nanoTime() - quietSince > QUIET_NANOS) {
                            break;
                        }
                        pause();
                        continue;
                    }
                    quietSince = 0;
                    readAny = true;
                    if (isEndOfStream(reader, length)) {
                        ended = true;
                    } else if (reader.rejection() == null && length != SchemaLayout.CONTROL_LENGTH) {
                        record.wrap(reader.buffer(), 0, length);
                        if (record.validate() == null) {
                            latest = Math.max(latest, record.eventTime());
                        }
                    }
                }
            }
        }
        return new LogTail(ended, latest);
    }

    /**
     * A reader positioned a little before {@code last}, or null when none can be. A Chronicle index
     * is a cycle (high 32 bits) and a number within it: when {@code last} is near the start of its
     * cycle, the index {@value #LOOKBACK} before it names no record, and the reader starts after the
     * cycle's first record instead (none when {@code last} is that first record: its partition is not read).
     */
    private static LogReader readerNear(final EventLog log, final int partition, final long last) {
        try {
            return log.reader(partition, Math.max(LogReader.START, last - LOOKBACK));
        } catch (final IllegalStateException noRecordThere) {
            final long firstOfCycle = last & ~0xFFFF_FFFFL;
            return firstOfCycle < last ? log.reader(partition, firstOfCycle) : null;
        }
    }

    private static boolean isEndOfStream(final LogReader reader, final int length) {
        return length == SchemaLayout.CONTROL_LENGTH && reader.buffer().getByte(1) == SchemaLayout.MARKER
                && reader.buffer().getByte(0) == SchemaLayout.KIND_END_OF_STREAM;
    }

    private static void pause() {
        try {
            Thread.sleep(5);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the end of the log", e);
        }
    }
}
