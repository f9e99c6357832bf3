package io.streamgrid.jobs.window;

/** A mutable double: the accumulator of {@link Aggregations#sum}, {@link Aggregations#min} and {@link Aggregations#max} over a double field. */
public final class DoubleValue {
    double value;

    DoubleValue(final double value) {
        this.value = value;
    }

    public double value() {
        return value;
    }

    @Override
    public String toString() {
        return Double.toString(value);
    }
}
