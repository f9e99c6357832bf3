package io.streamgrid.cq;

import com.hazelcast.function.PredicateEx;
import com.hazelcast.map.EventJournalMapEvent;
import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.DataSerializable;
import io.streamgrid.cq.impl.WhereIndex;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
 * ({@link DataSerializable}: the class name and the texts' bytes, made once per filter) and the
 * member parses each set of texts once (a small cache). Java serialization of the parsed tree cost a
 * class-descriptor parse per read on the member's partition thread.
 *
 * <p>Several predicates are tested through a {@link WhereIndex}: those of the shape
 * {@code field = literal} (or {@code IN}) by one read of the field and one lookup, the others one by
 * one — a hundred subscriptions of a map cost about one predicate per change, not a hundred.
 */
public final class ChangeFilter implements PredicateEx<EventJournalMapEvent<Object, Object>>, DataSerializable {
    private static final long serialVersionUID = 1L;
    /** Parsed predicates and their index by wire form, on the members; cleared when it grows past its bound. */
    private static final Map<String, Parsed> PARSED = new ConcurrentHashMap<>();
    private static final int PARSED_BOUND = 1_024;

    private record Parsed(Where[] wheres, WhereIndex index) {
    }

    private Where[] wheres;
    private transient byte[] wire;
    /** Built on first use (a Java-deserialized filter has none yet); a race builds it twice, alike. */
    private transient WhereIndex index;

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
        return passes(event.getOldValue(), event.getNewValue());
    }

    /**
     * Whether a change of a key from {@code oldValue} to {@code newValue} (null: absent) matters to
     * any of the predicates: either value passes one. A single predicate that cannot judge a value
     * throws (its subscriber meets the error); among several, such a change passes.
     */
    public boolean passes(final Object oldValue, final Object newValue) {
        if (wheres.length == 1) {
            return passes(wheres[0], oldValue, newValue);
        }
        try {
            final WhereIndex indexed = index();
            return indexed.anyPasses(newValue) || indexed.anyPasses(oldValue);
        } catch (final RuntimeException e) {
            return true; // the subscriber of this predicate meets it on the client; the others read on
        }
    }

    private WhereIndex index() {
        WhereIndex built = index;
        if (built == null) {
            built = WhereIndex.of(wheres);
            index = built;
        }
        return built;
    }

    private static boolean passes(final Where where, final Object oldValue, final Object newValue) {
        return where.test(newValue) || where.test(oldValue);
    }

    /**
     * Its wire form, made once: the texts, each as its length, a colon and the text, in UTF-8. A
     * filter shared by a hundred subscriptions is written for every read; copying these bytes
     * replaces encoding a hundred strings each time.
     */
    private byte[] wire() {
        byte[] bytes = wire;
        if (bytes == null) {
            final StringBuilder joined = new StringBuilder();
            for (final Where where : wheres) {
                joined.append(where.text().length()).append(':').append(where.text());
            }
            bytes = joined.toString().getBytes(StandardCharsets.UTF_8);
            wire = bytes;
        }
        return bytes;
    }

    @Override
    public void writeData(final ObjectDataOutput out) throws IOException {
        out.writeByteArray(wire());
    }

    @Override
    public void readData(final ObjectDataInput in) throws IOException {
        final byte[] bytes = in.readByteArray();
        final String joined = new String(bytes, StandardCharsets.UTF_8);
        Parsed parsed = PARSED.get(joined);
        if (parsed == null) {
            final Where[] texts = parse(joined);
            parsed = new Parsed(texts, WhereIndex.of(texts));
            if (PARSED.size() >= PARSED_BOUND) {
                PARSED.clear();
            }
            PARSED.put(joined, parsed);
        }
        wheres = parsed.wheres();
        index = parsed.index();
        wire = bytes;
    }

    private static Where[] parse(final String joined) throws IOException {
        final List<Where> parsed = new ArrayList<>();
        int at = 0;
        while (at < joined.length()) {
            final int colon = joined.indexOf(':', at);
            final int length;
            try {
                length = Integer.parseInt(joined, at, colon, 10);
            } catch (final RuntimeException e) {
                throw new IOException("a change filter's wire form is damaged at " + at + ": " + joined, e);
            }
            parsed.add(Where.parse(joined.substring(colon + 1, colon + 1 + length)));
            at = colon + 1 + length;
        }
        if (parsed.isEmpty()) {
            throw new IOException("a change filter without predicates");
        }
        return parsed.toArray(new Where[0]);
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
