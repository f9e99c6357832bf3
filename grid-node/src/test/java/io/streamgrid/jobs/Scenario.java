package io.streamgrid.jobs;

import io.streamgrid.jobs.schema.KeyPartitions;
import java.util.stream.Collectors;
import org.awaitility.core.ConditionTimeoutException;
import io.streamgrid.jobs.usecase.IpWindowCount;
import com.hazelcast.cluster.Address;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import com.hazelcast.jet.impl.JobExecutionRecord;
import com.hazelcast.jet.impl.JobRepository;
import com.hazelcast.spi.exception.TargetDisconnectedException;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.MemberProcess;
import io.streamgrid.jobs.event.BuiltInEvents;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.EventGenerator;
import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.usecase.IpTrafficJob;
import io.streamgrid.jobs.window.WindowOracle;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.awaitility.Awaitility.await;

/** Pieces the multi-process job tests share: a paced ingest writer and a job-restart counter. */
public final class Scenario {
    private Scenario() {
    }

    /**
     * Waits up to a minute for {@code job} to run. A job that does not fails the test with what the
     * cluster knows of why: its status, the suspension cause (the jobs run with suspend-on-failure,
     * so a job that failed waits suspended, never RUNNING again) and each live member's last logged
     * warnings and errors — the member logs are gone once the cluster closes.
     */
    public static void awaitRunning(final Job job, final LocalCluster cluster) {
        awaitOrReport(() -> job.getStatus() == JobStatus.RUNNING, "not RUNNING", job, cluster);
    }

