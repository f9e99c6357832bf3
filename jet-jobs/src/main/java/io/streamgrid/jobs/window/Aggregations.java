package io.streamgrid.jobs.window;

import io.streamgrid.jobs.schema.KeyPartitions;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.schema.TypedField;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;
import java.util.Objects;

/**
 * The built-in window aggregations, for {@link io.streamgrid.jobs.pipeline.WindowedJob#builder}:
 * count, sum, min, max and average of a numeric field, and an approximate count of a field's
 * distinct values. Fields are given as handles resolved from the job's schema
 * ({@code EventSchema.longField("bytes")}). Count, sum and average deduct, so sliding windows over
 * them are updated incrementally (one combine and one deduct per slide); min, max and the distinct
 * count rebuild a window from its slices when they emit it. None allocates per event.
 */
public final class Aggregations {
    private Aggregations() {
    }

    /** The number of events. */
    public static WindowAggregation<Counter> count() {
        return new Counter.Counting();
    }

    /** The sum of a long field (wrapping on overflow, as Java's long arithmetic does). */
    public static WindowAggregation<LongValue> sum(final TypedField.LongField field) {
        return new LongAggregation(field, LongOp.SUM);
    }

    public static WindowAggregation<LongValue> min(final TypedField.LongField field) {
        return new LongAggregation(field, LongOp.MIN);
    }

    public static WindowAggregation<LongValue> max(final TypedField.LongField field) {
        return new LongAggregation(field, LongOp.MAX);
    }

    /** The sum of a double field; deducting keeps it up to date, so rounding may differ in the last bits from a sum made afresh. */
    public static WindowAggregation<DoubleValue> sum(final TypedField.DoubleField field) {
        return new DoubleAggregation(field, LongOp.SUM);
    }

    public static WindowAggregation<DoubleValue> min(final TypedField.DoubleField field) {
        return new DoubleAggregation(field, LongOp.MIN);
    }

    public static WindowAggregation<DoubleValue> max(final TypedField.DoubleField field) {
        return new DoubleAggregation(field, LongOp.MAX);
    }

    public static WindowAggregation<Average> average(final TypedField.LongField field) {
        return new AverageAggregation(Objects.requireNonNull(field, "field").index(), false);
    }

    public static WindowAggregation<Average> average(final TypedField.DoubleField field) {
        return new AverageAggregation(Objects.requireNonNull(field, "field").index(), true);
    }

    /** The approximate number of distinct values of a long field ({@link DistinctSketch}: about 3 % error). */
    public static WindowAggregation<DistinctSketch> approxDistinct(final TypedField.LongField field) {
        return new DistinctAggregation(Objects.requireNonNull(field, "field").index(), false);
    }

    /** The approximate number of distinct values of a string field, hashed in place (no String made). */
    public static WindowAggregation<DistinctSketch> approxDistinct(final TypedField.StringField field) {
        return new DistinctAggregation(Objects.requireNonNull(field, "field").index(), true);
    }

    private enum LongOp { SUM, MIN, MAX }

    private record LongAggregation(TypedField.LongField field, LongOp op) implements WindowAggregation<LongValue>, Serializable {
        LongAggregation {
            Objects.requireNonNull(field, "field");
        }

        private long identity() {
            return op == LongOp.SUM ? 0 : op == LongOp.MIN ? Long.MAX_VALUE : Long.MIN_VALUE;
        }

        private long apply(final long a, final long b) {
            return op == LongOp.SUM ? a + b : op == LongOp.MIN ? Math.min(a, b) : Math.max(a, b);
        }

        @Override
        public LongValue create() {
            return new LongValue(identity());
        }

        @Override
        public void accumulate(final LongValue accumulator, final SchemaRecord event) {
            accumulator.value = apply(accumulator.value, event.get(field));
        }

        @Override
        public void combine(final LongValue target, final LongValue other) {
            target.value = apply(target.value, other.value);
        }

        @Override
        public boolean deducts() {
            return op == LongOp.SUM;
        }

        @Override
        public void deduct(final LongValue target, final LongValue other) {
            target.value -= other.value;
        }

        @Override
        public boolean reset(final LongValue accumulator) {
            accumulator.value = identity();
            return true;
        }

