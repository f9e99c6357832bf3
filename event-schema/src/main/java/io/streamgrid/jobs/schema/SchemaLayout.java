package io.streamgrid.jobs.schema;

import java.util.List;

/**
 * Where each field of an {@link EventSchema} sits in a record, little-endian:
 * <pre>
 *   0  kind       1 byte   {@link #KIND_EVENT} for an event of this schema, {@link #KIND_EMITTED}
 *                          for one a job emitted, {@link #KIND_PUBLISHED} for one an application
 *                          published; control records ({@link #KIND_HEARTBEAT},
 *                          {@link #KIND_END_OF_STREAM}, {@link #KIND_WRITER_CLOCK}) carry a
 *                          time at offset 12 and are {@link #CONTROL_LENGTH} bytes long
 *   1  marker     1 byte   {@link #MARKER}, tells a schema record from a fixed-layout one
 *   2  version    2 bytes  the schema version the record was written with
 *   4  sequence   8 bytes  the writer's sequence number
 *  12  fields     in declaration order, each {@link Field#width()} bytes
 * </pre>
 * A later schema version only appends fields, so every offset stays valid for every version; a
 * record shorter than this layout was written with an earlier version and lacks the later fields.
 */
public final class SchemaLayout {
    public static final byte KIND_EVENT = 1;
    /** The partition was idle; its event-time clock stands at the record's time. */
    public static final byte KIND_HEARTBEAT = 2;
    /** The stream has ended: every window and timer is due. */
    public static final byte KIND_END_OF_STREAM = 3;
    /**
     * An event a keyed job emitted into the log ({@code KeyedContext.emit}). Its sequence names the
     * writer (the job's partition, top 16 bits) and counts that writer's events (low 48 bits), so a
     * reader drops the events a restored job emits again: exactly once per count and writer.
     */
    public static final byte KIND_EMITTED = 4;
    /**
     * An event an application published ({@code Publisher} of the client API). Its sequence names
     * the publisher (top 16 bits, {@code 32768} and up: never an emitting job's partition) and
     * counts that publisher's events (low 48 bits), so a reader drops an event appended twice —
     * as for {@link #KIND_EMITTED}.
     */
    public static final byte KIND_PUBLISHED = 5;
    /**
     * A job that emits into the log tells its readers how far its event time has come: writer
     * {@code w} (int at {@link #CONTROL_WRITER}: the emitting job's partition) of {@code n} (int at
     * {@link #CONTROL_WRITERS}: the job's partitions) will emit no event earlier than the record's
     * time (its watermark); {@code Long.MAX_VALUE}: it has ended. A reader's event-time clock for
     * the log is the earliest of its writers' ({@code KeyedJob.Builder.emits}).
     */
    public static final byte KIND_WRITER_CLOCK = 6;
    public static final int CONTROL_LENGTH = 20;
    /** In a {@link #KIND_WRITER_CLOCK} record: the writer (int). */
    public static final int CONTROL_WRITER = 4;
    /** In a {@link #KIND_WRITER_CLOCK} record: how many writers the log has (int). */
    public static final int CONTROL_WRITERS = 8;
    public static final byte MARKER = 'S';
    public static final int HEADER = 12;

    private final EventSchema schema;
    private final int[] offsets;
    /** Per field, the offset just past it: a record holds the field when its length reaches this. */
    private final int[] ends;
    private final FieldType[] types;
    /** The fields whose values {@link SchemaRecord#validate()} checks (not int and long: every value is valid), in order. */
    private final int[] checkedFields;
    /** The short check of a record of exactly this layout's fields ({@link RecordValidation#isSound}). */
    private final FieldChecks fieldChecks;
    private final int length;
    private final int keyIndex;
    private final int eventTimeIndex;

    SchemaLayout(final EventSchema schema) {
        this.schema = schema;
        final List<Field> fields = schema.fields();
        offsets = new int[fields.size()];
        ends = new int[fields.size()];
        types = new FieldType[fields.size()];
        int offset = HEADER;
        for (int i = 0; i < fields.size(); i++) {
            offsets[i] = offset;
            offset += fields.get(i).width();
            ends[i] = offset;
            types[i] = fields.get(i).type();
        }
        length = offset;
        checkedFields = java.util.stream.IntStream.range(0, types.length)
                .filter(i -> types[i] != FieldType.INT && types[i] != FieldType.LONG).toArray();
        fieldChecks = new FieldChecks(fields, offsets);
        keyIndex = indexOf(schema.keyField());
        eventTimeIndex = indexOf(schema.eventTimeField());
    }

    public EventSchema schema() {
        return schema;
    }

    /** Bytes of a record of this version. */
    public int length() {
        return length;
    }

    public int fieldCount() {
        return offsets.length;
    }

    /** Offset of field {@code index} from the record's start. */
    public int offset(final int index) {
        return offsets[index];
    }

    /** The offset just past field {@code index}. */
    public int end(final int index) {
        return ends[index];
    }

    public FieldType type(final int index) {
        return types[index];
    }

    int[] checkedFields() {
        return checkedFields;
    }

    FieldChecks fieldChecks() {
        return fieldChecks;
    }

    public Field field(final int index) {
        return schema.fields().get(index);
    }

    /**
     * The index of the field called {@code name}: look it up once, then read by index.
     *
     * @throws IllegalArgumentException naming the schema's fields when there is none
     */
    public int indexOf(final String name) {
        return schema.indexOf(name);
    }

    public int keyIndex() {
        return keyIndex;
    }

    public int eventTimeIndex() {
        return eventTimeIndex;
    }
}
