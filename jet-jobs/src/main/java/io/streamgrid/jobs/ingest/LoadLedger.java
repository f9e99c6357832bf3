package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.SchemaRecord;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * How far a file's load got, so that a load run again after a crash appends every line once.
 *
 * <p>A file is identified by the SHA-256 of its content; its ledger is
 * {@code <ingest dir>/loads/<sha256>.properties}. Every {@value #COMMIT_EVERY} lines, and at the
 * end, the ledger records (written to a draft, forced to disk, then renamed over the old one) the
 * last line done and, for every log the load writes, the index of each partition's last record.
 * A load run again skips the lines the ledger covers; for the lines after it — the batch a crash
 * interrupted — it counts the events each partition holds after the recorded index: those are the
 * batch's lines that reached the log, in line order per partition (a partition is appended to in
 * order), so the first that many of the batch's lines going to that partition are skipped and the
 * rest appended. Counting is exact because loads (and {@code ingest generate}) of one ingest
 * directory run one at a time: each holds {@code loads/.lock} (a file lock, released by the
 * operating system when its process dies, even by SIGKILL). Jobs' heartbeats and end-of-stream
 * records are control records and not counted; emitted events are not {@code KIND_EVENT}.
 *
 * <p>A file loaded completely is refused unless forced. What it cannot cover: a power loss or
 * kernel crash may lose log records Chronicle had not yet written back to disk while the ledger,
 * forced to disk, already names them; and a file changed after a partial load is a new file (its
 * content hash differs), loaded from its first line.
 */
public final class LoadLedger implements LoadProgress {
    /** Lines between two records of progress: the most a crash makes a load re-read (never re-append). */
    static final int COMMIT_EVERY = 10_000;
    private static final String DIR = "loads";

    private final Path file;
    private final Path input;
    /** The ingest directory's load lock; its channel is closed with it. */
    private final FileLock lock;
    private final Properties committed;
    private final long resumeAfterLine;
    private final boolean finished;
    /** Per log directory name: each partition's last index at the last commit (or at the start). */
    private final Map<String, long[]> tails = new TreeMap<>();
    /** Per log directory name: per partition, events of the interrupted batch already in the log, to skip. */
    private final Map<String, long[]> toSkip = new TreeMap<>();
    private final Map<String, SchemaLog> logsByName = new TreeMap<>();
    private long skipped;

    private LoadLedger(final Path file, final Path input, final FileLock lock, final Properties committed) {
        this.file = file;
        this.input = input;
        this.lock = lock;
        this.committed = committed;
        this.resumeAfterLine = Long.parseLong(committed.getProperty("lines-done", "0"));
        this.finished = Boolean.parseBoolean(committed.getProperty("finished", "false"));
    }

    /**
     * The ledger of {@code input}'s load into {@code ingestDir}'s logs, holding the directory's load
     * lock until closed. {@code logs} are every log the load may write (a log's events after its
     * recorded tail are counted on a resume, so it must be known before the first append).
     * {@code force}: start from the first line whatever an earlier load of the file did.
     *
     * @throws IllegalStateException when another load of this ingest directory is running
     */
    public static LoadLedger open(final Path ingestDir, final Path input, final List<? extends EventLog> logs, final boolean force)
            throws IOException {
        final FileLock lock = lockIngestDir(ingestDir, "another load (or ingest generate) into " + ingestDir
                + " is running: they run one at a time; run this one when it has finished");
        final Path dir = ingestDir.resolve(DIR);
        try {
            final Path file = dir.resolve(sha256(input) + ".properties");
            final Properties committed = new Properties();
            if (Files.exists(file) && !force) {
                try (InputStream in = Files.newInputStream(file)) {
                    committed.load(in);
                }
            }
            final LoadLedger ledger = new LoadLedger(file, input, lock, committed);
            ledger.prepare(logs);
            return ledger;
        } catch (final IOException | RuntimeException e) {
            release(lock);
            throw e;
        }
    }

    /**
     * Holds {@code ingestDir}'s load lock until closed, for a writer of event records that keeps no
     * ledger ({@code ingest generate}): it must not interleave with a load, whose resume counts events.
     *
     * @throws IllegalStateException when a load of this ingest directory is running
     */
    public static AutoCloseable exclusive(final Path ingestDir) throws IOException {
        final FileLock lock = lockIngestDir(ingestDir, "a load into " + ingestDir + " is running: run this when it has finished");
        return () -> release(lock);
    }