        @Override
        public void write(final LongValue accumulator, final DataOutput out) throws IOException {
            VarLongs.writeSigned(out, accumulator.value);
        }

        @Override
        public LongValue read(final DataInput in) throws IOException {
            return new LongValue(VarLongs.readSigned(in));
        }
    }

    private record DoubleAggregation(TypedField.DoubleField field, LongOp op) implements WindowAggregation<DoubleValue>, Serializable {
        DoubleAggregation {
            Objects.requireNonNull(field, "field");
        }

        private double identity() {
            return op == LongOp.SUM ? 0 : op == LongOp.MIN ? Double.POSITIVE_INFINITY : Double.NEGATIVE_INFINITY;
        }

        private double apply(final double a, final double b) {
            return op == LongOp.SUM ? a + b : op == LongOp.MIN ? Math.min(a, b) : Math.max(a, b);
        }

        @Override
        public DoubleValue create() {
            return new DoubleValue(identity());
        }

        @Override
        public void accumulate(final DoubleValue accumulator, final SchemaRecord event) {
            accumulator.value = apply(accumulator.value, event.get(field));
        }

        @Override
        public void combine(final DoubleValue target, final DoubleValue other) {
            target.value = apply(target.value, other.value);
        }

        @Override
        public boolean deducts() {
            return op == LongOp.SUM;
        }

        @Override
        public void deduct(final DoubleValue target, final DoubleValue other) {
            target.value -= other.value;
        }

        @Override
        public boolean reset(final DoubleValue accumulator) {
            accumulator.value = identity();
            return true;
        }

        @Override
        public void write(final DoubleValue accumulator, final DataOutput out) throws IOException {
            out.writeDouble(accumulator.value);
        }

        @Override
        public DoubleValue read(final DataInput in) throws IOException {
            return new DoubleValue(in.readDouble());
        }
    }

    /** {@code index}: the field's; {@code isDouble}: a double field, else a long one. */
    private record AverageAggregation(int index, boolean isDouble) implements WindowAggregation<Average>, Serializable {
        @Override
        public Average create() {
            return new Average();
        }

        @Override
        public void accumulate(final Average accumulator, final SchemaRecord event) {
            accumulator.sum += isDouble ? event.getDouble(index) : event.getLong(index);
            accumulator.count++;
        }

        @Override
        public void combine(final Average target, final Average other) {
            target.sum += other.sum;
            target.count += other.count;
        }

        @Override
        public boolean deducts() {
            return true;
        }

        @Override
        public void deduct(final Average target, final Average other) {
            target.sum -= other.sum;
            target.count -= other.count;
        }

        @Override
        public boolean reset(final Average accumulator) {
            accumulator.sum = 0;
            accumulator.count = 0;
            return true;
        }

        @Override
        public void write(final Average accumulator, final DataOutput out) throws IOException {
            out.writeDouble(accumulator.sum);
            VarLongs.writeSigned(out, accumulator.count);
        }

        @Override
        public Average read(final DataInput in) throws IOException {
            final Average average = new Average();
            average.sum = in.readDouble();
            average.count = VarLongs.readSigned(in);
            return average;
        }
    }

    /** {@code index}: the field's; {@code isString}: a string field (hashed as the log hashes string keys), else a long one. */
    private record DistinctAggregation(int index, boolean isString) implements WindowAggregation<DistinctSketch>, Serializable {
        @Override
        public DistinctSketch create() {
            return new DistinctSketch();
        }

        @Override
        public void accumulate(final DistinctSketch accumulator, final SchemaRecord event) {
            if (isString) {
                accumulator.add(KeyPartitions.stringFieldHash(event, index));
            } else {
                accumulator.add(KeyPartitions.mix(event.getLong(index)));
            }
        }

        @Override
        public void combine(final DistinctSketch target, final DistinctSketch other) {
            target.combine(other);
        }

        @Override
        public boolean reset(final DistinctSketch accumulator) {
            accumulator.clear();
            return true;
        }

        @Override
        public void write(final DistinctSketch accumulator, final DataOutput out) throws IOException {
            accumulator.write(out);
        }

        @Override
        public DistinctSketch read(final DataInput in) throws IOException {
            final DistinctSketch sketch = new DistinctSketch();
            sketch.read(in);
            return sketch;
        }
    }
}
