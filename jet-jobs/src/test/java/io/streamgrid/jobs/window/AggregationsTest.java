package io.streamgrid.jobs.window;

import io.streamgrid.jobs.event.BuiltInEvents;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.event.SensorKind;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.schema.TypedField;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The built-in aggregations against values computed by hand: three slices of readings combined into
 * a window equal the aggregate of all readings; a deducting one, after a slice is deducted, equals
 * the aggregate of the rest; every accumulator comes back equal from its snapshot bytes; the
 * distinct-count sketch stays within its error at small and large counts.
 */
class AggregationsTest {
    private static final TypedField.DoubleField VALUE = EventType.SENSOR.schema().doubleField("value");
    private static final TypedField.LongField DESTINATION = EventType.REQUEST.schema().longField("destination");
    private final BuiltInEvents events = new BuiltInEvents();

    @Test
    void when_slicesCombined_then_eachAggregationEqualsItsValueOverAllEvents() throws IOException {
        final double[][] values = {{3.5, -1.25, 8}, {2, 2, 9.75, 0.5}, {-4, 6}};
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        int n = 0;
        for (final double[] slice : values) {
            for (final double v : slice) {
                sum += v;
                min = Math.min(min, v);
                max = Math.max(max, v);
                n++;
            }
        }
        assertThat(window(Aggregations.sum(VALUE), values).value()).isCloseTo(sum, within(1e-9));
        assertThat(window(Aggregations.min(VALUE), values).value()).isEqualTo(min);
        assertThat(window(Aggregations.max(VALUE), values).value()).isEqualTo(max);
        assertThat(window(Aggregations.average(VALUE), values).value()).isCloseTo(sum / n, within(1e-9));
        assertThat(window(Aggregations.count(), values).value()).isEqualTo(n);

        final long[][] longs = {{7, -3, 12}, {5}, {40, 1}};
        assertThat(longWindow(Aggregations.sum(DESTINATION), longs).value()).isEqualTo(62);
        assertThat(longWindow(Aggregations.min(DESTINATION), longs).value()).isEqualTo(-3);
        assertThat(longWindow(Aggregations.max(DESTINATION), longs).value()).isEqualTo(40);
        assertThat(longWindow(Aggregations.average(DESTINATION), longs).value()).isCloseTo(62 / 6.0, within(1e-9));
    }

    @Test
    void when_aSliceIsDeducted_then_theDeductingAggregationsEqualTheRest() {
        final WindowAggregation<DoubleValue> sum = Aggregations.sum(VALUE);
        final WindowAggregation<Average> average = Aggregations.average(VALUE);
        final WindowAggregation<Counter> count = Aggregations.count();
        assertThat(sum.deducts() && average.deducts() && count.deducts()).isTrue();
        assertThat(Aggregations.min(VALUE).deducts() || Aggregations.max(VALUE).deducts()
                || Aggregations.approxDistinct(DESTINATION).deducts()).as("min, max and distinct cannot deduct").isFalse();
        final double[][] values = {{1, 2, 3}, {10, 20}};
        final DoubleValue window = window(sum, values);
        sum.deduct(window, slice(sum, values[0]));
        assertThat(window.value()).isCloseTo(30, within(1e-9));
        final Average mean = window(average, values);
        average.deduct(mean, slice(average, values[0]));
        assertThat(mean.value()).isCloseTo(15, within(1e-9));
        assertThat(mean.count()).isEqualTo(2);
    }

    @Test
    void when_writtenAndRead_then_everyAccumulatorIsEqual() throws IOException {
        final double[][] values = {{1.5, 2.25}, {-7}};
        assertThat(roundTrip(Aggregations.sum(VALUE), window(Aggregations.sum(VALUE), values), DoubleValue::value)).isEqualTo(-3.25);
        assertThat(roundTrip(Aggregations.average(VALUE), window(Aggregations.average(VALUE), values), Average::value))
                .isCloseTo(-3.25 / 3, within(1e-12));
        final long[][] longs = {{1_000_000_000_000L, -5}};
        assertThat(roundTrip(Aggregations.max(DESTINATION), longWindow(Aggregations.max(DESTINATION), longs), LongValue::value))
                .isEqualTo(1_000_000_000_000L);
        final WindowAggregation<DistinctSketch> distinct = Aggregations.approxDistinct(DESTINATION);
        final DistinctSketch sketch = distinct.create();
        for (long d = 0; d < 5_000; d++) {
            distinct.accumulate(sketch, events.request(1, d, 1, d, 100, 200));
        }
        assertThat(roundTrip(distinct, sketch, DistinctSketch::estimate)).isEqualTo(sketch.estimate());
    }

    @Test
    void when_manyValuesRepeat_then_theDistinctCountIsWithinItsError() {
        final WindowAggregation<DistinctSketch> distinct = Aggregations.approxDistinct(DESTINATION);
        final SplittableRandom random = new SplittableRandom(7);
        for (final int cardinality : new int[] {1, 10, 300, 5_000, 200_000}) {
            // Two slices sharing half their values: combined, each distinct value counts once.
            final DistinctSketch first = distinct.create();
            final DistinctSketch second = distinct.create();
            final Set<Long> drawn = new HashSet<>();
            for (int i = 0; i < cardinality * 3; i++) {
                final long value = random.nextInt(cardinality);
                drawn.add(value);
                distinct.accumulate(value % 2 == 0 ? first : second, events.request(1, i, 1, value, 100, 200));
                if (value % 4 == 0) {
                    distinct.accumulate(second, events.request(1, i, 1, value, 100, 200));
                }
            }
            distinct.combine(first, second);
            final long seen = drawn.size();
            final double error = Math.abs(first.estimate() - seen) / (double) seen;
            System.out.printf("approxDistinct: %,d distinct, estimated %,d (%.2f %% off)%n", seen, first.estimate(), 100 * error);
            assertThat(error).as("relative error at %d distinct values", seen).isLessThan(seen < 1_000 ? 0.03 : 0.08);
        }
    }

    private <A> A window(final WindowAggregation<A> aggregation, final double[][] slices) {
        final A window = aggregation.create();
        for (final double[] slice : slices) {
            aggregation.combine(window, slice(aggregation, slice));
        }
        return window;
    }

    private <A> A slice(final WindowAggregation<A> aggregation, final double[] values) {
        final A slice = aggregation.create();
        for (final double v : values) {
            aggregation.accumulate(slice, reading(v));
        }
        return slice;
    }

    private <A> A longWindow(final WindowAggregation<A> aggregation, final long[][] slices) {
        final A window = aggregation.create();
        for (final long[] slice : slices) {
            final A part = aggregation.create();
            for (final long v : slice) {
                aggregation.accumulate(part, events.request(1, 0, 1, v, 100, 200));
            }
            aggregation.combine(window, part);
        }
        return window;
    }

    private SchemaRecord reading(final double value) {
        return events.sensor(1, 0, 1, SensorKind.TEMPERATURE, value);
    }

    private static <A, R> R roundTrip(final WindowAggregation<A> aggregation, final A accumulator, final Function<A, R> value)
            throws IOException {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        aggregation.write(accumulator, new DataOutputStream(bytes));
        return value.apply(aggregation.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))));
    }
}
