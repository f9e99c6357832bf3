package io.streamgrid.cq;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import com.hazelcast.map.EventJournalMapEvent;
import com.hazelcast.core.EntryEventType;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChangeFilterTest {
    record Quote(String symbol, double price) {
    }

    /** A journal event as the member hands it to the filter. */
    record Change(Object getOldValue, Object getNewValue) implements EventJournalMapEvent<Object, Object> {
        @Override
        public Object getKey() {
            return "k";
        }

        @Override
        public EntryEventType getType() {
            return EntryEventType.UPDATED;
        }

        @Override
        public boolean isAfterLostEvents() {
            return false;
        }
    }

    private final SerializationService serialization = new DefaultSerializationServiceBuilder().build();

    /**
     * The filter travels with every journal read: written as its text it is a few dozen bytes and
     * no Java serialization (whose class descriptors the member parsed on every read).
     */
    @Test
    void when_sentToAMember_then_itTravelsAsItsTextAndFiltersTheSame() throws Exception {
        final ChangeFilter filter = new ChangeFilter(Where.parse("price > 100 AND symbol = 'IBM'"));
        final Data data = serialization.toData(filter);
        final ChangeFilter read = serialization.toObject(data);

        assertThat(read).isEqualTo(filter);
        assertThat(read.wheres().get(0).text()).isEqualTo("price > 100 AND symbol = 'IBM'");
        final Quote cheap = new Quote("IBM", 99);
        final Quote dear = new Quote("IBM", 101);
        assertThat(read.test(new Change(cheap, dear))).as("enters").isTrue();
        assertThat(read.test(new Change(dear, cheap))).as("leaves").isTrue();
        assertThat(read.test(new Change(cheap, cheap))).as("stays out").isFalse();

        final ByteArrayOutputStream java = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(java)) {
            out.writeObject(filter.wheres().get(0));
        }
        System.out.println("filter on the wire: " + data.totalSize() + " bytes; the parsed tree in Java serialization: " + java.size() + " bytes");
        assertThat(data.totalSize()).isLessThan(120).isLessThan(java.size() / 4);
    }

    @Test
    void when_readTwice_then_parsedOnce() {
        final Data data = serialization.toData(new ChangeFilter(Where.parse("price < 7")));
        final ChangeFilter first = serialization.toObject(data);
        final ChangeFilter second = serialization.toObject(data);
        assertThat(second.wheres().get(0)).isSameAs(first.wheres().get(0));
    }

    /** One read shared by several subscriptions: it passes what any of them wants, each text once. */
    @Test
    void when_severalPredicatesShareARead_then_itPassesWhatAnyOfThemPasses() {
        final ChangeFilter union = ChangeFilter.anyOf(List.of(Where.parse("price > 100"), Where.parse("symbol = 'SAP'"),
                Where.parse("price > 100"), Where.parse("symbol = '12:ü'")));
        final ChangeFilter read = serialization.toObject(serialization.toData(union));

        assertThat(read).isEqualTo(union);
        assertThat(read.wheres()).extracting(Where::text).containsExactly("price > 100", "symbol = 'SAP'", "symbol = '12:ü'");
        assertThat(read.test(new Change(null, new Quote("12:ü", 1)))).as("the third's, a text with a colon").isTrue();
        assertThat(read.includes(Where.parse("symbol = 'SAP'"))).isTrue();
        assertThat(read.includes(Where.parse("symbol = 'IBM'"))).isFalse();
        assertThat(read.test(new Change(null, new Quote("IBM", 101)))).as("the first's").isTrue();
        assertThat(read.test(new Change(new Quote("SAP", 5), null))).as("the second's, leaving").isTrue();
        assertThat(read.test(new Change(new Quote("IBM", 5), new Quote("IBM", 6)))).as("nobody's").isFalse();
        assertThatThrownBy(() -> ChangeFilter.anyOf(List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    /**
     * A predicate naming a field the values lack fails a read of its own, but must not stop a read
     * it shares: the change passes and its subscriber meets the error on the client.
     */
    @Test
    void when_onePredicateOfASharedReadThrows_then_theChangePassesButAloneItFails() {
        final Where typo = Where.parse("prise > 100");
        final Change change = new Change(new Quote("IBM", 5), new Quote("IBM", 6));

        assertThatThrownBy(() -> new ChangeFilter(typo).test(change)).isInstanceOf(UnknownFieldException.class);
        assertThat(ChangeFilter.anyOf(List.of(Where.parse("price > 100"), typo)).test(change)).isTrue();
    }
}
