package io.streamgrid.jobs.window;

/** A mutable long: the accumulator of {@link Aggregations#sum}, {@link Aggregations#min} and {@link Aggregations#max} over a long field. */
public final class LongValue {
    long value;

    LongValue(final long value) {
        this.value = value;
    }

    public long value() {
        return value;
    }

    @Override
    public String toString() {
        return Long.toString(value);
    }
}
