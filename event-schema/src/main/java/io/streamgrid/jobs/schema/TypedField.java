package io.streamgrid.jobs.schema;

import java.io.Serializable;

/**
 * A field of a schema resolved once, by name and type, into its index: what a job keeps in a
 * constant instead of looking fields up by name per event or caching a layout by hand.
 * {@code static final DoubleField PRICE = TRADE.doubleField("price");} fails when the class loads —
 * when the job is built — if the schema has no such field or it has another type, naming both; then
 * {@code trade.get(PRICE)} reads it with no lookup and no boxing.
 *
 * <p>A handle is valid for every version of its schema (versions only append fields) and for its
 * schema only: reading a record of another schema through it reads the wrong bytes. Serializable,
 * so a function holding handles travels to the members with them.
 */
public sealed interface TypedField extends Serializable
        permits TypedField.IntField, TypedField.LongField, TypedField.DoubleField, TypedField.BooleanField,
        TypedField.TimestampField, TypedField.EnumField, TypedField.StringField {
    /** The field's name in its schema. */
    String name();

    /** The field's index in its schema's layout. */
    int index();

    record IntField(String name, int index) implements TypedField {
    }

    record LongField(String name, int index) implements TypedField {
    }

    record DoubleField(String name, int index) implements TypedField {
    }

    record BooleanField(String name, int index) implements TypedField {
    }

    record TimestampField(String name, int index) implements TypedField {
    }

    record EnumField(String name, int index) implements TypedField {
    }

    record StringField(String name, int index) implements TypedField {
    }
}
