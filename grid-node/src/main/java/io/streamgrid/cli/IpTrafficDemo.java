package io.streamgrid.cli;

import com.datastax.oss.driver.api.core.CqlSession;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.map.IMap;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.client.Delta;
import io.streamgrid.client.DeltaListener;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.client.Subscription;
import io.streamgrid.client.SubscriptionOptions;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.EventGenerator;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.CassandraOutput;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.usecase.IpTrafficJob;
import io.streamgrid.jobs.usecase.IpWindowCount;
import io.streamgrid.jobs.usecase.TrafficAlert;
import io.streamgrid.node.impl.ConfigTree;
import io.streamgrid.node.impl.JobCatalog;
import io.streamgrid.sink.CassandraSchema;
import io.streamgrid.sink.CassandraServer;
import io.streamgrid.sink.CassandraTarget;
import io.streamgrid.sink.SinkOptions;
import io.streamgrid.sink.TableSpec;
import io.streamgrid.sink.TableVerifier;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The demo's second part: ip-traffic (settings from the shipped defaults) over generated requests
 * with a spiking IP every minute, alerts printed as they arrive, and a final count check: every
 * request is either counted in a window or in the late side output, exactly once.
 */
final class IpTrafficDemo {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);
    private static final int PARTITIONS = 4;

    private final PrintWriter out;
    private final Path ingestDir;
    private final long requests;
    private final CassandraServer cassandra;

    IpTrafficDemo(final PrintWriter out, final Path ingestDir, final long requests, final CassandraServer cassandra) {
        this.out = out;
        this.ingestDir = ingestDir;
        this.requests = requests;
        this.cassandra = cassandra;
    }

    boolean run(final StreamGridClient streamGrid) throws Exception {
        final HazelcastInstance client = streamGrid.hazelcast();
        final ConfigTree defaults = ConfigTree.load(Optional.empty());
        final WindowedJob<?> job = JobCatalog.job(IpTrafficJob.NAME, defaults);
        final JobOptions options = JobCatalog.options(defaults).withIngestDir(ingestDir);
        final GeneratorSpec spec = GeneratorSpec.of(EventType.REQUEST, 2026, requests, 200).withRate(1_000).withZipf(0.6)
                .withDisorder(2_000, 0.005, 180_000).withHotKeys(0.05, 60_000);
        out.println("== ip-traffic: requests per IP per minute, alerts when an IP spikes above its baseline");
        out.println("   " + requests + " requests from 200 IPs, 10 minutes of event time, one spiking IP per minute,"
                + " 0.5 % late; job exactly-once, snapshots every " + options.snapshotIntervalMs() + " ms");
        if (job instanceof IpTrafficJob ipTraffic) {
            out.println("   an IP alerts only once it has " + ipTraffic.baselineMinWindows() + " earlier minutes as its baseline, so the"
                    + " first minutes' spikes raise no alert (nor does a spike of an IP new to the stream)");
        }

        final AtomicInteger alerts = new AtomicInteger();
        final AlertsInWindowOrder inWindowOrder = new AlertsInWindowOrder();
        // A continuous query: snapshot (empty), then every alert as it is written.
        final Subscription alertFeed = streamGrid.subscribe(IpTrafficJob.ALERTS_MAP, "count >= 100", new DeltaListener() {
            @Override
            public void onSnapshot(final Map<Object, Object> entries) {
                out.println("   subscribed to " + IpTrafficJob.ALERTS_MAP + " where count >= 100 (" + entries.size() + " so far)");
            }

            @Override
            public void onDelta(final Delta delta) {
                if (delta.kind() == Delta.Kind.LEAVE) {
                    return;
                }
                alerts.incrementAndGet();
                inWindowOrder.add((TrafficAlert) delta.value());
            }
        }, SubscriptionOptions.defaults());

        final CassandraTarget target = CassandraTarget.local(cassandra, "streamgrid_demo");
        final CassandraOutput output = IpTrafficJob.cassandraOutput(target, SinkOptions.defaults());
        final TableSpec countsTable = output.bindings().get(0).table();
        try (CqlSession session = target.connect()) {
            for (final CassandraOutput.Binding binding : output.bindings()) {
                CassandraSchema.ensure(session, target, binding.table());
            }
        }
        try (SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(ingestDir, job.schema().name()), job.schema(), PARTITIONS);
             CqlSession session = target.connect()) {
            final Job running = Jobs.submit(client.getJet(), job, options, output);
            appendPaced(spec, log, 20);
            log.appendEndOfStream();
            final IMap<String, IpWindowCount> windows = client.getMap(job.stateMap());
            final IMap<String, Object> late = client.getMap(job.lateMap());
            out.println("== all " + requests + " requests appended, then the end of the stream; waiting for the job to count them");
            final long[] countedAndLate = Demos.readUntil(out, "every request counted in a window or as late",
                    () -> new long[] {windows.values().stream().mapToLong(IpWindowCount::count).sum(), late.size()},
                    read -> read[0] + read[1] >= requests);
            final long counted = countedAndLate[0];
            TimeUnit.SECONDS.sleep(1); // let the last alerts arrive
            inWindowOrder.printAll();
            final long lateCount = late.size();
            final long missing = requests - counted - lateCount;
            out.println("== ip-traffic: " + windows.size() + " windows, " + alerts.get() + " alerts; " + requests + " requests: "
                    + counted + " counted in windows, " + lateCount + " too late (in " + job.lateMap() + "), "
                    + Math.max(0, missing) + " lost, " + Math.max(0, -missing) + " duplicated");
            // Cassandra rows appear when the snapshot covering them completes: wait for the last commit.
            final Map<List<Object>, List<Object>> expected = new HashMap<>();
            windows.values().forEach(w -> expected.put(List.of(w.ip(), w.windowStart()),
                    List.of(w.ip(), w.windowStart(), w.count())));
            TableVerifier.Report report = TableVerifier.verify(session, countsTable, List.of("ip", "window_start", "count"), expected);
            final long commitDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!report.isExact() && System.nanoTime() < commitDeadline) {
                Thread.sleep(500);
                report = TableVerifier.verify(session, countsTable, List.of("ip", "window_start", "count"), expected);
            }
            out.println("== Cassandra " + countsTable.qualifiedName() + " (committed exactly-once) against the grid's windows: " + report);
            running.cancel();
            alertFeed.close();
            return missing == 0 && alerts.get() > 0 && report.isExact();
        }
    }

    /**
     * Prints alerts in window order though they arrive as each partition's windows close: an alert
     * waits until one of a window a minute later has come (or the end), then goes out with the
     * others of its minute, sorted by IP.
     */
    private final class AlertsInWindowOrder {
        private final TreeMap<String, TrafficAlert> waiting = new TreeMap<>();

        synchronized void add(final TrafficAlert alert) {
            waiting.put(String.format("%020d %s", alert.windowStart(), alert.ip()), alert);
            final long latest = waiting.lastEntry().getValue().windowStart();
            while (!waiting.isEmpty() && waiting.firstEntry().getValue().windowStart() < latest - 60_000) {
                print(waiting.pollFirstEntry().getValue());
            }
        }

        synchronized void printAll() {
            while (!waiting.isEmpty()) {
                print(waiting.pollFirstEntry().getValue());
            }
        }

        private void print(final TrafficAlert alert) {
            out.printf("   ALERT %-12s %s-%s  %5d requests, baseline %.0f ± %.0f%n", alert.ip(),
                    TIME.format(Instant.ofEpochMilli(alert.windowStart())), TIME.format(Instant.ofEpochMilli(alert.windowEnd())),
                    alert.count(), alert.baselineMean(), alert.baselineStdDev());
        }
    }

    /** Appends the requests over about {@code seconds} seconds, printing progress. */
    private void appendPaced(final GeneratorSpec spec, final SchemaLog log, final int seconds) throws InterruptedException {
        final long start = System.nanoTime();
        final long step = spec.events() / 10;
        final long[] appended = {0};
        final boolean[] interrupted = {false};
        new EventGenerator(spec).generate(record -> {
            log.append(record);
            if (++appended[0] % step == 0) {
                out.println("   appended " + appended[0] + " requests");
                final long due = start + TimeUnit.SECONDS.toNanos(seconds) * appended[0] / spec.events();
                try {
                    TimeUnit.NANOSECONDS.sleep(Math.max(0, due - System.nanoTime()));
                } catch (final InterruptedException e) {
                    interrupted[0] = true;
                    Thread.currentThread().interrupt();
                }
            }
        });
        if (interrupted[0]) {
            throw new InterruptedException("interrupted while appending requests");
        }
    }
}
