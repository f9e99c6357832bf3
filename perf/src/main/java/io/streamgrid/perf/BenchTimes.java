package io.streamgrid.perf;

import io.streamgrid.jobs.ingest.Progress;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * How long each benchmark took on this machine the last time it ran, quick and full apart, kept
 * in a properties file beside the benchmarks' work directories: what the time left of a run of
 * several benchmarks is estimated from. A benchmark never timed here has no estimate, and a run
 * that includes one gives no time left until it is past it — no guessed figures.
 */
final class BenchTimes {
    private final Path file;
    private final Properties seconds = new Properties();

    /** The times in {@code file}; none when it is missing or unreadable (an estimate is not worth failing a run for). */
    BenchTimes(final Path file) {
        this.file = file;
        if (Files.isRegularFile(file)) {
            try (Reader reader = Files.newBufferedReader(file)) {
                seconds.load(reader);
            } catch (final IOException | IllegalArgumentException e) {
                seconds.clear();
            }
        }
    }

    /** Seconds the benchmark took last time in this mode, or -1 when it was never timed here. */
    double secondsOf(final String name, final boolean quick) {
        final String value = seconds.getProperty(key(name, quick));
        try {
            return value == null ? -1 : Double.parseDouble(value);
        } catch (final NumberFormatException e) {
            return -1;
        }
    }

    /** Records a run's time and saves the file. */
    void record(final String name, final boolean quick, final double tookSeconds) {
        seconds.setProperty(key(name, quick), String.format(java.util.Locale.ROOT, "%.1f", tookSeconds));
        try {
            Files.createDirectories(file.getParent());
            try (Writer writer = Files.newBufferedWriter(file)) {
                seconds.store(writer, "seconds each benchmark took on this machine, last run (for ./streamgrid bench's time left)");
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("could not save benchmark times to " + file, e);
        }
    }

    /**
     * ", about 12 min left" for the run of {@code names} in this mode while benchmark {@code index}
     * has run {@code elapsedSeconds}; "" when one of those not finished has no time here. A
     * benchmark taking longer than last time counts as about to finish.
     */
    String timeLeft(final List<String> names, final int index, final double elapsedSeconds, final boolean quick) {
        double left = 0;
        for (int i = index; i < names.size(); i++) {
            final double took = secondsOf(names.get(i), quick);
            if (took < 0) {
                return "";
            }
            left += i == index ? Math.max(0, took - elapsedSeconds) : took;
        }
        return ", about " + Progress.duration(left) + " left";
    }

    private static String key(final String name, final boolean quick) {
        return name + (quick ? ".quick" : ".full");
    }
}
