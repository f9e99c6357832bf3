package io.streamgrid.jobs.window;

import io.streamgrid.jobs.schema.SchemaRecord;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;

/** A mutable count: the accumulator of counting windows. */
public final class Counter {
    long value;

    public long value() {
        return value;
    }

    /** Counts every event. */
    public static final class Counting implements WindowAggregation<Counter>, Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public Counter create() {
            return new Counter();
        }

        @Override
        public void accumulate(final Counter accumulator, final SchemaRecord event) {
            accumulator.value++;
        }

        @Override
        public void combine(final Counter target, final Counter other) {
            target.value += other.value;
        }

        @Override
        public boolean deducts() {
            return true;
        }

        @Override
        public void deduct(final Counter target, final Counter other) {
            target.value -= other.value;
        }

        @Override
        public boolean reset(final Counter accumulator) {
            accumulator.value = 0;
            return true;
        }

        @Override
        public void write(final Counter accumulator, final DataOutput out) throws IOException {
            VarLongs.writeSigned(out, accumulator.value); // a count that may be deducted below 0 mid-way
        }

        @Override
        public Counter read(final DataInput in) throws IOException {
            final Counter counter = new Counter();
            counter.value = VarLongs.readSigned(in);
            return counter;
        }
    }
}
