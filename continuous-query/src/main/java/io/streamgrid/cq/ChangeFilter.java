package io.streamgrid.cq;

import com.hazelcast.function.PredicateEx;
import com.hazelcast.map.EventJournalMapEvent;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.DataSerializable;

import java.io.IOException;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Member-side filter of a map's event journal for one or several subscriptions: passes a change
 * when the old or the new value matches any of its predicates, so that entries entering and leaving
 * a result both reach the subscribers and nothing else crosses the network. Several predicates are
 * one journal read shared by several subscriptions of a map; each subscriber keeps what matches its
 * own.
 *
 * <p>Failure behaviour: with one predicate, a predicate that throws on a value (a field the value
 * does not have: {@link UnknownFieldException}) fails the read, as a query with it would. With
 * several, such a change passes instead — one subscriber's wrong predicate must not stop the
 * others' reads — and the subscriber whose predicate it is meets the same exception on the client.
 *
 * <p>It travels with every journal read, so it is written as its predicates' texts
 * ({@link DataSerializable}: the class name, a count and the strings) and the member parses each
 * text once (a small cache). Java serialization of the parsed tree cost a class-descriptor parse per
 * read on the member's partition thread.
 */
public final class ChangeFilter implements PredicateEx<EventJournalMapEvent<Object, Object>>, DataSerializable {
    private static final long serialVersionUID = 1L;
    /** Parsed predicates by text, on the members; cleared when it grows past its bound. */
    private static final Map<String, Where> PARSED = new ConcurrentHashMap<>();
    private static final int PARSED_BOUND = 1_024;

    private Where[] wheres;

    /** For deserialization only. */
    public ChangeFilter() {
    }

    public ChangeFilter(final Where where) {
        this.wheres = new Where[] {Objects.requireNonNull(where, "where")};
    }

    private ChangeFilter(final Where[] wheres) {
        this.wheres = wheres;
    }

    /**
     * A filter passing what any of {@code wheres} passes; predicates of the same text count once.
     *
     * @throws IllegalArgumentException when {@code wheres} is empty
     */
    public static ChangeFilter anyOf(final Collection<Where> wheres) {
        final Map<String, Where> byText = new LinkedHashMap<>();
        for (final Where where : wheres) {
            byText.putIfAbsent(where.text(), Objects.requireNonNull(where, "where"));
        }
        if (byText.isEmpty()) {
            throw new IllegalArgumentException("a change filter needs at least one predicate");
        }
        return new ChangeFilter(byText.values().toArray(new Where[0]));
    }

    /** Its predicates, in the order given, each text once. */
    public List<Where> wheres() {
        return List.of(wheres);
    }

    /** Whether it passes every change {@code where} passes (it has a predicate of the same text). */
    public boolean includes(final Where where) {
        for (final Where mine : wheres) {
            if (mine.text().equals(where.text())) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean testEx(final EventJournalMapEvent<Object, Object> event) {
        if (wheres.length == 1) {
            return passes(wheres[0], event);
        }
        for (final Where where : wheres) {
            try {
                if (passes(where, event)) {
                    return true;
                }
            } catch (final RuntimeException e) {
                return true; // the subscriber of this predicate meets it on the client; the others read on
            }
        }
        return false;
    }

    private static boolean passes(final Where where, final EventJournalMapEvent<Object, Object> event) {
        return where.test(event.getNewValue()) || where.test(event.getOldValue());
    }

    @Override
    public void writeData(final ObjectDataOutput out) throws IOException {
        out.writeInt(wheres.length);
        for (final Where where : wheres) {
            out.writeString(where.text());
        }
    }

    @Override
    public void readData(final ObjectDataInput in) throws IOException {
        final int count = in.readInt();
        if (count < 1) {
            throw new IOException("a change filter with " + count + " predicates");
        }
        wheres = new Where[count];
        for (int i = 0; i < count; i++) {
            wheres[i] = parsed(in.readString());
        }
    }

    private static Where parsed(final String text) {
        Where parsed = PARSED.get(text);
        if (parsed == null) {
            parsed = Where.parse(text);
            if (PARSED.size() >= PARSED_BOUND) {
                PARSED.clear();
            }
            PARSED.put(text, parsed);
        }
        return parsed;
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof ChangeFilter filter && Arrays.equals(texts(filter.wheres), texts(wheres));
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(texts(wheres));
    }

    private static String[] texts(final Where[] wheres) {
        final String[] texts = new String[wheres.length];
        for (int i = 0; i < wheres.length; i++) {
            texts[i] = wheres[i].text();
        }
        return texts;
    }

    @Override
    public String toString() {
        return "ChangeFilter" + Arrays.toString(texts(wheres));
    }
}
