package io.streamgrid.cq.impl;

import io.streamgrid.cq.UnknownFieldException;
import io.streamgrid.cq.Where;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WhereIndexTest {
    /** A value whose fields have every type a predicate compares, one of them boxed so it may be null. */
    record Row(long count, int small, double price, float ratio, String symbol, char grade, boolean open, Long maybe) {
    }

    /** Literals around the edges where a double and a long stop being exact, and the usual ones. */
    private static final String[] NUMBERS = {"0", "1", "7", "-3", "2.0", "2.5", "-0.0", "0.0", "9007199254740992",
            "9007199254740991", "9007199254740993", "9007199254740992.0", "1e300"};

    @Test
    void when_manyPredicatesOfEveryShapeTestRandomValues_then_theIndexAnswersExactlyAsTestingEachOne() {
        final Random random = new Random(48);
        for (int round = 0; round < 200; round++) {
            final List<Where> wheres = new ArrayList<>();
            for (int i = 0; i < 1 + random.nextInt(40); i++) {
                wheres.add(Where.parse(randomPredicate(random)));
            }
            final WhereIndex index = WhereIndex.of(wheres.toArray(new Where[0]));
            for (int v = 0; v < 200; v++) {
                final Object value = randomValue(random);
                assertThat(index.anyPasses(value)).as("%s on %s", wheres, value)
                        .isEqualTo(wheres.stream().anyMatch(w -> w.test(value)));
            }
        }
    }

    @Test
    void when_subscriptionsAskForOneFieldEqualToDifferentValues_then_noneIsTestedOneByOne() {
        final List<Where> wheres = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            wheres.add(Where.parse("count = " + i));
        }
        wheres.add(Where.parse("symbol IN ('IBM', 'AAPL')"));
        wheres.add(Where.parse("price = 2.5")); // not whole: tested one by one
        final WhereIndex index = WhereIndex.of(wheres.toArray(new Where[0]));

        assertThat(index.unindexed()).isEqualTo(1);
        assertThat(index.anyPasses(row(42, 1.0, "X"))).isTrue();
        assertThat(index.anyPasses(row(100, 1.0, "X"))).isFalse();
        assertThat(index.anyPasses(row(100, 1.0, "AAPL"))).isTrue();
        assertThat(index.anyPasses(row(100, 2.5, "X"))).isTrue();
        assertThat(index.anyPasses(null)).isFalse();
    }

    @Test
    void when_aValueLacksAnIndexedField_then_itThrowsAsThePredicateWould() {
        final WhereIndex index = WhereIndex.of(new Where[] {Where.parse("cuont = 1"), Where.parse("count = 2")});
        assertThatThrownBy(() -> index.anyPasses(row(2, 0, "X"))).isInstanceOf(UnknownFieldException.class);
    }

    private static Row row(final long count, final double price, final String symbol) {
        return new Row(count, 0, price, 0f, symbol, 'a', true, null);
    }

    private static String randomPredicate(final Random random) {
        final String[] numericFields = {"count", "small", "price", "ratio", "maybe"};
        final String field = numericFields[random.nextInt(numericFields.length)];
        return switch (random.nextInt(8)) {
            case 0, 1, 2 -> field + " = " + NUMBERS[random.nextInt(NUMBERS.length)];
            case 3 -> field + " IN (" + NUMBERS[random.nextInt(NUMBERS.length)] + ", " + NUMBERS[random.nextInt(NUMBERS.length)] + ")";
            case 4 -> random.nextBoolean() ? "symbol = '" + (char) ('A' + random.nextInt(3)) + "'" : "grade = '" + (char) ('a' + random.nextInt(3)) + "'";
            case 5 -> "open = " + random.nextBoolean();
            case 6 -> field + " > " + NUMBERS[random.nextInt(NUMBERS.length)];
            default -> field + " = " + NUMBERS[random.nextInt(NUMBERS.length)] + " AND open = true";
        };
    }

    private static Object randomValue(final Random random) {
        final String number = NUMBERS[random.nextInt(NUMBERS.length)];
        final double d = Double.parseDouble(number);
        final long l = number.contains(".") || number.contains("e") ? (long) d : Long.parseLong(number);
        final Row row = new Row(random.nextBoolean() ? l : random.nextInt(9) - 3, (int) (l % 100), random.nextBoolean() ? d : l,
                (float) d, String.valueOf((char) ('A' + random.nextInt(3))), (char) ('a' + random.nextInt(3)), random.nextBoolean(),
                random.nextInt(3) == 0 ? null : l);
        if (random.nextInt(5) > 0) {
            return row;
        }
        final Map<String, Object> map = new HashMap<>(); // no schema: a missing field reads as null
        map.put("count", random.nextBoolean() ? (Object) d : (Object) l);
        map.put("symbol", row.symbol());
        return map;
    }
}
