package io.streamgrid.cq;

import com.hazelcast.function.PredicateEx;
import com.hazelcast.map.EventJournalMapEvent;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.DataSerializable;

import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Member-side filter of a map's event journal for one subscription: passes a change when the old
 * or the new value matches, so that entries entering and leaving the result both reach the
 * subscriber and nothing else crosses the network.
 *
 * <p>It travels with every journal read, so it is written as its predicate's text
 * ({@link DataSerializable}: the class name and one string) and the member parses each text once
 * (a small cache). Java serialization of the parsed tree cost a class-descriptor parse per read on
 * the member's partition thread.
 */
public final class ChangeFilter implements PredicateEx<EventJournalMapEvent<Object, Object>>, DataSerializable {
    private static final long serialVersionUID = 1L;
    /** Parsed predicates by text, on the members; cleared when it grows past its bound. */
    private static final Map<String, Where> PARSED = new ConcurrentHashMap<>();
    private static final int PARSED_BOUND = 1_024;

    private Where where;

    /** For deserialization only. */
    public ChangeFilter() {
    }

    public ChangeFilter(final Where where) {
        this.where = Objects.requireNonNull(where, "where");
    }

    public Where where() {
        return where;
    }

    @Override
    public boolean testEx(final EventJournalMapEvent<Object, Object> event) {
        return where.test(event.getNewValue()) || where.test(event.getOldValue());
    }

    @Override
    public void writeData(final ObjectDataOutput out) throws IOException {
        out.writeString(where.text());
    }

    @Override
    public void readData(final ObjectDataInput in) throws IOException {
        final String text = in.readString();
        Where parsed = PARSED.get(text);
        if (parsed == null) {
            parsed = Where.parse(text);
            if (PARSED.size() >= PARSED_BOUND) {
                PARSED.clear();
            }
            PARSED.put(text, parsed);
        }
        where = parsed;
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof ChangeFilter filter && filter.where.text().equals(where.text());
    }

    @Override
    public int hashCode() {
        return where.text().hashCode();
    }

    @Override
    public String toString() {
        return "ChangeFilter[" + where.text() + "]";
    }
}
