package io.streamgrid.jobs.window;

/** The accumulator of {@link Aggregations#average}: a sum and a count. */
public final class Average {
    double sum;
    long count;

    /** The mean of the values counted; NaN when none was. */
    public double value() {
        return count == 0 ? Double.NaN : sum / count;
    }

    public long count() {
        return count;
    }

    @Override
    public String toString() {
        return Double.toString(value());
    }
}
