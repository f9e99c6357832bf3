package io.streamgrid.cli;

import java.util.Collection;
import java.util.Optional;

/** The name a user probably meant when typing one that does not exist: a typo or two away. */
final class NearMiss {
    private NearMiss() {
    }

    /**
     * The candidate closest to {@code typed} if it is at most two edits away (one for names of up to
     * four letters): an insertion, deletion, substitution or swap of neighbours each count one.
     */
    static Optional<String> of(final String typed, final Collection<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (final String candidate : candidates) {
            final int distance = edits(typed, candidate);
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        final int allowed = typed.length() <= 4 ? 1 : 2;
        return bestDistance <= allowed ? Optional.of(best) : Optional.empty();
    }

    /** Edits from {@code a} to {@code b} (optimal string alignment distance). */
    static int edits(final String a, final String b) {
        final int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                final int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
