package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.EventSchema;

import java.nio.file.Path;

/**
 * Chronicle Queue logs on the members' host: the log named {@code firstLogName} is in
 * {@code firstLogDir}, and the log of any other name is that directory's sibling of that name —
 * under an ingest directory, {@code <ingestDir>/schemas/<name>} ({@link SchemaLog#directoryOf}).
 *
 * @param firstLogDir  the directory of a job's first log, absolute, as the members see it
 * @param firstLogName the name that log is opened by (its schema's)
 */
public record ChronicleLogs(String firstLogDir, String firstLogName) implements LogSource {
    /** The logs of an ingest directory, the first being {@code firstSchema}'s. */
    public static ChronicleLogs under(final Path ingestDir, final String firstSchema) {
        return new ChronicleLogs(SchemaLog.directoryOf(ingestDir.toAbsolutePath(), firstSchema).toString(), firstSchema);
    }

    /** The directory of the log named {@code logName}. */
    public Path directoryOf(final String logName) {
        final Path first = Path.of(firstLogDir);
        return logName.equals(firstLogName) ? first : first.resolveSibling(logName);
    }

    @Override
    public EventLog open(final EventSchema schema, final String logName) {
        return SchemaLog.openExisting(directoryOf(logName), schema);
    }

    @Override
    public EventLog openOrCreate(final EventSchema schema, final String logName, final int partitions) {
        final Path dir = directoryOf(logName);
        return SchemaLog.exists(dir) ? SchemaLog.openExisting(dir, schema) : SchemaLog.open(dir, schema, partitions);
    }

    @Override
    public boolean exists(final String logName) {
        return SchemaLog.exists(directoryOf(logName));
    }

    @Override
    public String describe() {
        return Path.of(firstLogDir).getParent().toString();
    }
}
