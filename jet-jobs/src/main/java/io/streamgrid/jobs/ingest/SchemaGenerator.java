package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.Field;
import io.streamgrid.jobs.schema.FieldType;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.SplittableRandom;

/**
 * Generates events of any {@link EventSchema} as a {@link GeneratorSpec} describes them (seeded:
 * the same spec always yields the same events; arrival pacing, disorder, late fraction, Zipf keys
 * and spiking hot keys as for the built-in types), into one reused {@link SchemaRecord}.
 *
 * <p>Per field, derived from the schema: the key is key number {@code k} (a long key: {@code k}; a
 * string key: {@code "<field>-<k>"}, or just the digits when the field is too short for the prefix);
 * the event time follows the spec; other timestamps equal the event time; int 0 to 999, long 0 to
 * 999,999, double 0 to 1,000 in cents, boolean either, enum a uniform symbol, string 1 to 12
 * lower-case letters (at most the field's length).
 */
public final class SchemaGenerator extends RecordGenerator {
    private static final int STRING_LENGTH = 12;

    private final SchemaLayout layout;
    private final SplittableRandom random;
    private final ArrivalModel arrivals;
    private final String[] keyStrings;
    private final UnsafeBuffer buffer;
    private final SchemaRecord record;
    private final char[] text = new char[STRING_LENGTH];

    /**
     * @throws IllegalArgumentException when a string key field is too short to hold the spec's
     *                                  number of distinct keys, naming the field
     */
    public SchemaGenerator(final EventSchema schema, final GeneratorSpec spec) {
        super(spec, schema.name());
        this.layout = schema.layout();
        this.random = new SplittableRandom(spec.seed());
        this.arrivals = new ArrivalModel(spec, random);
        this.buffer = new UnsafeBuffer(new byte[layout.length()]);
        this.record = new SchemaRecord(layout);
        final Field key = layout.field(layout.keyIndex());
        if (key.type() == FieldType.STRING) {
            final int digits = Integer.toString(spec.keys() - 1).length();
            if (digits > key.maxLength()) {
                throw new IllegalArgumentException("string key field " + key.name() + " of schema " + schema.name()
                        + " holds at most " + key.maxLength() + " bytes, too few for " + spec.keys() + " distinct keys");
            }
            final String prefix = key.name() + "-";
            final boolean withPrefix = prefix.length() + digits <= key.maxLength();
            keyStrings = new String[spec.keys()];
            for (int k = 0; k < spec.keys(); k++) {
                keyStrings[k] = withPrefix ? prefix + k : Integer.toString(k);
            }
        } else {
            keyStrings = null;
        }
    }

    @Override
    SchemaRecord next(final long i) {
        final long arrival = arrivals.arrival(i);
        final long timestamp = arrivals.timestamp(arrival);
        final int keyIndex = arrivals.keyIndex(arrival);
        record.wrapForWrite(buffer, 0).sequence(i);
        for (int f = 0; f < layout.fieldCount(); f++) {
            final Field field = layout.field(f);
            if (f == layout.keyIndex()) {
                if (keyStrings != null) {
                    record.setString(f, keyStrings[keyIndex]);
                } else {
                    record.setLong(f, keyIndex);
                }
                continue;
            }
            switch (field.type()) {
                case TIMESTAMP -> record.setTimestamp(f, timestamp);
                case INT -> record.setInt(f, random.nextInt(1_000));
                case LONG -> record.setLong(f, random.nextLong(1_000_000));
                case DOUBLE -> record.setDouble(f, random.nextInt(100_000) / 100.0);
                case BOOLEAN -> record.setBoolean(f, random.nextBoolean());
                case ENUM -> record.setEnumOrdinal(f, random.nextInt(field.symbols().size()));
                case STRING -> record.setString(f, randomText(Math.min(field.maxLength(), STRING_LENGTH)));
                default -> throw new IllegalStateException("bug: no generator for " + field.type());
            }
        }
        return record;
    }

    private CharSequence randomText(final int maxLength) {
        final int length = 1 + random.nextInt(maxLength);
        for (int c = 0; c < length; c++) {
            text[c] = (char) ('a' + random.nextInt(26));
        }
        return java.nio.CharBuffer.wrap(text, 0, length);
    }
}
