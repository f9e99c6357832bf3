package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * What a keyed partition emits ({@code KeyedContext.newEvent}/{@code emit}): per emitted schema its
 * log, one reusable record and buffer handed out by {@link #newEvent}, and the count of events this
 * partition emitted, which numbers their sequences (so a replay after a restore emits the same
 * sequences, and readers drop the repeats).
 */
final class EmittedEvents {
    private final String jobName;
    private final List<EventSchema> schemas;
    private final EventLog[] logs;
    private final SchemaRecord[] records;
    private final UnsafeBuffer[] buffers;
    /** Events this partition emitted, in every emitted log together: the count in their sequences. */
    private long emitted;

    /** @param logs one per {@code schemas}, in order */
    EmittedEvents(final String jobName, final List<EventSchema> schemas, final EventLog[] logs) {
        this.jobName = jobName;
        this.schemas = schemas;
        this.logs = logs;
        this.records = new SchemaRecord[logs.length];
        this.buffers = new UnsafeBuffer[logs.length];
        for (int i = 0; i < logs.length; i++) {
            records[i] = new SchemaRecord(schemas.get(i).layout());
            buffers[i] = new UnsafeBuffer(new byte[schemas.get(i).layout().length()]);
        }
    }

    /** The record to fill for an event of {@code schema}; one per schema, reused. */
    SchemaRecord newEvent(final EventSchema schema) {
        for (int i = 0; i < records.length; i++) {
            if (schemas.get(i).name().equals(schema.name())) {
                return records[i].wrapForWrite(buffers[i], 0);
            }
        }
        throw new IllegalArgumentException("job " + jobName + " does not emit schema " + schema.name() + "; it emits "
                + schemas.stream().map(EventSchema::name).toList() + " (KeyedJob.Builder.emits)");
    }

    /** Appends {@code event} (a record {@link #newEvent} handed out) to its log, numbered as the partition's next. */
    void emit(final SchemaRecord event, final int partition) {
        int i = 0;
        while (i < records.length && records[i] != event) {
            i++;
        }
        if (i == records.length) {
            throw new IllegalArgumentException("job " + jobName + " emits only events made by newEvent(schema)");
        }
        final String invalid = event.validate();
        if (invalid != null) {
            throw new IllegalArgumentException("job " + jobName + " emitted an invalid " + schemas.get(i).name() + " event: " + invalid);
        }
        emitted++;
        event.sequence(Emitted.sequence(partition, emitted));
        buffers[i].putByte(0, SchemaLayout.KIND_EMITTED);
        logs[i].append(event);
    }

    /** How many this partition emitted: in its snapshot. */
    long count() {
        return emitted;
    }

    /** After a restore: the count the snapshot held. */
    void restoreCount(final long count) {
        emitted = count;
    }
}
