package io.streamgrid.jobs.schema;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Fields resolved once by name and type, read and written through their handles. */
class TypedFieldTest {
    static final EventSchema TRADE = EventSchema.builder("trade").stringKey("account", 16).eventTime("ts")
            .string("symbol", 8).float64("price").int64("quantity").int32("venue").bool("dark").enumOf("side", "BUY", "SELL").build();

    static final TypedField.StringField ACCOUNT = TRADE.stringField("account");
    static final TypedField.TimestampField TS = TRADE.timestampField("ts");
    static final TypedField.StringField SYMBOL = TRADE.stringField("symbol");
    static final TypedField.DoubleField PRICE = TRADE.doubleField("price");
    static final TypedField.LongField QUANTITY = TRADE.longField("quantity");
    static final TypedField.IntField VENUE = TRADE.intField("venue");
    static final TypedField.BooleanField DARK = TRADE.booleanField("dark");
    static final TypedField.EnumField SIDE = TRADE.enumField("side");

    @Test
    void when_fieldsAreResolvedOnce_then_theyReadAndWriteWhatTheIndexAccessDoes() {
        final SchemaLayout layout = TRADE.layout();
        assertThat(PRICE.index()).isEqualTo(layout.indexOf("price"));
        final SchemaRecord trade = new SchemaRecord(layout).wrapForWrite(new UnsafeBuffer(new byte[layout.length()]), 0);

        trade.set(ACCOUNT, "acc-1").set(TS, 1_767_225_600_000L).set(SYMBOL, "IBM").set(PRICE, 101.5).set(QUANTITY, 300)
                .set(VENUE, 7).set(DARK, true).set(SIDE, "SELL");

        assertThat(trade.get(ACCOUNT)).isEqualTo("acc-1");
        assertThat(trade.eventTime()).isEqualTo(trade.get(TS)).isEqualTo(1_767_225_600_000L);
        assertThat(trade.equals(SYMBOL, "IBM")).isTrue();
        assertThat(trade.equals(SYMBOL, "SAP")).isFalse();
        assertThat(trade.get(PRICE)).isEqualTo(101.5).isEqualTo(trade.getDouble(layout.indexOf("price")));
        assertThat(trade.get(QUANTITY)).isEqualTo(300);
        assertThat(trade.get(VENUE)).isEqualTo(7);
        assertThat(trade.get(DARK)).isTrue();
        assertThat(trade.get(SIDE)).isEqualTo("SELL");
        assertThat(trade.ordinal(SIDE)).isEqualTo(1);
        assertThat(trade.validate()).isNull();
    }

    @Test
    void when_aFieldIsMissingOrOfAnotherType_then_resolvingItFailsNamingBoth() {
        assertThatThrownBy(() -> TRADE.longField("price")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("field price of schema trade is a double, not a long");
        assertThatThrownBy(() -> TRADE.doubleField("prize")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("schema trade has no field 'prize'").hasMessageContaining("price");
    }
}
