package io.streamgrid.jobs.build;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds the lines of Java sources that name packages they should not (an import, a static import or
 * a qualified name), for the build's checks that the API points one way: the API packages name no
 * {@code impl} package, the examples and perf only public API.
 */
public final class SourceReferences {
    /** Any StreamGrid runtime package: {@code io.streamgrid.….impl}. */
    public static final Pattern STREAMGRID_IMPL = Pattern.compile("\\bio\\.streamgrid(\\.\\w+)*\\.impl\\b");
    /** Hazelcast's own internals: {@code com.hazelcast.….impl} and {@code com.hazelcast.internal}. */
    public static final Pattern HAZELCAST_INTERNALS = Pattern.compile("\\bcom\\.hazelcast(\\.\\w+)*\\.(impl|internal)\\b");

    /** The root of the checkout, as the build passes it ({@code streamgrid.root}). */
    public static final Path ROOT = Path.of(System.getProperty("streamgrid.root", ".."));

    private SourceReferences() {
    }

    /**
     * "file:line: text" of every line of the {@code .java} files under {@code sources} (those
     * {@code checked} accepts, by their path relative to {@code sources}) that {@code forbidden} finds.
     *
     * @throws IllegalStateException when {@code sources} holds no Java file: a check that reads nothing proves nothing
     */
    public static List<String> find(final Path sources, final Predicate<Path> checked, final Pattern forbidden) throws IOException {
        final List<String> found = new ArrayList<>();
        final List<Path> files;
        try (Stream<Path> walk = Files.walk(sources)) {
            files = walk.filter(f -> f.toString().endsWith(".java")).filter(f -> checked.test(sources.relativize(f))).sorted().toList();
        }
        if (files.isEmpty()) {
            throw new IllegalStateException("no Java sources to check under " + sources.toAbsolutePath());
        }
        for (final Path file : files) {
            final List<String> lines = Files.readAllLines(file);
            for (int i = 0; i < lines.size(); i++) {
                if (forbidden.matcher(lines.get(i)).find()) {
                    found.add(sources.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        }
        return found;
    }
}
