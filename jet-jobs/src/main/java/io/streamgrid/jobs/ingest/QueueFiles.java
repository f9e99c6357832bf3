package io.streamgrid.jobs.ingest;


import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/** What a {@link SchemaLog} does with its metadata file: written atomically, read with clear errors. */
final class QueueFiles {
    private QueueFiles() {
    }

    static void checkPartitions(final int partitions) {
        if (partitions < 1 || partitions > 1024) {
            throw new IllegalArgumentException("partitions must be 1 to 1024, was " + partitions);
        }
    }

    /**
     * Creates {@code dir/name} atomically unless it exists: complete in a file of its own, then
     * linked under its name, which fails if another process got there first — that one's file is then
     * the log's, and the caller checks it. A reader never sees a half-written file and two creators
     * never both win. Returns whether this call created it.
     */
    static boolean createAtomically(final Path dir, final String name, final Properties properties, final String comment)
            throws IOException {
        final Path draft = writeDraft(dir, name, properties, comment);
        try {
            try {
                Files.createLink(dir.resolve(name), draft);
                return true;
            } catch (final UnsupportedOperationException | FileSystemException noHardLinks) {
                if (noHardLinks instanceof FileAlreadyExistsException) {
                    return false; // another process created it first
                }
                // A file system without hard links: a move that refuses to replace, nearly as good.
                try {
                    Files.move(draft, dir.resolve(name));
                    return true;
                } catch (final FileAlreadyExistsException createdMeanwhile) {
                    return false;
                }
            }
        } finally {
            Files.deleteIfExists(draft);
        }
    }

    /** Replaces {@code dir/name} atomically: readers see the old file or the new one, never a mix. */
    static void replaceAtomically(final Path dir, final String name, final Properties properties, final String comment)
            throws IOException {
        final Path draft = writeDraft(dir, name, properties, comment);
        try {
            Files.move(draft, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(draft);
        }
    }

    private static Path writeDraft(final Path dir, final String name, final Properties properties, final String comment)
            throws IOException {
        final Path draft = Files.createTempFile(dir, name, ".draft");
        try (Writer out = Files.newBufferedWriter(draft)) {
            properties.store(out, comment);
        }
        return draft;
    }

    static Properties read(final Path dir, final String name, final String what) {
        final Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(dir.resolve(name))) {
            properties.load(in);
        } catch (final IOException e) {
            throw new UncheckedIOException("no " + what + " in " + dir + " (cannot read " + name + ")", e);
        }
        return properties;
    }
}
