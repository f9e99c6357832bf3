package io.streamgrid.jobs.window;

import io.streamgrid.jobs.schema.SchemaRecord;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * {@link Counter.Counting} with deduct and reset each switched on or off, counting the accumulators
 * it creates and writes: it sends a sliding window down either engine path (incremental or rebuilt
 * from slices), with or without accumulator reuse.
 */
final class CountingVariant implements WindowAggregation<Counter> {
    private final Counter.Counting counting = new Counter.Counting();
    private final boolean deducts;
    private final boolean resets;
    long creates;
    long writes;

    CountingVariant(final boolean deducts, final boolean resets) {
        this.deducts = deducts;
        this.resets = resets;
    }

    @Override
    public Counter create() {
        creates++;
        return counting.create();
    }

    @Override
    public void accumulate(final Counter accumulator, final SchemaRecord event) {
        counting.accumulate(accumulator, event);
    }

    @Override
    public void combine(final Counter target, final Counter other) {
        counting.combine(target, other);
    }

    @Override
    public boolean deducts() {
        return deducts;
    }

    @Override
    public void deduct(final Counter target, final Counter other) {
        counting.deduct(target, other);
    }

    @Override
    public boolean reset(final Counter accumulator) {
        return resets && counting.reset(accumulator);
    }

    @Override
    public void write(final Counter accumulator, final DataOutput out) throws IOException {
        writes++;
        counting.write(accumulator, out);
    }

    @Override
    public Counter read(final DataInput in) throws IOException {
        return counting.read(in);
    }
}
