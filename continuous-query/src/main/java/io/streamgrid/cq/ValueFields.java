package io.streamgrid.cq;

import io.streamgrid.cq.impl.FieldAccess;

import java.util.Map;

/** A map value's fields by name, read the way a {@link Where} reads them: for showing values to people. */
public final class ValueFields {
    private ValueFields() {
    }

    /**
     * The fields of {@code value}: a record's components in declaration order, a Compact value's
     * fields (GenericRecord, when the reader lacks its class) sorted by name with nested Compact
     * values as maps, a map's entries; anything else (a String, a number) is the one field
     * {@code this}. Enums read as their names.
     */
    public static Map<String, Object> of(final Object value) {
        return FieldAccess.fields(value);
    }
}
