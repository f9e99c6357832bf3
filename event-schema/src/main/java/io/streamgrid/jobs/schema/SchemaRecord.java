package io.streamgrid.jobs.schema;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A flyweight over one record of a schema ({@link SchemaLayout}): typed reads and writes at fixed
 * offsets, by field index (look indexes up once with {@link SchemaLayout#indexOf}). Reading and
 * writing allocate nothing, except {@link #getString} which builds a String — use
 * {@link #stringEquals} or {@link #copyString} on hot paths. Not thread-safe; reuse one per thread.
 *
 * <p>A record written with an earlier version of the schema is shorter; its missing fields read
 * as their defaults ({@link #has} tells them apart). A record of a later version is read as far as
 * this version knows it (later versions only append fields; {@code SchemaLog} refuses anything else).
 */
public final class SchemaRecord {
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private final SchemaLayout layout;
    private DirectBuffer buffer;
    private MutableDirectBuffer mutable;
    private int offset;
    private int length;

    public SchemaRecord(final SchemaLayout layout) {
        this.layout = layout;
    }

    public SchemaLayout layout() {
        return layout;
    }

    /** Reads the {@code length} bytes at {@code offset}; check {@link #validate()} before trusting them. */
    public SchemaRecord wrap(final DirectBuffer source, final int recordOffset, final int recordLength) {
        buffer = source;
        mutable = null;
        offset = recordOffset;
        length = recordLength;
        return this;
    }

    /** Starts a new record of this version at {@code offset}: zeroed, header written, sequence 0. */
    public SchemaRecord wrapForWrite(final MutableDirectBuffer target, final int recordOffset) {
        buffer = target;
        mutable = target;
        offset = recordOffset;
        length = layout.length();
        target.setMemory(recordOffset, length, (byte) 0);
        target.putByte(recordOffset, SchemaLayout.KIND_EVENT);
        target.putByte(recordOffset + 1, SchemaLayout.MARKER);
        target.putShort(recordOffset + 2, (short) layout.schema().version(), ORDER);
        return this;
    }

    public DirectBuffer buffer() {
        return buffer;
    }

    public int offset() {
        return offset;
    }

    /** The record's length in bytes. */
    public int length() {
        return length;
    }

    /**
     * Field {@code index}'s value boxed, for text and tools rather than hot paths: an Integer, a Long
     * (long and timestamp fields), a Double, a Boolean, or a String (enum symbol, string).
     */
    public Object value(final int index) {
        return switch (layout.type(index)) {
            case INT -> getInt(index);
            case LONG -> getLong(index);
            case DOUBLE -> getDouble(index);
            case BOOLEAN -> getBoolean(index);
            case TIMESTAMP -> getTimestamp(index);
            case ENUM -> getEnum(index);
            case STRING -> getString(index);
        };
    }

    /**
     * A copy of the record's bytes — how a dimension map holds a record, for a job's lookup of
     * records of this schema ({@code KeyedJob.Builder.lookup(map, keyField, valueSchema, onMissing)}).
     */
    public byte[] toBytes() {
        final byte[] copy = new byte[length];
        buffer.getBytes(offset, copy);
        return copy;
    }

    public int version() {
        return buffer.getShort(offset + 2, ORDER);
    }

    public long sequence() {
        return buffer.getLong(offset + 4, ORDER);
    }

    public SchemaRecord sequence(final long value) {
        mutable.putLong(offset + 4, value, ORDER);
        return this;
    }

    /** The key of a schema with a long key. */
    public long keyLong() {
        return getLong(layout.keyIndex());
    }

    public long eventTime() {
        return getTimestamp(layout.eventTimeIndex());
    }

    /** Whether the record holds field {@code index} (false for a field added after it was written). */
    public boolean has(final int index) {
        return layout.end(index) <= length;
    }

    public int getInt(final int index) {
        return has(index) ? buffer.getInt(offset + layout.offset(index), ORDER) : (Integer) defaultOf(index);
    }

    public long getLong(final int index) {
        return has(index) ? buffer.getLong(offset + layout.offset(index), ORDER) : (Long) defaultOf(index);
    }

    public double getDouble(final int index) {
        return has(index) ? buffer.getDouble(offset + layout.offset(index), ORDER) : (Double) defaultOf(index);
    }

    public boolean getBoolean(final int index) {
        return has(index) ? buffer.getByte(offset + layout.offset(index)) != 0 : (Boolean) defaultOf(index);
    }

    public long getTimestamp(final int index) {
        return getLong(index);
    }

    public int getEnumOrdinal(final int index) {
        return has(index) ? buffer.getShort(offset + layout.offset(index), ORDER)
                : layout.field(index).symbols().indexOf((String) defaultOf(index));
    }

    /** The enum's symbol (the schema's own String: no allocation). */
    public String getEnum(final int index) {
        return layout.field(index).symbols().get(getEnumOrdinal(index));
    }

    /** Byte length of a string field's value. */
    public int stringLength(final int index) {
        return has(index) ? buffer.getShort(offset + layout.offset(index), ORDER) & 0xffff
                : ((String) defaultOf(index)).getBytes(StandardCharsets.UTF_8).length;
    }

    /** A string field's value as a new String (allocates). */
    public String getString(final int index) {
        if (!has(index)) {
            return (String) defaultOf(index);
        }
        final int at = offset + layout.offset(index);
        return buffer.getStringWithoutLengthUtf8(at + 2, buffer.getShort(at, ORDER) & 0xffff);
    }

    /** Copies a string field's UTF-8 bytes to {@code target}; returns their count. No allocation. */
    public int copyString(final int index, final MutableDirectBuffer target, final int targetOffset) {
        if (!has(index)) {
            return target.putStringWithoutLengthUtf8(targetOffset, (String) defaultOf(index));
        }
        final int at = offset + layout.offset(index);
        final int bytes = buffer.getShort(at, ORDER) & 0xffff;
        target.putBytes(targetOffset, buffer, at + 2, bytes);
        return bytes;
    }

    /** Whether a string field holds exactly {@code text} (ASCII compared without allocation; other text via UTF-8). */
    public boolean stringEquals(final int index, final CharSequence text) {
        if (!has(index)) {
            return defaultOf(index).equals(text.toString());
        }
        final int at = offset + layout.offset(index);
        final int bytes = buffer.getShort(at, ORDER) & 0xffff;
        if (Utf8.encodedLength(text) != bytes) {
            return false;
        }
        int position = at + 2;
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            if (c >= 0x80) {
                return text.toString().equals(getString(index));
            }
            if (buffer.getByte(position++) != (byte) c) {
                return false;
            }
        }
        return true;
    }

    // ---- by typed field (TypedField: resolved once from the schema) ----

    public int get(final TypedField.IntField field) {
        return getInt(field.index());
    }

    public long get(final TypedField.LongField field) {
        return getLong(field.index());
    }

    public double get(final TypedField.DoubleField field) {
        return getDouble(field.index());
    }

    public boolean get(final TypedField.BooleanField field) {
        return getBoolean(field.index());
    }

    /** Milliseconds since the epoch. */
    public long get(final TypedField.TimestampField field) {
        return getTimestamp(field.index());
    }

    /** The enum's symbol (the schema's own String: no allocation); {@link #ordinal} for its position. */
    public String get(final TypedField.EnumField field) {
        return getEnum(field.index());
    }

    public int ordinal(final TypedField.EnumField field) {
        return getEnumOrdinal(field.index());
    }

    /** A string field's value as a new String (allocates); {@link #equals(TypedField.StringField, CharSequence)} does not. */
    public String get(final TypedField.StringField field) {
        return getString(field.index());
    }

    /** Whether a string field holds {@code text}, compared in place. */
    public boolean equals(final TypedField.StringField field, final CharSequence text) {
        return stringEquals(field.index(), text);
    }

    public SchemaRecord set(final TypedField.IntField field, final int value) {
        return setInt(field.index(), value);
    }

    public SchemaRecord set(final TypedField.LongField field, final long value) {
        return setLong(field.index(), value);
    }

    public SchemaRecord set(final TypedField.DoubleField field, final double value) {
        return setDouble(field.index(), value);
    }

    public SchemaRecord set(final TypedField.BooleanField field, final boolean value) {
        return setBoolean(field.index(), value);
    }

    public SchemaRecord set(final TypedField.TimestampField field, final long epochMillis) {
        return setTimestamp(field.index(), epochMillis);
    }

    public SchemaRecord set(final TypedField.EnumField field, final String symbol) {
        return setEnum(field.index(), symbol);
    }

    public SchemaRecord set(final TypedField.StringField field, final CharSequence text) {
        return setString(field.index(), text);
    }

    public SchemaRecord setInt(final int index, final int value) {
        mutable.putInt(at(index, FieldType.INT), value, ORDER);
        return this;
    }

    public SchemaRecord setLong(final int index, final long value) {
        mutable.putLong(at(index, FieldType.LONG), value, ORDER);
        return this;
    }

    /** @throws IllegalArgumentException for NaN or an infinity, naming the field */
    public SchemaRecord setDouble(final int index, final double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("field " + layout.field(index).name() + " is not a finite number: " + value);
        }
        mutable.putDouble(at(index, FieldType.DOUBLE), value, ORDER);
        return this;
    }

    public SchemaRecord setBoolean(final int index, final boolean value) {
        mutable.putByte(at(index, FieldType.BOOLEAN), value ? (byte) 1 : (byte) 0);
        return this;
    }

    /** @throws IllegalArgumentException for a negative time, naming the field */
    public SchemaRecord setTimestamp(final int index, final long epochMillis) {
        if (epochMillis < 0) {
            throw new IllegalArgumentException("field " + layout.field(index).name() + " is a negative timestamp: " + epochMillis);
        }
        mutable.putLong(at(index, FieldType.TIMESTAMP), epochMillis, ORDER);
        return this;
    }

    /** @throws IllegalArgumentException when the ordinal is not one of the field's symbols */
    public SchemaRecord setEnumOrdinal(final int index, final int ordinal) {
        final Field field = layout.field(index);
        if (ordinal < 0 || ordinal >= field.symbols().size()) {
            throw new IllegalArgumentException("field " + field.name() + " has no symbol number " + ordinal + " (symbols "
                    + field.symbols() + ")");
        }
        mutable.putShort(at(index, FieldType.ENUM), (short) ordinal, ORDER);
        return this;
    }

    /** @throws IllegalArgumentException when {@code symbol} is not one of the field's symbols */
    public SchemaRecord setEnum(final int index, final String symbol) {
        final Field field = layout.field(index);
        final int ordinal = field.symbols().indexOf(symbol);
        if (ordinal < 0) {
            throw new IllegalArgumentException("field " + field.name() + " needs one of " + field.symbols() + ", got '" + symbol + "'");
        }
        return setEnumOrdinal(index, ordinal);
    }

    /**
     * Writes {@code text} in UTF-8 without allocating.
     *
     * @throws IllegalArgumentException when it is longer than the field's maximum, naming both lengths
     */
    public SchemaRecord setString(final int index, final CharSequence text) {
        final Field field = layout.field(index);
        final int at = at(index, FieldType.STRING);
        final int bytes = Utf8.encodedLength(text);
        if (bytes > field.maxLength()) {
            throw new IllegalArgumentException("field " + field.name() + " is " + bytes + " bytes long in UTF-8, at most "
                    + field.maxLength() + " allowed");
        }
        mutable.putShort(at, (short) bytes, ORDER);
        Utf8.encode(text, mutable, at + 2);
        return this;
    }

    /**
     * Writes a string given as {@code length} bytes of UTF-8 at {@code offset} of {@code utf8},
     * copied as they are: the caller vouches that they are UTF-8.
     *
     * @throws IllegalArgumentException when it is longer than the field's maximum, naming both lengths
     */
    public SchemaRecord setStringUtf8(final int index, final byte[] utf8, final int offset, final int length) {
        mutable.putBytes(stringOf(index, length), utf8, offset, length);
        return this;
    }

    /**
     * Writes the length of a {@code length}-byte string into field {@code index} and returns where
     * its bytes go.
     *
     * @throws IllegalArgumentException when it is longer than the field's maximum, naming both lengths
     */
    private int stringOf(final int index, final int length) {
        final Field field = layout.field(index);
        final int at = at(index, FieldType.STRING);
        if (length > field.maxLength()) {
            throw new IllegalArgumentException("field " + field.name() + " is " + length + " bytes long in UTF-8, at most "
                    + field.maxLength() + " allowed");
        }
        mutable.putShort(at, (short) length, ORDER);
        return at + 2;
    }

    /**
     * Writes field {@code fromIndex} of {@code from} (its default when {@code from} is an earlier
     * version without it) into this record's field {@code index}: a re-keyed or projected copy of an
     * event without going through Java values (strings are copied as their UTF-8 bytes).
     *
     * @throws IllegalArgumentException when the two fields differ in type, or a string is longer than
     *                                  this field's maximum, naming the field
     */
    public SchemaRecord copyField(final int index, final SchemaRecord from, final int fromIndex) {
        final FieldType type = from.layout.type(fromIndex);
        return switch (type) {
            case INT -> setInt(index, from.getInt(fromIndex));
            case LONG -> setLong(index, from.getLong(fromIndex));
            case DOUBLE -> setDouble(index, from.getDouble(fromIndex));
            case BOOLEAN -> setBoolean(index, from.getBoolean(fromIndex));
            case TIMESTAMP -> setTimestamp(index, from.getTimestamp(fromIndex));
            case ENUM -> setEnum(index, from.getEnum(fromIndex));
            case STRING -> {
                if (!from.has(fromIndex)) {
                    yield setString(index, from.getString(fromIndex));
                }
                final int source = from.offset + from.layout.offset(fromIndex);
                final int bytes = from.buffer.getShort(source, ORDER) & 0xffff;
                mutable.putBytes(stringOf(index, bytes), from.buffer, source + 2, bytes);
                yield this;
            }
        };
    }

    /**
     * Why this record cannot be read, or null when it is sound: kind, marker, version, length, and
     * every present field's value (enum ordinals, string lengths, finite doubles, timestamps).
     */
    public String validate() {
        return RecordValidation.problemOf(this);
    }

    private int at(final int index, final FieldType type) {
        if (layout.type(index) != type) {
            final Field field = layout.field(index);
            throw new IllegalArgumentException("field " + field.name() + " is " + field.type().yamlName() + ", not " + type.yamlName());
        }
        return offset + layout.offset(index);
    }

    private Object defaultOf(final int index) {
        final Field field = layout.field(index);
        if (field.defaultValue() == null) {
            throw new IllegalStateException("record of " + length + " bytes lacks field " + field.name() + ", which has no default");
        }
        return field.defaultValue();
    }
}