    /** Takes {@code ingestDir}'s load lock; throws IllegalStateException with {@code busy} when another holds it. */
    private static FileLock lockIngestDir(final Path ingestDir, final String busy) throws IOException {
        final Path dir = Files.createDirectories(ingestDir.resolve(DIR));
        final FileChannel channel = FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        final FileLock lock;
        try {
            lock = tryLock(channel);
        } catch (final IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        if (lock == null) {
            channel.close();
            throw new IllegalStateException(busy);
        }
        return lock;
    }

    private static void release(final FileLock lock) throws IOException {
        try (FileChannel channel = lock.channel()) {
            if (lock.isValid()) {
                lock.release();
            }
        }
    }

    /** Whether this file was loaded completely before. */
    @Override
    public boolean finished() {
        return finished;
    }

    /** When and as what the file was loaded completely, for the refusal message. */
    @Override
    public String finishedDescription() {
        return committed.getProperty("lines-done") + " lines, finished " + committed.getProperty("finished-at")
                + " from " + committed.getProperty("path");
    }

    /** Lines (counted from 1, header included) an earlier load already appended: read past, not appended. */
    @Override
    public long resumeAfterLine() {
        return resumeAfterLine;
    }

    /** Events of the interrupted batch found in the logs and not appended again, so far. */
    @Override
    public long skippedAsAlreadyAppended() {
        return skipped;
    }

    private void prepare(final List<? extends EventLog> eventLogs) throws IOException {
        for (final EventLog eventLog : eventLogs) {
            final SchemaLog log = chronicle(eventLog);
            final String name = log.directory().getFileName().toString();
            logsByName.put(name, log);
            final long[] last = new long[log.partitions()];
            final long[] skip = new long[log.partitions()];
            final String recorded = committed.getProperty("tails." + name);
            final long[] atCommit = recorded == null ? null : parse(recorded, log.partitions());
            for (int p = 0; p < last.length; p++) {
                last[p] = log.lastIndex(p);
                if (atCommit != null) {
                    skip[p] = log.eventsAfter(p, atCommit[p]);
                } else if (resumeAfterLine > 0) {
                    // Every log the load may write was recorded at its first commit: this one had no
                    // record then, so the ledger is not this build's: refuse rather than guess.
                    throw new IllegalStateException("the ledger " + file + " names no position for log " + name
                            + ": delete it and load with --force if the log holds none of this file's events");
                }
            }
            tails.put(name, atCommit != null ? atCommit : last);
            toSkip.put(name, skip);
        }
        if (committed.getProperty("lines-done") == null) {
            commit(0, false); // where every log stood before the first append: a crash before the next commit counts from here
        }
    }

    /**
     * Appends {@code record} to {@code log} unless the interrupted batch had appended it already;
     * returns whether it appended.
     */
    @Override
    public boolean append(final EventLog eventLog, final SchemaRecord record) {
        final SchemaLog log = chronicle(eventLog);
        final String name = log.directory().getFileName().toString();
        final int partition = log.partitionOf(record);
        final long[] skip = toSkip.get(name);
        if (skip == null) {
            throw new IllegalStateException("bug: log " + name + " was not named when the load's ledger was opened");
        }
        if (skip[partition] > 0) {
            skip[partition]--;
            skipped++;
            return false;
        }
        log.append(record);
        return true;
    }

    private static SchemaLog chronicle(final EventLog log) {
        if (!(log instanceof SchemaLog schemaLog)) {
            throw new IllegalArgumentException("a load ledger in the ingest directory is for Chronicle logs, not " + log.name()
                    + " (Kafka logs keep their load's progress in Kafka: KafkaLoadLedger)");
        }
        return schemaLog;
    }

    /** Line {@code lineNumber} is done (appended, rejected or blank); records progress every {@value #COMMIT_EVERY} lines. */
    @Override
    public void lineDone(final long lineNumber) throws IOException {
        if (lineNumber > resumeAfterLine && lineNumber % COMMIT_EVERY == 0) { // lines read past on a resume are recorded already
            commit(lineNumber, false);
        }
    }

    /** The whole file is done: recorded, so a second load of it is refused unless forced. */
    @Override
    public void finish(final long lines) throws IOException {
        commit(lines, true);
    }

    private void commit(final long lineNumber, final boolean done) throws IOException {
        final Properties next = new Properties();
        next.setProperty("path", input.toAbsolutePath().toString());
        next.setProperty("lines-done", Long.toString(lineNumber));
        next.setProperty("finished", Boolean.toString(done));
        if (done) {
            next.setProperty("finished-at", Instant.now().toString());
        }
        for (final Map.Entry<String, long[]> entry : tails.entrySet()) {
            final SchemaLog log = logsByName.get(entry.getKey());
            final long[] now = entry.getValue();
            for (int p = 0; p < now.length; p++) {
                now[p] = log.lastIndex(p);
            }
            next.setProperty("tails." + entry.getKey(), join(now));
        }
        final Path draft = file.resolveSibling(file.getFileName() + ".draft");
        try (OutputStream out = Files.newOutputStream(draft)) {
            next.store(out, "StreamGrid: how far the load of " + input.toAbsolutePath() + " got");
        }
        try (FileChannel channel = FileChannel.open(draft, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
        try {
            Files.move(draft, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (final AtomicMoveNotSupportedException e) {
            Files.move(draft, file, StandardCopyOption.REPLACE_EXISTING);
        }
        committed.clear();
        committed.putAll(next);
    }

    @Override
    public void close() throws IOException {
        release(lock);
    }

    /** The lock, or null when another process — or another load in this JVM — holds it. */
    private static FileLock tryLock(final FileChannel channel) throws IOException {
        try {
            return channel.tryLock();
        } catch (final java.nio.channels.OverlappingFileLockException heldInThisJvm) {
            return null;
        }
    }

    private static String join(final long[] values) {
        final StringBuilder text = new StringBuilder();
        for (final long value : values) {
            if (!text.isEmpty()) {
                text.append(',');
            }
            text.append(value);
        }
        return text.toString();
    }

    private long[] parse(final String text, final int partitions) {
        final String[] parts = text.split(",");
        if (parts.length != partitions) {
            throw new IllegalStateException("the ledger " + file + " records " + parts.length + " partitions, the log has " + partitions);
        }
        final long[] values = new long[partitions];
        for (int p = 0; p < partitions; p++) {
            values[p] = Long.parseLong(parts[p].trim());
        }
        return values;
    }

    /** The SHA-256 of {@code input}'s content, in hex: the file's identity across loads. */
    static String sha256(final Path input) throws IOException {
        try {
            final MessageDigest digest = MessageDigest.getInstance("SHA-256");
            try (InputStream in = new DigestInputStream(Files.newInputStream(input), digest)) {
                in.transferTo(OutputStream.nullOutputStream());
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (final NoSuchAlgorithmException e) {
            throw new UncheckedIOException(new IOException("SHA-256 is not available in this JVM", e));
        }
    }
}
