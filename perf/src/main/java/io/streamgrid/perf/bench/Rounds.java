package io.streamgrid.perf.bench;

import io.streamgrid.perf.report.Measurement;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Ratios of two subjects that run back to back in each round of a benchmark. A slow spell of the
 * shared machine moves both runs of a round alike, so a round's ratio moves far less than either
 * subject's median does.
 */
final class Rounds {
    private Rounds() {
    }

    /** {@code ours[r] / reference[r]} for every round {@code r}. */
    static double[] ratios(final double[] ours, final double[] reference) {
        final double[] ratios = new double[ours.length];
        for (int round = 0; round < ratios.length; round++) {
            ratios[round] = ours[round] / reference[round];
        }
        return ratios;
    }

    static double median(final double[] ratios) {
        return Measurement.of("rounds", "ratio", "ratio", ratios).median();
    }

    /** "0.919, 0.961, …" for a note. */
    static String list(final double[] ratios) {
        return Arrays.stream(ratios).mapToObj(r -> String.format(Locale.ROOT, "%.3f", r)).collect(Collectors.joining(", "));
    }
}
