package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.EventSchema;

import java.io.Serializable;

/**
 * Where a job's schema logs are, as every member opens them: travels inside the job's processors
 * (hence serializable), so it holds where to find the logs, never an open one. Each schema's log
 * is named after the schema.
 */
public interface LogSource extends Serializable {
    /**
     * Opens the existing log named {@code logName} for {@code schema}.
     *
     * @throws IllegalStateException when there is no such log, or it holds an incompatible schema
     */
    EventLog open(EventSchema schema, String logName);

    /** Opens the log named {@code logName} for {@code schema}, created with {@code partitions} partitions when absent. */
    EventLog openOrCreate(EventSchema schema, String logName, int partitions);

    /**
     * Whether the log named {@code logName} exists.
     *
     * @throws IllegalStateException when the logs' place does not answer (Kafka: within a minute)
     */
    boolean exists(String logName);

    /** Where the logs are, for messages: a directory, or a Kafka cluster and topic prefix. */
    String describe();
}
