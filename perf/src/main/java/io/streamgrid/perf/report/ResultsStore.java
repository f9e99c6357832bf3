package io.streamgrid.perf.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The results directory: one {@code <name>.json} per benchmark, the newest run of each. */
public final class ResultsStore {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path directory;

    public ResultsStore(final Path directory) {
        this.directory = directory;
    }

    public Path directory() {
        return directory;
    }

    /** Writes (replaces) {@code result}'s file and returns its path. */
    public Path write(final BenchResult result) {
        try {
            Files.createDirectories(directory);
            final Path file = directory.resolve(result.name() + ".json");
            final Path temporary = directory.resolve(result.name() + ".json.tmp");
            JSON.writeValue(temporary.toFile(), result);
            Files.move(temporary, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return file;
        } catch (final IOException e) {
            throw new UncheckedIOException("could not write the result of " + result.name() + " to " + directory, e);
        }
    }

    /**
     * Every result in the directory.
     *
     * @throws UncheckedIOException naming the file that cannot be read or parsed
     */
    public List<BenchResult> readAll() {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        final List<BenchResult> results = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (final Path file : files.filter(f -> f.getFileName().toString().endsWith(".json")).sorted().toList()) {
                results.add(read(file));
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("could not list " + directory, e);
        }
        return results;
    }

    static BenchResult read(final Path file) {
        try {
            return JSON.readValue(file.toFile(), BenchResult.class);
        } catch (final IOException e) {
            throw new UncheckedIOException("could not read benchmark result " + file + ": " + e.getMessage(), e);
        }
    }
}
