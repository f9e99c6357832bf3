package io.streamgrid.jobs.schema;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;
import java.util.List;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;

/**
 * The value checks of one layout's fields, by type, as offsets and limits in primitive arrays: the
 * short check every event read passes ({@link RecordValidation#isSound}). Why not a loop over the
 * fields with a switch on each type: in a micro-measurement of a NEXMark bid (three strings, a
 * timestamp) that took about 21 ns a record against about 10 ns for these loops, header included
 * (perf/NOTES.md, 2026-12-07). Immutable.
 */
final class FieldChecks {
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private final int[] stringOffsets;
    private final int[] stringMaxBytes;
    private final int[] enumOffsets;
    private final int[] enumSymbols;
    private final int[] timestampOffsets;
    private final int[] doubleOffsets;
    private final int[] booleanOffsets;

    FieldChecks(final List<Field> fields, final int[] offsets) {
        stringOffsets = of(fields, FieldType.STRING, i -> offsets[i]);
        stringMaxBytes = of(fields, FieldType.STRING, i -> fields.get(i).maxLength());
        enumOffsets = of(fields, FieldType.ENUM, i -> offsets[i]);
        enumSymbols = of(fields, FieldType.ENUM, i -> fields.get(i).symbols().size());
        timestampOffsets = of(fields, FieldType.TIMESTAMP, i -> offsets[i]);
        doubleOffsets = of(fields, FieldType.DOUBLE, i -> offsets[i]);
        booleanOffsets = of(fields, FieldType.BOOLEAN, i -> offsets[i]);
    }

    /** {@code value} of each field of {@code type}, in field order. */
    private static int[] of(final List<Field> fields, final FieldType type, final IntUnaryOperator value) {
        return IntStream.range(0, fields.size()).filter(i -> fields.get(i).type() == type).map(value).toArray();
    }

    /** Whether every field of a record of this layout at {@code offset}, all fields present, holds a value in range. */
    boolean pass(final DirectBuffer buffer, final int offset) {
        for (int i = 0; i < stringOffsets.length; i++) {
            if ((buffer.getShort(offset + stringOffsets[i], ORDER) & 0xffff) > stringMaxBytes[i]) {
                return false;
            }
        }
        for (final int at : timestampOffsets) {
            if (buffer.getLong(offset + at, ORDER) < 0) {
                return false;
            }
        }
        for (int i = 0; i < enumOffsets.length; i++) {
            final int ordinal = buffer.getShort(offset + enumOffsets[i], ORDER);
            if (ordinal < 0 || ordinal >= enumSymbols[i]) {
                return false;
            }
        }
        for (final int at : doubleOffsets) {
            if (!Double.isFinite(buffer.getDouble(offset + at, ORDER))) {
                return false;
            }
        }
        for (final int at : booleanOffsets) {
            if ((buffer.getByte(offset + at) & 0xfe) != 0) {
                return false;
            }
        }
        return true;
    }
}
