package io.streamgrid.cq.impl;

import com.hazelcast.nio.serialization.FieldKind;
import com.hazelcast.nio.serialization.genericrecord.GenericRecord;

import io.streamgrid.cq.UnknownFieldException;

import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Reads a named field of a value: record component, Compact GenericRecord field, or map entry. A
 * record or Compact value without the field is an {@link UnknownFieldException} naming its fields
 * (a typo must not silently match nothing); a map has no schema, so a missing key reads as null.
 */
public final class FieldAccess {
    private static final Map<Class<?>, Map<String, Method>> ACCESSORS = new ConcurrentHashMap<>();

    private FieldAccess() {
    }

    /**
     * The field's value; an enum reads as its name, as in the value's Compact form (where a
     * GenericRecord holds the name), so a Where matches alike whether a member has the class or not.
     */
    static Object read(final Object value, final String field) {
        final Object read = readRaw(value, field);
        return read instanceof Enum<?> constant ? constant.name() : read;
    }

    private static Object readRaw(final Object value, final String field) {
        if (value == null) {
            return null;
        }
        if ("this".equals(field)) {
            return value;
        }
        if (value instanceof Map<?, ?> map) {
            return map.get(field); // a map may change between two reads: not remembered
        }
        return LAST_READS.get().read(value, field);
    }

    /**
     * The last two fields read on this thread, by value identity. Why: a change offered to many
     * subscriptions of one map is tested by each of their predicates, mostly on the same field of
     * the same two values (old and new) — one reflective read each instead of one per predicate.
     * Records and Compact records are immutable, and the memo keeps them reachable, so an identity
     * match is the same value.
     */
    private static final ThreadLocal<LastReads> LAST_READS = ThreadLocal.withInitial(LastReads::new);

    private static final class LastReads {
        private Object value0;
        private String field0;
        private Object read0;
        private Object value1;
        private String field1;
        private Object read1;

        Object read(final Object value, final String field) {
            if (value == value0 && field.equals(field0)) {
                return read0;
            }
            if (value == value1 && field.equals(field1)) {
                return read1;
            }
            final Object read = readUncached(value, field);
            value1 = value0;
            field1 = field0;
            read1 = read0;
            value0 = value;
            field0 = field;
            read0 = read;
            return read;
        }
    }

    private static Object readUncached(final Object value, final String field) {
        if (value instanceof GenericRecord record) {
            return readGeneric(record, field);
        }
        final Method accessor = ACCESSORS.computeIfAbsent(value.getClass(), FieldAccess::accessorsOf).get(field);
        if (accessor == null) {
            if (value.getClass().isRecord()) {
                throw new UnknownFieldException("a value of type " + value.getClass().getSimpleName() + " has no field '" + field
                        + "'; its fields are " + Arrays.stream(value.getClass().getRecordComponents()).map(RecordComponent::getName).toList());
            }
            return null;
        }
        try {
            return accessor.invoke(value);
        } catch (final ReflectiveOperationException e) {
            throw new IllegalStateException("cannot read field " + field + " of " + value.getClass().getName(), e);
        }
    }

    private static Map<String, Method> accessorsOf(final Class<?> type) {
        final Map<String, Method> accessors = new ConcurrentHashMap<>();
        if (type.isRecord()) {
            for (final RecordComponent component : type.getRecordComponents()) {
                final Method method = component.getAccessor();
                method.setAccessible(true);
                accessors.put(component.getName(), method);
            }
        }
        return accessors;
    }

    /**
     * A value's fields by name, for showing it: a record's components in declaration order, a
     * Compact value's fields by name (nested Compact values as maps of their own), a map's
     * entries; anything else is the single field {@code this}. Enums read as their names.
     */
    public static Map<String, Object> fields(final Object value) {
        final Map<String, Object> fields = new LinkedHashMap<>();
        if (value instanceof GenericRecord record) {
            for (final String name : new TreeSet<>(record.getFieldNames())) {
                fields.put(name, shown(record, name));
            }
        } else if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> fields.put(String.valueOf(k), v));
        } else if (value != null && value.getClass().isRecord()) {
            for (final RecordComponent component : value.getClass().getRecordComponents()) {
                fields.put(component.getName(), read(value, component.getName()));
            }
        } else {
            fields.put("this", value);
        }
        return fields;
    }

    /** A Compact field for showing: what a predicate reads, plus the kinds a predicate cannot compare. */
    private static Object shown(final GenericRecord record, final String field) {
        return switch (record.getFieldKind(field)) {
            case DATE -> record.getDate(field);
            case TIME -> record.getTime(field);
            case TIMESTAMP -> record.getTimestamp(field);
            case TIMESTAMP_WITH_TIMEZONE -> record.getTimestampWithTimezone(field);
            case DECIMAL -> record.getDecimal(field);
            case COMPACT -> {
                final GenericRecord nested = record.getGenericRecord(field);
                yield nested == null ? null : fields(nested);
            }
            case ARRAY_OF_INT32 -> listOf(record.getArrayOfInt32(field));
            case ARRAY_OF_INT64 -> listOf(record.getArrayOfInt64(field));
            case ARRAY_OF_FLOAT64 -> listOf(record.getArrayOfFloat64(field));
            case ARRAY_OF_STRING -> listOf(record.getArrayOfString(field));
            case ARRAY_OF_COMPACT -> listOf(record.getArrayOfGenericRecord(field));
            default -> readGeneric(record, field);
        };
    }

    /** An array field as a list (null stays null), nested Compact values as maps of their fields. */
    private static List<Object> listOf(final Object array) {
        if (array == null) {
            return null;
        }
        final List<Object> items = new ArrayList<>(Array.getLength(array));
        for (int i = 0; i < Array.getLength(array); i++) {
            final Object item = Array.get(array, i);
            items.add(item instanceof GenericRecord nested ? fields(nested) : item);
        }
        return items;
    }

    private static Object readGeneric(final GenericRecord record, final String field) {
        final FieldKind kind = record.getFieldKind(field);
        return switch (kind) {
            case NOT_AVAILABLE -> throw new UnknownFieldException("a Compact value has no field '" + field + "'; its fields are "
                    + new TreeSet<>(record.getFieldNames()));
            case BOOLEAN -> record.getBoolean(field);
            case INT8 -> record.getInt8(field);
            case INT16 -> record.getInt16(field);
            case INT32 -> record.getInt32(field);
            case INT64 -> record.getInt64(field);
            case FLOAT32 -> record.getFloat32(field);
            case FLOAT64 -> record.getFloat64(field);
            case STRING -> record.getString(field);
            case NULLABLE_BOOLEAN -> record.getNullableBoolean(field);
            case NULLABLE_INT32 -> record.getNullableInt32(field);
            case NULLABLE_INT64 -> record.getNullableInt64(field);
            case NULLABLE_FLOAT64 -> record.getNullableFloat64(field);
            default -> null;
        };
    }
}
