package io.streamgrid.cq;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import com.hazelcast.map.EventJournalMapEvent;
import com.hazelcast.core.EntryEventType;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;

import static org.assertj.core.api.Assertions.assertThat;

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
        assertThat(read.where().text()).isEqualTo("price > 100 AND symbol = 'IBM'");
        final Quote cheap = new Quote("IBM", 99);
        final Quote dear = new Quote("IBM", 101);
        assertThat(read.test(new Change(cheap, dear))).as("enters").isTrue();
        assertThat(read.test(new Change(dear, cheap))).as("leaves").isTrue();
        assertThat(read.test(new Change(cheap, cheap))).as("stays out").isFalse();

        final ByteArrayOutputStream java = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(java)) {
            out.writeObject(filter.where());
        }
        System.out.println("filter on the wire: " + data.totalSize() + " bytes; the parsed tree in Java serialization: " + java.size() + " bytes");
        assertThat(data.totalSize()).isLessThan(120).isLessThan(java.size() / 4);
    }

    @Test
    void when_readTwice_then_parsedOnce() {
        final Data data = serialization.toData(new ChangeFilter(Where.parse("price < 7")));
        final ChangeFilter first = serialization.toObject(data);
        final ChangeFilter second = serialization.toObject(data);
        assertThat(second.where()).isSameAs(first.where());
    }
}
