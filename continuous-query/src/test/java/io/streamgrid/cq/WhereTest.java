package io.streamgrid.cq;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WhereTest {
    record Quote(String symbol, double price, long volume, String venue, Boolean halted) {
    }

    private final Quote ibm = new Quote("IBM", 101.5, 3_000, "XNYS", false);
    private final Quote sap = new Quote("SAP", 99.0, 500, null, true);

    @Test
    void when_comparisonsAndLogic_then_evaluatedOnRecordFields() {
        assertThat(Where.parse("price > 100 AND volume >= 3000").test(ibm)).isTrue();
        assertThat(Where.parse("price > 100 AND volume >= 3000").test(sap)).isFalse();
        assertThat(Where.parse("symbol = 'SAP' OR price > 1000").test(sap)).isTrue();
        assertThat(Where.parse("NOT (symbol = 'SAP')").test(sap)).isFalse();
        assertThat(Where.parse("price <> 99").test(sap)).isFalse();
        assertThat(Where.parse("halted = TRUE").test(sap)).isTrue();
    }

    @Test
    void when_inBetweenLikeIsNull_then_sqlSemantics() {
        assertThat(Where.parse("symbol IN ('IBM', 'MSFT')").test(ibm)).isTrue();
        assertThat(Where.parse("symbol NOT IN ('IBM')").test(sap)).isTrue();
        assertThat(Where.parse("price BETWEEN 99 AND 100").test(sap)).isTrue();
        assertThat(Where.parse("symbol LIKE 'I_M'").test(ibm)).isTrue();
        assertThat(Where.parse("venue LIKE 'X%'").test(ibm)).isTrue();
        assertThat(Where.parse("venue IS NULL").test(sap)).isTrue();
        assertThat(Where.parse("venue IS NOT NULL").test(sap)).isFalse();
        assertThat(Where.parse("venue = 'XNYS'").test(sap)).as("null compares false").isFalse();
        assertThat(Where.parse("venue != 'XNYS'").test(sap)).as("null compares false").isFalse();
    }

    enum Side { BUY, SELL }

    record Trade(String symbol, Side side, long quantity) {
    }

    /**
     * An enum field compares with a string literal by its name, as it does in the value's Compact
     * form (a GenericRecord holds the name): the same Where must match the same values on members
     * that deserialise to the class and on those that read the Compact record.
     */
    @Test
    void when_fieldIsAnEnum_then_itComparesByName() {
        final Trade buy = new Trade("IBM", Side.BUY, 100);
        assertThat(Where.parse("side = 'BUY'").test(buy)).isTrue();
        assertThat(Where.parse("side != 'BUY'").test(buy)).isFalse();
        assertThat(Where.parse("side IN ('SELL', 'BUY')").test(buy)).isTrue();
        assertThat(Where.parse("side LIKE 'B%'").test(buy)).isTrue();
        final com.hazelcast.nio.serialization.genericrecord.GenericRecord compact =
                com.hazelcast.nio.serialization.genericrecord.GenericRecordBuilder.compact("trade")
                        .setString("symbol", "IBM").setString("side", "BUY").setInt64("quantity", 100).build();
        assertThat(Where.parse("side = 'BUY'").test(compact)).isTrue();
    }

    @Test
    void when_fieldIsNotInTheValuesSchema_then_errorNamesItAndTheFields() {
        assertThatThrownBy(() -> Where.parse("pric > 100").test(ibm)).isInstanceOf(UnknownFieldException.class)
                .hasMessage("a value of type Quote has no field 'pric'; its fields are [symbol, price, volume, venue, halted]");
        final com.hazelcast.nio.serialization.genericrecord.GenericRecord compact =
                com.hazelcast.nio.serialization.genericrecord.GenericRecordBuilder.compact("quote")
                        .setString("symbol", "IBM").setFloat64("price", 101.5).build();
        assertThat(Where.parse("price > 100").test(compact)).isTrue();
        assertThatThrownBy(() -> Where.parse("symbol = 'IBM' AND volume > 1").test(compact)).isInstanceOf(UnknownFieldException.class)
                .hasMessage("a Compact value has no field 'volume'; its fields are [price, symbol]");
        assertThat(Where.parse("venue IS NULL").test(sap)).as("a field that is there but null is no error").isTrue();
        assertThat(Where.parse("b = 1").test(Map.of("a", 1))).as("a map has no schema: a missing key is null").isFalse();
    }

    @Test
    void when_valueIsScalarOrMap_then_thisAndKeysWork() {
        assertThat(Where.parse("this > 10").test(11L)).isTrue();
        assertThat(Where.parse("a = 1").test(Map.of("a", 1))).isTrue();
        assertThat(Where.parse("").test(ibm)).isTrue();
        assertThat(Where.parse("").test(null)).as("absent matches nothing").isFalse();
    }

    @Test
    void when_textInvalid_then_exceptionNamesPositionAndToken() {
        assertThatThrownBy(() -> Where.parse("price >> 3")).isInstanceOf(PredicateSyntaxException.class)
                .hasMessageContaining("expected a literal").hasMessageContaining("position 8").hasMessageContaining("token '>'");
        assertThatThrownBy(() -> Where.parse("price > 3 AND")).isInstanceOf(PredicateSyntaxException.class)
                .hasMessageContaining("expected a field name").hasMessageContaining("position 14").hasMessageContaining("(end of text)");
        assertThatThrownBy(() -> Where.parse("symbol = 'IBM")).isInstanceOf(PredicateSyntaxException.class)
                .hasMessageContaining("unterminated string").hasMessageContaining("position 10");
        assertThatThrownBy(() -> Where.parse("(price > 3")).isInstanceOf(PredicateSyntaxException.class)
                .hasMessageContaining("expected ')'");
        final PredicateSyntaxException e = (PredicateSyntaxException) org.assertj.core.api.Assertions.catchThrowable(
                () -> Where.parse("price BETWEEN 1 OR 2"));
        assertThat(e.position()).isEqualTo(17);
        assertThat(e.token()).isEqualTo("OR");
    }

    /**
     * Field reads are remembered per value (many subscriptions test the same change): three
     * values and two fields in turn must each read their own, and a map — which may change between
     * two tests — is read afresh.
     */
    @Test
    void when_valuesAndFieldsAlternate_then_eachTestReadsItsOwnAndAChangedMapIsReadAfresh() {
        final Where cheap = Where.parse("price < 10");
        final Where ibm = Where.parse("symbol = 'IBM'");
        final Quote a = new Quote("IBM", 5, 1, "X", false);
        final Quote b = new Quote("SAP", 50, 1, "X", false);
        final Quote c = new Quote("IBM", 500, 1, "X", false);
        for (int round = 0; round < 3; round++) {
            assertThat(cheap.test(a)).isTrue();
            assertThat(ibm.test(b)).isFalse();
            assertThat(cheap.test(c)).isFalse();
            assertThat(ibm.test(a)).isTrue();
            assertThat(cheap.test(b)).isFalse();
            assertThat(ibm.test(c)).isTrue();
        }
        final java.util.Map<String, Object> map = new java.util.HashMap<>(java.util.Map.of("price", 5));
        assertThat(cheap.test(map)).isTrue();
        map.put("price", 50);
        assertThat(cheap.test(map)).isFalse();
    }
}
