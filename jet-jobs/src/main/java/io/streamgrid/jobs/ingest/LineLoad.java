package io.streamgrid.jobs.ingest;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
     * The rejected file is written only when a line is rejected; one left by an earlier load of the
     * file is replaced (appended to when the load resumes).
     *
     * @throws InputNotTextException when a line is not UTF-8: the load stops there
     */
    static LoadReport load(final Path input, final Path rejectedFile, final Consumer<String> progress, final HeaderReader header,
                           final LoadProgress ledger, final LineAppender appender) throws IOException {
        final long resumeAfter = ledger.resumeAfterLine();
        long loaded = 0;
        long rejected = 0;
        final Progress meter = new Progress();
        final long size = Files.size(input);
        if (resumeAfter == 0) {
            Files.deleteIfExists(rejectedFile); // an earlier load's; resuming, the lines rejected before are in it already
        }
        BufferedWriter rejects = null;
        try (Utf8Lines in = new Utf8Lines(input)) {
            try {
                if (header != null) {
                    header.read(in.next());
                }
                String line;
                while ((line = in.next()) != null) {
                    final long number = in.number();
                    if (number <= resumeAfter || line.isBlank()) {
                        ledger.lineDone(number);
                        continue;
                    }
                    try {
                        appender.append(line, number);
                        loaded++;
                    } catch (final IllegalArgumentException bad) {
                        rejected++;
                        if (rejects == null) {
                            rejects = Files.newBufferedWriter(rejectedFile, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                                    StandardOpenOption.APPEND, StandardOpenOption.WRITE);
                        }
                        rejects.write("line " + number + ": " + bad.getMessage() + ": " + abbreviate(line));
                        rejects.newLine();
                    }
                    ledger.lineDone(number);
                    if (number % 100_000 == 0) {
                        progress.accept("read " + number + " lines: " + loaded + " loaded, " + rejected + " rejected ("
                                + meter.of(number, in.bytesRead(), size) + ")");
                    }
                }
            } catch (final CharacterCodingException e) {
                // Not finished: the ledger keeps what it recorded, and a load run again resumes there.
                throw new InputNotTextException(input, in.number(), e);
            } finally {
                if (rejects != null) {
                    rejects.close();
                }
            }
            ledger.finish(in.number());
            return new LoadReport(in.number(), loaded, rejected, rejectedFile);
        }
    }

    private static String abbreviate(final String line) {
        return line.length() <= 500 ? line : line.substring(0, 500) + "...";
    }
}