    /**
     * The id of the job's last completed snapshot (-1: none yet), from Jet's execution record. Right
     * after a kill -9 the client may still send a call over the dead member's connection, which then
     * fails with {@link TargetDisconnectedException} — nothing about the job — so the read is
     * repeated for up to 30 s (CI saw the first read after a kill fail that way).
     */
    static long lastSnapshotId(final HazelcastInstance client, final long jobId) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                final JobExecutionRecord record =
                        client.<Long, JobExecutionRecord>getMap(JobRepository.JOB_EXECUTION_RECORDS_MAP_NAME).get(jobId);
                return record == null ? -1 : record.snapshotId();
            } catch (final TargetDisconnectedException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(100));
            }
        }
    }

    /**
     * Waits up to a minute for {@code job} to complete a snapshot after the last one completed now:
     * the job has recovered from whatever came before (a member killed, a restart) and runs in full.
     * Fails the test as {@link #awaitRunning} does when it does not.
     */
    public static void awaitNextSnapshot(final HazelcastInstance client, final Job job, final LocalCluster cluster) {
        final long last = lastSnapshotId(client, job.getId());
        awaitOrReport(() -> lastSnapshotId(client, job.getId()) > last, "no snapshot after " + last, job, cluster);
    }

    /** Waits up to a minute for {@code condition}; on timeout fails with {@code what} and {@link #jobReport}. */
    private static void awaitOrReport(final Callable<Boolean> condition, final String what, final Job job, final LocalCluster cluster) {
        try {
            await().atMost(Duration.ofMinutes(1)).until(condition);
        } catch (final ConditionTimeoutException e) {
            throw new AssertionError(what + ": " + jobReport(job, cluster), e);
        }
    }

    private static String jobReport(final Job job, final LocalCluster cluster) {
        final StringBuilder why = new StringBuilder("job '" + job.getName() + "' after a minute");
        try {
            final JobStatus status = job.getStatus();
            why.append(": ").append(status);
            if (status == JobStatus.SUSPENDED) {
                why.append(", suspended because: ").append(job.getSuspensionCause());
            }
        } catch (final RuntimeException e) {
            why.append(": its status could not be read (").append(e).append(')');
        }
        for (final MemberProcess member : cluster.members()) {
            try {
                final List<String> problems = member.log().lines()
                        .filter(line -> line.contains(" SEVERE ") || line.contains(" WARNING ") || line.startsWith("Caused by"))
                        .toList();
                why.append("\n--- ").append(member).append(", last of its ").append(problems.size()).append(" warnings and errors:");
                problems.subList(Math.max(0, problems.size() - 20), problems.size()).forEach(line -> why.append("\n").append(line));
            } catch (final UncheckedIOException e) {
                why.append("\n--- ").append(member).append(": its log could not be read (").append(e).append(')');
            }
        }
        return why.toString();
    }

    /** True when the job can no longer make progress by itself: failed, or suspended (the cause is printed). */
    public static boolean stopped(final Job job) {
        final JobStatus status = job.getStatus();
        if (status == JobStatus.SUSPENDED) {
            System.out.println("job " + job.getName() + " is suspended: " + job.getSuspensionCause());
        }
        return status == JobStatus.FAILED || status == JobStatus.SUSPENDED;
    }

    /**
     * A member that is not the cluster's master (Jet's job coordinator): the oldest member, which is
     * not necessarily the first started. Killing the coordinator is a different test — Jet then
     * waits out invocation timeouts (minutes) before the new master restarts the job.
     */
    public static MemberProcess notTheCoordinator(final LocalCluster cluster, final HazelcastInstance client) {
        final Address master = client.getCluster().getMembers().iterator().next().getAddress();
        return cluster.members().stream().filter(m -> m.port() != master.getPort()).findFirst()
                .orElseThrow(() -> new IllegalStateException("no member besides the master " + master));
    }

    /** The log of the built-in request type under {@code ingestDir}, where ip-traffic reads. */
    static SchemaLog requestLog(final Path ingestDir, final int partitions) {
        return SchemaLog.open(SchemaLog.directoryOf(ingestDir, EventType.REQUEST.schema().name()), EventType.REQUEST.schema(), partitions);
    }

    /** The brute-force windows of {@code spec}'s events, as a job over {@code partitions} partitions sees them. */
    static WindowOracle.Result oracle(final GeneratorSpec spec, final int partitions, final long size, final long slide,
                                      final long disorder, final long lateness) {
        final List<WindowOracle.Event> events = new ArrayList<>((int) spec.events());
        new EventGenerator(spec).generate(r -> events.add(new WindowOracle.Event(
                KeyPartitions.partitionOf(r.keyLong(), partitions), r.keyLong(), r.eventTime(), r.sequence(), null)));
        return WindowOracle.sliding(events, size, slide, disorder, lateness);
    }

    /**
     * The alerts ip-traffic must raise, derived apart from the job: per partition in log order, an
     * event counts towards its window's on-time result when the window's end was still ahead of the
     * watermark before it (the result is emitted once the watermark reaches the end); late and
     * after-watermark events do not. Per IP, in window order, the on-time counts feed a Welford
     * baseline; a count at least {@code floor} and above {@code factor} × the mean, after
     * {@code minWindows} windows, is an alert. Returns alert key → window count.
     */
    static Map<String, Long> alerts(final GeneratorSpec spec, final int partitions, final long size, final long disorder,
                                    final long lateness, final double factor, final long floor, final int minWindows) {
        final Map<Integer, Long> maxTimestampByPartition = new HashMap<>();
        final Map<Long, TreeMap<Long, Long>> onTimeCountByStartByIp = new HashMap<>();
        new EventGenerator(spec).generate(r -> {
            final int partition = KeyPartitions.partitionOf(r.keyLong(), partitions);
            final Long max = maxTimestampByPartition.get(partition);
            final long watermark = max == null ? Long.MIN_VALUE : max - disorder;
            final long start = Math.floorDiv(r.eventTime(), size) * size;
            if (start + size > watermark) {
                onTimeCountByStartByIp.computeIfAbsent(r.keyLong(), ip -> new TreeMap<>()).merge(start, 1L, Long::sum);
            }
            maxTimestampByPartition.merge(partition, r.eventTime(), Math::max);
        });
        final Map<String, Long> alerts = new HashMap<>();
        onTimeCountByStartByIp.forEach((ip, countByStart) -> {
            long windows = 0;
            double mean = 0;
            for (final Map.Entry<Long, Long> window : countByStart.entrySet()) {
                final long count = window.getValue();
                if (windows >= minWindows && count >= floor && count > factor * mean) {
                    alerts.put(IpTrafficJob.windowKey(ip, window.getKey()), count);
                }
                windows++;
                mean += (count - mean) / windows;
            }
        });
        return alerts;
    }

    /** The columns of ip-traffic's Cassandra window table that {@link #ipWindowRows} gives. */
    static final List<String> IP_WINDOW_COLUMNS = List.of("ip", "window_start", "window_end", "count");

    /**
     * The rows ip-traffic's Cassandra window table must hold for {@code oracle}'s windows, keyed by
     * (ip, start), each as {@link #IP_WINDOW_COLUMNS}.
     */
    static Map<List<Object>, List<Object>> ipWindowRows(final WindowOracle.Result oracle) {
        final Map<List<Object>, List<Object>> rows = new HashMap<>();
        oracle.windows().forEach((id, accepted) -> {
            final String ip = BuiltInEvents.ipToString(id.key());
            rows.put(List.of(ip, id.start()), List.of(ip, id.start(), id.end(), (long) accepted.size()));
        });
        return rows;
    }

    /**
     * What ip-traffic with one-minute tumbling windows must end with over {@code spec}'s events in
     * {@code partitions} log partitions: every window count by window key, the same windows as rows
     * of its Cassandra table ({@link #ipWindowRows}), every alert's count, and the sequences of the
     * events too late for their window.
     */
    record IpTrafficExpected(Map<String, Long> windows, Map<List<Object>, List<Object>> windowRows, Map<String, Long> alerts,
                             Set<Long> lateSequences) {
        static IpTrafficExpected of(final GeneratorSpec spec, final IpTrafficJob job, final int partitions) {
            final long disorder = job.policy().allowedDisorderMs();
            final long lateness = job.policy().allowedLatenessMs();
            final WindowOracle.Result oracle = Scenario.oracle(spec, partitions, 60_000, 60_000, disorder, lateness);
            final Map<String, Long> windows = new HashMap<>();
            oracle.windows().forEach((id, accepted) -> windows.put(IpTrafficJob.windowKey(id.key(), id.start()), (long) accepted.size()));
            return new IpTrafficExpected(windows, ipWindowRows(oracle), Scenario.alerts(spec, partitions, 60_000, disorder, lateness,
                    job.alertFactor(), job.alertFloor(), job.baselineMinWindows()), oracle.lateSequences());
        }
    }

    /**
     * Waits (up to 4 minutes, failing fast if {@code running} fails) until {@code job}'s window
     * counts equal {@code expected}; returns the counts last read, equal or not (the caller reports
     * and asserts).
     */
    static Map<String, Long> awaitWindows(final HazelcastInstance client, final IpTrafficJob job,
                                          final Map<String, Long> expected, final Job running) {
        final AtomicReference<Map<String, Long>> last = new AtomicReference<>(Map.of());
        try {
            JobTestSupport.awaitEqual(expected, () -> {
                final Map<String, Long> now = client.<String, IpWindowCount>getMap(job.stateMap()).entrySet().stream()
                        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().count()));
                last.set(now);
                return now;
            }, Duration.ofMinutes(4), running);
        } catch (final AssertionError e) {
            System.out.println("did not converge: " + e.getMessage());
        }
        return last.get();
    }

    /** Window counts found against the oracle's: windows missing, counted too high, too low, not expected. */
    record WindowDiff(long lost, long over, long under, long extra) {
        static WindowDiff of(final Map<String, Long> expected, final Map<String, Long> found) {
            return new WindowDiff(expected.keySet().stream().filter(k -> !found.containsKey(k)).count(),
                    expected.entrySet().stream().filter(e -> found.getOrDefault(e.getKey(), 0L) > e.getValue()).count(),
                    expected.entrySet().stream().filter(e -> found.containsKey(e.getKey()) && found.get(e.getKey()) < e.getValue()).count(),
                    found.keySet().stream().filter(k -> !expected.containsKey(k)).count());
        }
    }

    /** A thread appending {@code spec}'s events over about {@code seconds}, counting into {@code appended}. */
    public static final class PacedWriter extends Thread {
        /** Appends every event, calling {@code afterEach} after each. */
        public interface Source {
            void appendAll(Runnable afterEach);
        }

        public final AtomicLong appended = new AtomicLong();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final Source source;
        private final long total;
        private final long seconds;

        /** Appends {@code spec}'s events (of a built-in type) to {@code log}, that type's log. */
        public PacedWriter(final GeneratorSpec spec, final EventLog log, final long seconds) {
            this(afterEach -> new EventGenerator(spec).generate((SchemaRecord record) -> {
                log.append(record);
                afterEach.run();
            }), spec.events(), seconds);
        }

        public PacedWriter(final Source source, final long total, final long seconds) {
            super("ingest-writer");
            this.source = source;
            this.total = total;
            this.seconds = seconds;
        }

        @Override
        public void run() {
            try {
                final long batch = Math.max(1, total / 200);
                final long start = System.nanoTime();
                source.appendAll(() -> {
                    final long count = appended.incrementAndGet();
                    if (count % batch == 0) {
                        final long due = start + TimeUnit.SECONDS.toNanos(seconds) * count / total;
                        sleepNanos(due - System.nanoTime());
                    }
                });
            } catch (final Throwable t) {
                failure.set(t);
            }
        }

        /** Waits for the writer; rethrows what made it fail. */
        public void finish() throws InterruptedException {
            join();
            if (failure.get() != null) {
                throw new AssertionError("ingest writer failed", failure.get());
            }
        }

        public void awaitAppended(final long events) {
            await().atMost(Duration.ofMinutes(2)).until(() -> appended.get() >= events);
        }

        private static void sleepNanos(final long nanos) {
            if (nanos <= 0) {
                return;
            }
            try {
                TimeUnit.NANOSECONDS.sleep(nanos);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    /**
     * Counts the times a job leaves RUNNING by polling every 10 ms, not by a status listener: a
     * listener dies with the member it was registered on.
     */
    static final class RestartCounter extends Thread {
        final AtomicLong restarts = new AtomicLong();
        private final Job job;

        RestartCounter(final Job job) {
            super("job-status-watch");
            this.job = job;
            setDaemon(true);
        }

        @Override
        public void run() {
            JobStatus previous = JobStatus.RUNNING;
            while (!isInterrupted()) {
                try {
                    final JobStatus now = job.getStatus();
                    if (previous == JobStatus.RUNNING && now != JobStatus.RUNNING) {
                        restarts.incrementAndGet();
                    }
                    previous = now;
                    Thread.sleep(10);
                } catch (final InterruptedException e) {
                    return;
                } catch (final RuntimeException coordinatorGoneMidCall) {
                    previous = JobStatus.NOT_RUNNING; // the job is restarting on another coordinator
                }
            }
        }
    }
}
