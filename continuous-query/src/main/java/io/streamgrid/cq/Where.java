package io.streamgrid.cq;

import com.hazelcast.query.Predicate;
import io.streamgrid.cq.impl.WhereParser;

import java.io.Serializable;
import java.util.Map;

/**
 * A predicate on an entry's value, written as SQL-like text over the value's fields:
 * comparisons ({@code = != <> < <= > >=}), {@code AND OR NOT}, parentheses, {@code IN (...)},
 * {@code BETWEEN a AND b}, {@code LIKE 'pat%_'}, {@code IS [NOT] NULL}; literals are numbers,
 * {@code 'strings'} and {@code TRUE}/{@code FALSE}. Fields are record components, Compact
 * fields (GenericRecord) or map keys; {@code this} is the value itself; an enum compares by its
 * name ({@code side = 'BUY'}), as it is stored in Compact form. A comparison with a null
 * field (or a key missing from a map) is false, as in SQL; a field that a record or Compact value
 * does not have at all is an {@link UnknownFieldException} naming the value's fields — a typo fails
 * loudly instead of matching nothing. Empty text matches everything.
 *
 * <p>Immutable and serializable: it runs on the members, so only matching entries and changes
 * cross the network. As a Hazelcast {@link Predicate} it tests the entry's value.
 */
public interface Where extends Predicate<Object, Object>, Serializable {

    /**
     * Parses {@code text}.
     *
     * @throws PredicateSyntaxException naming the position and token of the first error
     */
    static Where parse(final String text) {
        return WhereParser.parse(text);
    }

    /** Whether {@code value} matches; false for null (an absent entry matches nothing). */
    boolean test(Object value);

    @Override
    default boolean apply(final Map.Entry<Object, Object> entry) {
        return test(entry.getValue());
    }

    /** The text this was parsed from. */
    String text();
}
