package io.streamgrid.perf;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import java.util.function.Consumer;

/**
 * What a benchmark run gets from the harness.
 *
 * @param quick    the short variant: fewer and shorter runs, for a check in a few minutes
 * @param workDir  a fresh directory of its own for files and member processes
 * @param progress where to report progress (a line at a time)
 * @param query    {@code --query}: the one query to run of a benchmark made of several (nexmark); empty: all
 * @param resultsDir where the result files go ({@code perf/results}): a benchmark's own charts beside them
 */
public record BenchContext(boolean quick, Path workDir, Consumer<String> progress, java.util.Optional<String> query,
                           Path resultsDir) {

    /** {@code quick} when quick, {@code full} otherwise. */
    public <T> T pick(final T quickValue, final T fullValue) {
        return quick ? quickValue : fullValue;
    }

    public void progress(final String line) {
        progress.accept(line);
    }

    /** Deletes everything under the work directory, keeping the directory. */
    public void emptyWorkDir() {
        empty(workDir);
    }

    /** Deletes everything under {@code dir} (created if missing), keeping {@code dir}. */
    public static Path empty(final Path dir) {
        try {
            Files.createDirectories(dir);
            try (Stream<Path> paths = Files.walk(dir)) {
                for (final Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    if (!path.equals(dir)) {
                        Files.delete(path);
                    }
                }
            }
            return dir;
        } catch (final IOException e) {
            throw new UncheckedIOException("could not empty work directory " + dir, e);
        }
    }
}
