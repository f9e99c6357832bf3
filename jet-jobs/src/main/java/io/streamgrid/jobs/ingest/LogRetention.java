package io.streamgrid.jobs.ingest;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.map.IMap;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueStore;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Deletes the old days of the logs in an ingest directory: every log's partitions keep one
 * Chronicle file per day they were written to ({@code p-007/20261204F.cq4}), and nothing else
 * deletes them. A day's file is deleted when the {@link Rule} says so — older than
 * {@link Rule#days}, or the oldest while the log takes more than {@link Rule#maxBytesPerLog} —
 * and never while a job still needs it: a job that is not finished (running, restarting,
 * suspended) keeps, in each partition it reads, the day of the position its checkpoint before
 * last resumes from and every later one ({@link LogPositions}); a job that has not completed two
 * checkpoints since it started keeps all of it. The newest day of a partition is never deleted
 * (appenders write there). What the rule would delete but a job keeps is reported, naming the job.
 *
 * <p>A replay submitted later reads only what is left: retention bounds how far back history
 * goes, as in any log with retention. Runs on members ({@code ingest.retention}); deleting a file
 * that another process deletes at the same time is harmless.
 */
public final class LogRetention {
    private static final Pattern PARTITION_DIR = Pattern.compile("p-\\d{3}");
    private static final Pattern DAY_FILE = Pattern.compile("(\\d{8})F\\.cq4");
    private static final DateTimeFormatter DAY = DateTimeFormatter.BASIC_ISO_DATE;
    private static final long DAY_MS = TimeUnit.DAYS.toMillis(1);

    private final HazelcastInstance hazelcast;
    private final Path ingestDir;
    private final Rule rule;
    private final Consumer<String> log;
    /** The reasons reported by the last run, so that a reason unchanged is not logged again every minute. */
    private Set<String> reported = Set.of();

    /**
     * What to delete: days of a log older than {@code days} (0: no age limit), and its oldest days
     * while it takes more than {@code maxBytesPerLog} bytes on disk (0: no size limit).
     */
    public record Rule(int days, long maxBytesPerLog) {
        public Rule {
            if (days < 0 || maxBytesPerLog < 0) {
                throw new IllegalArgumentException("retention days and size must be 0 (no limit) or more");
            }
        }

        public static Rule keepForever() {
            return new Rule(0, 0);
        }

        public boolean deletesAnything() {
            return days > 0 || maxBytesPerLog > 0;
        }
    }

    /** What a run did: the files deleted and their bytes, and why days the rule would delete were kept. */
    public record Report(List<Path> deleted, long deletedBytes, List<String> heldBack) {
    }

    /** {@code log}: where deletions and reasons for keeping are reported (a reason once, until it changes). */
    public LogRetention(final HazelcastInstance hazelcast, final Path ingestDir, final Rule rule, final Consumer<String> log) {
        this.hazelcast = hazelcast;
        this.ingestDir = ingestDir;
        this.rule = rule;
        this.log = log;
    }

    /** One pass over every log in the ingest directory at wall-clock time {@code nowMs}. */
    public Report run(final long nowMs) {
        final Map<String, Map<Integer, Holder>> holders = holders();
        final List<Path> deleted = new ArrayList<>();
        final List<String> heldBack = new ArrayList<>();
        long bytes = 0;
        for (final Path logDir : logDirs()) {
            bytes += retain(logDir, holders.getOrDefault(LogPositions.logKey(logDir), Map.of()), nowMs, deleted, heldBack);
        }
        if (!deleted.isEmpty()) {
            log.accept("ingest retention deleted " + deleted.size() + " day file(s), " + bytes / (1024 * 1024) + " MiB: "
                    + deleted.stream().map(f -> ingestDir.relativize(f).toString()).toList());
        }
        final Set<String> reasons = new LinkedHashSet<>(heldBack);
        for (final String reason : reasons) {
            if (!reported.contains(reason)) {
                log.accept("ingest retention holds back: " + reason);
            }
        }
        reported = reasons;
        return new Report(List.copyOf(deleted), bytes, List.copyOf(heldBack));
    }

    /** The job that keeps the most of a partition: the oldest day it needs (Integer.MIN_VALUE: all). */
    private record Holder(int firstDayNeeded, String job) {
    }

    /** Per log and partition, the unfinished job that needs the oldest day; entries of finished jobs are removed. */
    private Map<String, Map<Integer, Holder>> holders() {
        final IMap<String, long[]> positions = hazelcast.getMap(LogPositions.MAP);
        final Map<Long, String> liveJobs = new HashMap<>();
        final Map<String, Map<Integer, Holder>> holders = new HashMap<>();
        for (final Map.Entry<String, long[]> entry : positions.entrySet()) {
            final LogPositions.Key key = LogPositions.Key.parse(entry.getKey());
            final String job = liveJobs.computeIfAbsent(key.job(), this::liveJobName);
            if (job.isEmpty()) {
                positions.removeAsync(entry.getKey());
                continue;
            }
            final long resumeAfter = entry.getValue()[0];
            final Holder holder = resumeAfter == PartitionReader.START
                    ? new Holder(Integer.MIN_VALUE, "job '" + job + "' has not completed two checkpoints since it started reading")
                    : new Holder(RollCycles.FAST_DAILY.toCycle(resumeAfter), "job '" + job + "' resumes from "
                    + LocalDate.ofEpochDay(RollCycles.FAST_DAILY.toCycle(resumeAfter)));
            holders.computeIfAbsent(key.log(), log -> new HashMap<>()).merge(key.partition(), holder,
                    (a, b) -> a.firstDayNeeded() <= b.firstDayNeeded() ? a : b);
        }
        return holders;
    }

    /** The name of the job with id {@code id} if it is not finished, else "". */
    private String liveJobName(final long id) {
        final Job job = hazelcast.getJet().getJob(id);
        if (job == null || job.getStatus().isTerminal()) {
            return "";
        }
        return job.getName() == null ? job.getIdString() : job.getName();
    }

    /** Applies the rule to one log; returns the bytes deleted. */
    private long retain(final Path logDir, final Map<Integer, Holder> holders, final long nowMs, final List<Path> deleted,
                        final List<String> heldBack) {
        if (rule.maxBytesPerLog() == 0 && !hasDayBefore(logDir, oldestKept(nowMs))) {
            return 0; // the common pass: nothing old enough, so no queue is opened
        }
        final Map<Integer, SingleChronicleQueue> queues = new TreeMap<>();
        try {
            for (final Path partitionDir : list(logDir)) {
                final String name = partitionDir.getFileName().toString();
                if (PARTITION_DIR.matcher(name).matches() && Files.isDirectory(partitionDir)) {
                    queues.put(Integer.parseInt(name.substring(2)),
                            SingleChronicleQueueBuilder.binary(partitionDir).rollCycle(RollCycles.FAST_DAILY).build());
                }
            }
            final long bytes = retain(logDir, queues, holders, nowMs, deleted, heldBack);
            if (bytes > 0) {
                // Chronicle keeps each queue's first and last day in a small shared file: re-reading the
                // directory stores the new first day there, for every process that reads the queue.
                queues.values().forEach(SingleChronicleQueue::refreshDirectoryListing);
            }
            return bytes;
        } finally {
            queues.values().forEach(SingleChronicleQueue::close);
        }
    }

    private long retain(final Path logDir, final Map<Integer, SingleChronicleQueue> queues, final Map<Integer, Holder> holders,
                        final long nowMs, final List<Path> deleted, final List<String> heldBack) {
        // Per day, oldest first: each partition's file of that day, and the bytes written in each file.
        final TreeMap<Integer, Map<Integer, Path>> days = new TreeMap<>();
        final Map<Path, Long> used = new HashMap<>();
        final Map<Integer, Integer> newestDay = new HashMap<>();
        long total = 0;
        for (final Map.Entry<Integer, SingleChronicleQueue> queue : queues.entrySet()) {
            final int partition = queue.getKey();
            for (final Path file : list(queue.getValue().file().toPath())) {
                final Matcher day = DAY_FILE.matcher(file.getFileName().toString());
                if (day.matches()) {
                    final int cycle = (int) LocalDate.parse(day.group(1), DAY).toEpochDay();
                    days.computeIfAbsent(cycle, c -> new TreeMap<>()).put(partition, file);
                    newestDay.merge(partition, cycle, Math::max);
                    final long bytes = writtenBytes(queue.getValue(), cycle, file);
                    used.put(file, bytes);
                    total += bytes;
                }
            }
        }
        final int oldestKept = oldestKept(nowMs);
        long bytes = 0;
        final Set<Integer> blocked = new HashSet<>(); // partitions where a day was kept: every later one is kept too
        for (final Map.Entry<Integer, Map<Integer, Path>> day : days.entrySet()) {
            final boolean tooOld = day.getKey() < oldestKept;
            final boolean tooBig = rule.maxBytesPerLog() > 0 && total > rule.maxBytesPerLog();
            if (!tooOld && !tooBig) {
                break;
            }
            for (final Map.Entry<Integer, Path> file : day.getValue().entrySet()) {
                final int partition = file.getKey();
                if (blocked.contains(partition) || day.getKey() >= newestDay.get(partition)) {
                    blocked.add(partition);
                    continue;
                }
                final Holder holder = holders.get(partition);
                if (holder != null && day.getKey() >= holder.firstDayNeeded()) {
                    blocked.add(partition);
                    heldBack.add(ingestDir.relativize(logDir) + " partition " + partition + " from "
                            + LocalDate.ofEpochDay(day.getKey()) + " on (" + (tooOld ? "older than " + rule.days() + " days"
                            : "over " + rule.maxBytesPerLog() / (1024 * 1024) + " MiB") + "): " + holder.job());
                    continue;
                }
                delete(file.getValue());
                deleted.add(file.getValue());
                bytes += used.get(file.getValue());
                total -= used.get(file.getValue());
            }
        }
        return bytes;
    }

    /** The first day the age rule keeps at {@code nowMs} (epoch day); every day without an age limit. */
    private int oldestKept(final long nowMs) {
        return rule.days() == 0 ? Integer.MIN_VALUE : (int) Math.floorDiv(nowMs - rule.days() * DAY_MS, DAY_MS);
    }

    /** Whether a partition of the log has a day file from before {@code day}, by the files' names alone. */
    private static boolean hasDayBefore(final Path logDir, final int day) {
        for (final Path partitionDir : list(logDir)) {
            if (PARTITION_DIR.matcher(partitionDir.getFileName().toString()).matches() && Files.isDirectory(partitionDir)) {
                for (final Path file : list(partitionDir)) {
                    final Matcher name = DAY_FILE.matcher(file.getFileName().toString());
                    if (name.matches() && LocalDate.parse(name.group(1), DAY).toEpochDay() < day) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * The bytes written in {@code cycle}'s file: the files are sparse, allocated in large chunks
     * ahead of the writes, so their length says little about what they hold.
     */
    private static long writtenBytes(final SingleChronicleQueue queue, final int cycle, final Path file) {
        final SingleChronicleQueueStore store = queue.storeForCycle(cycle, queue.epoch(), false, null);
        if (store == null) {
            return size(file);
        }
        try {
            return store.writePosition();
        } finally {
            queue.closeStore(store);
        }
    }

    /** The directories under the ingest directory that hold partition queues (p-000, ...), at most three levels down. */
    private List<Path> logDirs() {
        if (!Files.isDirectory(ingestDir)) {
            return List.of();
        }
        try (Stream<Path> dirs = Files.walk(ingestDir, 3)) {
            return dirs.filter(dir -> PARTITION_DIR.matcher(dir.getFileName().toString()).matches() && Files.isDirectory(dir))
                    .map(Path::getParent).distinct().sorted().toList();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list the logs in " + ingestDir, e);
        }
    }

    private static List<Path> list(final Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.sorted().toList();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    private static long size(final Path file) {
        try {
            return Files.size(file);
        } catch (final IOException e) {
            return 0; // deleted meanwhile by another member's pass
        }
    }

    private static void delete(final Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (final IOException e) {
            throw new UncheckedIOException("ingest retention cannot delete " + file, e);
        }
    }
}
