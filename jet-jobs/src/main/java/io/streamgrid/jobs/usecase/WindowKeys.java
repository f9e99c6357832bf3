package io.streamgrid.jobs.usecase;

/** State-map keys of windowed results: {@code "<key>@<windowStart>"}, readable from any client. */
final class WindowKeys {
    private WindowKeys() {
    }

    static String of(final long key, final long windowStart) {
        return key + "@" + windowStart;
    }
}
