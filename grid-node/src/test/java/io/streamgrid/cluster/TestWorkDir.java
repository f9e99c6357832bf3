package io.streamgrid.cluster;

import org.junit.jupiter.api.TestInfo;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** An empty work directory per test under the module's build directory (set by surefire). */
public final class TestWorkDir {
    private TestWorkDir() {
    }

    /** The test's directory, emptied: a rerun never sees an earlier run's logs or data. */
    public static Path of(final TestInfo test) {
        final String base = System.getProperty("streamgrid.test.workDir", "target/test-work");
        final Path dir = Path.of(base, test.getTestClass().map(Class::getSimpleName).orElse("test"),
                test.getTestMethod().map(m -> m.getName()).orElse("method"));
        deleteRecursively(dir);
        return dir;
    }

    private static void deleteRecursively(final Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot empty test directory " + dir, e);
        }
    }
}
