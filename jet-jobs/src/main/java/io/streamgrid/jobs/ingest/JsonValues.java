package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.KeyPartitions;
import io.streamgrid.jobs.schema.json.FlatJson;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Events given as JSON values in a partition of a {@link KafkaLog}, as another language's Kafka
 * client produces them: a flat object of the schema's fields (a timestamp as epoch milliseconds or
 * ISO-8601 text), decoded into the schema's binary record and checked as a loaded line is — a value
 * that does not fit is rejected, naming the field, never half-read. A JSON value starts with
 * {@code '{'}, which no binary record does (their first byte is a kind, 1 to 5).
 *
 * <p>The value must be in its key's partition ({@link KeyPartitions#partitionOf(SchemaRecord, int)},
 * part of the log format): a job reads each partition in order, and a key's events in two
 * partitions would be handled out of order. A value elsewhere is rejected, naming the right one.
 */
final class JsonValues {
    private final SchemaLoader loader;
    private final int partitions;
    private final int partition;

    JsonValues(final EventSchema schema, final int partitions, final int partition) {
        this.loader = new SchemaLoader(schema);
        this.partitions = partitions;
        this.partition = partition;
    }

    static boolean isJson(final byte[] value) {
        return value != null && value.length > 0 && value[0] == '{';
    }

    /**
     * The event of the JSON value at {@code offset}, numbered {@code offset + 1} unless it has a
     * {@code seq}. Valid until the next call.
     *
     * @throws IllegalArgumentException why it is not an event of the schema in this partition
     */
    SchemaRecord decode(final byte[] value, final long offset) {
        final String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(value)).toString();
        } catch (final CharacterCodingException e) {
            throw new IllegalArgumentException("JSON value is not UTF-8 text");
        }
        final SchemaRecord record;
        try {
            record = loader.encodeEvent(FlatJson.parse(text), offset + 1);
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException("JSON value: " + e.getMessage());
        }
        final int home = KeyPartitions.partitionOf(record, partitions);
        if (home != partition) {
            throw new IllegalArgumentException("JSON value in partition " + partition + ", but its key belongs in partition " + home
                    + " of " + partitions + " (StreamGrid's partitioner: README, 'Publish from other languages')");
        }
        return record;
    }
}
