package io.streamgrid.jobs;

import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import static org.awaitility.Awaitility.await;

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

    /**
     * Feeds a job two streams in thirds while it runs: the first third of each before
     * {@code submit}, then, twice, a restart from the job's last snapshot followed by the next third
     * of each (the second stream {@code pauseMs} after the first, so the merge must wait for it),
     * then the end of both streams. Returns the running job.
     */
    public static Job appendInThirdsAcrossRestarts(final Supplier<Job> submit, final SchemaLog firstLog, final List<MachineReading> first,
                                                   final SchemaLog secondLog, final List<MachineReading> second, final long pauseMs)
            throws InterruptedException {
        append(firstLog, first, 0, first.size() / 3);
        append(secondLog, second, 0, second.size() / 3);
        final Job running = submit.get();
        for (int third = 1; third < 3; third++) {
            await().atMost(Duration.ofMinutes(1)).until(() -> running.getStatus() == JobStatus.RUNNING);
            Thread.sleep(300);
            running.restart();
            append(firstLog, first, first.size() * third / 3, first.size() * (third + 1) / 3);
            Thread.sleep(pauseMs);
            append(secondLog, second, second.size() * third / 3, second.size() * (third + 1) / 3);
        }
        firstLog.appendEndOfStream();
        secondLog.appendEndOfStream();
        return running;
    }
}
