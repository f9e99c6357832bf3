package io.streamgrid.jobs.schema;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Whether a {@link SchemaRecord}'s bytes can be read as a record of its layout
 * ({@link SchemaRecord#validate()}). Every event a job reads is validated, so the common case — a
 * record of exactly the reader's version — is a few short loops over primitive arrays that only say
 * sound or not ({@link #isSound}, {@link FieldChecks}); anything else, and every record they find
 * unsound, goes through the full check that names the problem ({@link #describeProblem}). In NEXMark
 * Q1's profile the check of every record read was a quarter of StreamGrid's time (perf/NOTES.md,
 * 2026-12-07).
 */
final class RecordValidation {
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private RecordValidation() {
    }

    /** Why {@code record} cannot be read, or null when it is sound. */
    static String problemOf(final SchemaRecord record) {
        return isSound(record) ? null : describeProblem(record);
    }

    /**
     * True when {@code record} has exactly its layout's version and length, an event's kind and
     * marker, and every checked field's value in range; false when any of that is not so — also for
     * sound records of another version, which {@link #describeProblem} then judges.
     */
    static boolean isSound(final SchemaRecord record) {
        final SchemaLayout layout = record.layout();
        final DirectBuffer buffer = record.buffer();
        final int offset = record.offset();
        if (record.length() != layout.length() || buffer.getByte(offset + 1) != SchemaLayout.MARKER) {
            return false;
        }
        final byte kind = buffer.getByte(offset);
        if (kind != SchemaLayout.KIND_EVENT && kind != SchemaLayout.KIND_EMITTED && kind != SchemaLayout.KIND_PUBLISHED
                || record.version() != layout.schema().version()) {
            return false;
        }
        return layout.fieldChecks().pass(buffer, offset);
    }

    /** Why {@code record} cannot be read, or null when it is sound: every check, each failure named. */
    static String describeProblem(final SchemaRecord record) {
        final SchemaLayout layout = record.layout();
        final DirectBuffer buffer = record.buffer();
        final int offset = record.offset();
        final int length = record.length();
        if (length < SchemaLayout.HEADER) {
            return "record of " + length + " bytes is shorter than the " + SchemaLayout.HEADER + "-byte header";
        }
        final byte kind = buffer.getByte(offset);
        if (kind != SchemaLayout.KIND_EVENT && kind != SchemaLayout.KIND_EMITTED && kind != SchemaLayout.KIND_PUBLISHED || buffer.getByte(offset + 1) != SchemaLayout.MARKER) {
            return "not an event record of schema " + layout.schema().name() + " (kind " + buffer.getByte(offset) + ")";
        }
        final int version = record.version();
        if (version < 1) {
            return "record of schema version " + version + ", versions start at 1";
        }
        if (version > layout.schema().version() && length < layout.length()) {
            // A later version only appends fields (its log checked that), so its records are longer.
            return "record of schema version " + version + " is " + length + " bytes, shorter than version "
                    + layout.schema().version() + "'s " + layout.length();
        }
        if (!record.has(layout.keyIndex()) || !record.has(layout.eventTimeIndex())) {
            return "record of " + length + " bytes ends before its key or event time";
        }
        if (length != layout.length()) {
            if (version == layout.schema().version()) {
                return "record of " + length + " bytes, but version " + version + " of schema " + layout.schema().name()
                        + " is " + layout.length() + " bytes";
            }
            for (int i = 0; i < layout.fieldCount(); i++) {
                if (!record.has(i) && layout.field(i).defaultValue() == null) {
                    return "record of " + length + " bytes lacks field " + layout.field(i).name() + ", which has no default";
                }
            }
        }
        for (final int i : layout.checkedFields()) {
            if (!record.has(i)) {
                break; // fields are in order: the rest are missing too, and have defaults
            }
            final int at = offset + layout.offset(i);
            final String problem = switch (layout.type(i)) {
                case DOUBLE -> Double.isFinite(buffer.getDouble(at, ORDER)) ? null : "is not a finite number";
                case TIMESTAMP -> buffer.getLong(at, ORDER) >= 0 ? null : "is a negative timestamp";
                case ENUM -> {
                    final int ordinal = buffer.getShort(at, ORDER);
                    yield ordinal >= 0 && ordinal < layout.field(i).symbols().size() ? null : "has no symbol number " + ordinal;
                }
                case STRING -> (buffer.getShort(at, ORDER) & 0xffff) <= layout.field(i).maxLength() ? null
                        : "is longer than its maximum " + layout.field(i).maxLength();
                case BOOLEAN -> buffer.getByte(at) <= 1 && buffer.getByte(at) >= 0 ? null : "is neither true nor false";
                default -> null;
            };
            if (problem != null) {
                return "field " + layout.field(i).name() + " " + problem;
            }
        }
        return null;
    }
}
