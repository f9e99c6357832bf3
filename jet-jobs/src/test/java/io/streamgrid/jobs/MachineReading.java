package io.streamgrid.jobs;

import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/** One sensor reading as the job tests write it to a schema of (machine: long key, ts, one double field). */
public record MachineReading(long machine, long ts, double value, long sequence) {

    /** Appends {@code readings[from, to)} to {@code log}, whose schema has that shape. */
    public static void append(final SchemaLog log, final List<MachineReading> readings, final int from, final int to) {
        final SchemaRecord record = new SchemaRecord(log.schema().layout());
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        for (final MachineReading r : readings.subList(from, to)) {
            record.wrapForWrite(buffer, 0).sequence(r.sequence()).setLong(0, r.machine()).setTimestamp(1, r.ts()).setDouble(2, r.value());
            log.append(record);
        }
    }
}
