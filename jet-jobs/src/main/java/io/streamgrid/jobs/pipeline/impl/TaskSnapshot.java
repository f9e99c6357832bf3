package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.window.impl.SnapshotOutput;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The layout of a {@link PartitionTask}'s snapshot — format, partition, each log's input
 * ({@link PartitionInput#writeTo}: position, end, writers' counts), then the task's own state —
 * written into a reusable buffer and read back, refusing a snapshot of another format, partition
 * or set of logs.
 */
final class TaskSnapshot {
    private final SnapshotOutput output = new SnapshotOutput();
    private final String jobName;
    private final int partition;
    private final int format;

    /** {@code format}: the version of the task's own state layout, checked on restore. */
    TaskSnapshot(final String jobName, final int partition, final int format) {
        this.jobName = jobName;
        this.partition = partition;
        this.format = format;
    }

    /** Writes the state of {@code task}, which reads {@code inputs}, into the buffer; returns its length. */
    int write(final PartitionInput[] inputs, final PartitionTask task) {
        output.reset();
        try {
            output.writeInt(format);
            output.writeInt(partition);
            output.writeInt(inputs.length);
            for (final PartitionInput in : inputs) {
                in.writeTo(output);
            }
            task.writeState(output);
        } catch (final IOException e) {
            throw new UncheckedIOException("writing the state of job " + jobName + " partition " + partition + " failed", e);
        }
        return output.length();
    }

    /** Fills {@code into} with the bytes from {@code from} on of the state written last; returns it. */
    byte[] copy(final int from, final byte[] into) {
        return output.copy(from, into);
    }

    /** Copies {@code length} bytes from {@code from} on of the state written last into {@code into} at {@code at}. */
    void copy(final int from, final byte[] into, final int at, final int length) {
        output.copy(from, into, at, length);
    }

    /** Restores what {@link #write} wrote into {@code inputs} and {@code task}. */
    void read(final byte[] snapshot, final PartitionInput[] inputs, final PartitionTask task) {
        try (DataInputStream data = new DataInputStream(new ByteArrayInputStream(snapshot))) {
            final int saved = data.readInt();
            if (saved != format) {
                throw new IllegalStateException("snapshot of job " + jobName + " partition " + partition + " has format "
                        + saved + ", this build reads " + format);
            }
            final int savedPartition = data.readInt();
            if (savedPartition != partition) {
                throw new IllegalStateException("bug: snapshot of partition " + savedPartition + " given to partition " + partition);
            }
            final int logs = data.readInt();
            if (logs != inputs.length) {
                throw new IllegalStateException("snapshot of job " + jobName + " partition " + partition + " holds positions in "
                        + logs + " logs, the job reads " + inputs.length + ": a job's schemas cannot change across a restore");
            }
            for (final PartitionInput in : inputs) {
                in.readFrom(data);
            }
            task.readState(data);
        } catch (final IOException e) {
            throw new UncheckedIOException("corrupt snapshot of job " + jobName + " partition " + partition, e);
        }
    }
}
