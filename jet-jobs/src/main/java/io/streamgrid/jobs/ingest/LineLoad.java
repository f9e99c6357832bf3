package io.streamgrid.jobs.ingest;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Consumer;

/**
 * The line loop both loaders share: each non-blank line is handed to the loader; a line it refuses
 * ({@link IllegalArgumentException}) goes to the rejected-records file as {@code line N: reason:
 * text} and the load goes on; progress every 100,000 lines. The {@link LoadProgress} records how far
 * the load got: lines an earlier, interrupted load of the same file did are read past, and its
 * interrupted batch is not appended twice.
 */
final class LineLoad {
    /** Appends one line's event; throws IllegalArgumentException with the reason when the line is not a valid event. */
    interface LineAppender {
        void append(String line, long lineNumber);
    }

    /** Reads the first line of a file before the events (a CSV header, say); null when the file is empty. */
    interface HeaderReader {
        void read(String firstLine);
    }

    private LineLoad() {
    }

    /**
     * Loads {@code input} line by line; with {@code header} not null, the first line goes to it
     * instead (an IllegalArgumentException from it stops the load before anything is appended).
     * The rejected file is created even when empty and replaced if it exists.
     */
    static LoadReport load(final Path input, final Path rejectedFile, final Consumer<String> progress, final HeaderReader header,
                           final LoadProgress ledger, final LineAppender appender) throws IOException {
        final long resumeAfter = ledger.resumeAfterLine();
        long lines = 0;
        long loaded = 0;
        long rejected = 0;
        final Progress meter = new Progress();
        final long size = Files.size(input);
        long bytes = 0; // read so far, about: UTF-8 lengths are counted as chars, line ends as one
        // Resuming: the lines rejected before the resume point are in the file already.
        final OpenOption[] rejectsMode = resumeAfter > 0
                ? new OpenOption[] {StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE}
                : new OpenOption[0];
        try (BufferedReader in = Files.newBufferedReader(input, StandardCharsets.UTF_8);
             BufferedWriter rejects = Files.newBufferedWriter(rejectedFile, StandardCharsets.UTF_8, rejectsMode)) {
            if (header != null) {
                header.read(in.readLine());
                lines++;
            }
            String line;
            while ((line = in.readLine()) != null) {
                lines++;
                bytes += line.length() + 1;
                if (lines <= resumeAfter || line.isBlank()) {
                    ledger.lineDone(lines);
                    continue;
                }
                try {
                    appender.append(line, lines);
                    loaded++;
                } catch (final IllegalArgumentException bad) {
                    rejected++;
                    rejects.write("line " + lines + ": " + bad.getMessage() + ": " + abbreviate(line));
                    rejects.newLine();
                }
                ledger.lineDone(lines);
                if (lines % 100_000 == 0) {
                    progress.accept("read " + lines + " lines: " + loaded + " loaded, " + rejected + " rejected ("
                            + meter.of(lines, bytes, size) + ")");
                }
            }
            rejects.flush();
            ledger.finish(lines);
        }
        return new LoadReport(lines, loaded, rejected, rejectedFile);
    }

    private static String abbreviate(final String line) {
        return line.length() <= 500 ? line : line.substring(0, 500) + "...";
    }
}
