package io.streamgrid.perf.bench.nexmark;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The rows of the highest score so far, all of them when tied: NEXMark Q5's most-bid auctions and
 * Q7's highest bids of a window. Plain Jet keeps one in its aggregations' snapshots, StreamGrid in
 * its keyed state ({@code StateCodec.derived}) and window accumulators.
 */
final class Leaders implements Serializable {
    private long best = Long.MIN_VALUE;
    private ArrayList<long[]> rows = new ArrayList<>();

    void offer(final long score, final long[] row) {
        if (score > best) {
            best = score;
            rows.clear();
        }
        if (score == best) {
            rows.add(row);
        }
    }

    void combine(final Leaders other) {
        other.rows.forEach(row -> offer(other.best, row));
    }

    long best() {
        return best;
    }

    /** A copy of the rows. */
    List<long[]> rows() {
        return new ArrayList<>(rows);
    }

    boolean isEmpty() {
        return rows.isEmpty();
    }

    void clear() {
        best = Long.MIN_VALUE;
        rows.clear();
    }
}
