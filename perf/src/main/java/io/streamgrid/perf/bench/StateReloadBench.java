package io.streamgrid.perf.bench;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.nio.serialization.genericrecord.GenericRecord;
import com.hazelcast.nio.serialization.genericrecord.GenericRecordBuilder;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.LocalClusterBuilder;
import io.streamgrid.cluster.MemberProcess;
import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.Benchmark;
import io.streamgrid.perf.report.BenchResult;
import io.streamgrid.perf.report.Environment;
import io.streamgrid.perf.report.Measurement;
import io.streamgrid.perf.report.Ratio;
import io.streamgrid.sink.CassandraServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Issue 16's restart figures: how fast a persisted state map comes back after the whole cluster
 * stopped. A 2-member cluster with persistence on is filled with Compact records through a client
 * and stopped (SIGTERM to all, which writes the pending changes); then, taking turns, (1) a
 * cluster starts again from the same configuration and loads the map eagerly, and (2) the raw
 * driver reads the same table (every partition's rows, keys and values, many queries in flight).
 * Ours: the load's time from the members' logs (first "loading" to last "loaded" line) and the time
 * from launching the member JVMs to the map being loaded; a client then checks the entry count.
 * Raw: the read time.
 */
public final class StateReloadBench implements Benchmark {
    private static final String KEYSPACE = "reload";
    private static final String MAP = "state.accounts";
    private static final int QUERIES_IN_FLIGHT = 32;
    private static final Pattern LOADED = Pattern.compile("state persistence: " + Pattern.quote(MAP) + " loaded, \\d+ entries");
    private static final Pattern LOADING = Pattern.compile("state persistence: loading \\d+ persisted maps");

    @Override
    public String name() {
        return "state-reload";
    }

    @Override
    public String title() {
        return "State persistence: a persisted map's reload after a whole-cluster restart vs a raw driver read of its table";
    }

    @Override
    public BenchResult run(final BenchContext context) throws Exception {
        final int entries = context.pick(200_000, 1_000_000);
        final int runs = context.pick(2, 3);
        final double[] loadRates = new double[runs];
        final double[] restartSeconds = new double[runs];
        final double[] rawRates = new double[runs];
        long bytes = 0;
        try (CassandraServer server = CassandraServer.start(context.workDir().resolve("cassandra"), context::progress);
             CqlSession session = server.newSession()) {
            final Path config = writeConfig(context.workDir(), server);
            fill(context, config, entries);
            for (int run = 0; run < runs; run++) {
                final long[] read = rawRead(session);
                if (read[0] != entries) {
                    throw new IllegalStateException("raw read: " + entries + " expected, " + read[0] + " found");
                }
                bytes = read[1];
                rawRates[run] = read[0] / (read[2] / 1e9);
                context.progress(String.format(Locale.ROOT, "run %d/%d raw driver read: %,.0f rows/s (%,d rows, %,d bytes)",
                        run + 1, runs, rawRates[run], read[0], read[1]));
                final double[] ours = restart(context, config, entries, run);
                restartSeconds[run] = ours[0];
                loadRates[run] = entries / ours[1];
                context.progress(String.format(Locale.ROOT, "run %d/%d restart: every entry readable %.1f s after launch;"
                        + " load %.1f s = %,.0f entries/s", run + 1, runs, ours[0], ours[1], loadRates[run]));
            }
        }
        final Measurement load = Measurement.of("StreamGrid: eager load at member start (2 members)", "ours", "entries/s", loadRates);
        final Measurement raw = Measurement.of("raw driver: read every row of the table, " + QUERIES_IN_FLIGHT + " queries in flight",
                "reference", "rows/s", rawRates);
        final Measurement restart = Measurement.of("StreamGrid: member JVMs launched to every entry readable", "ours", "s", restartSeconds);
        final double gib = bytes / (double) (1L << 30);
        return new BenchResult(name(), title(), String.format(Locale.ROOT,
                "Cassandra %s, one node in a child JVM on loopback, RF 1, consistency ONE. %,d entries (String key, a Compact "
                        + "record of 3 fields; %,d bytes of keys and values in the table, %.3f GiB) written by a client into "
                        + "a 2-member cluster (write-behind), which then stops gracefully. %d runs, taking turns: the raw "
                        + "driver reads all 271 partitions of the map (keys and values); a new 2-member cluster starts from "
                        + "the same configuration and loads the map eagerly (Hazelcast's MapLoader: keys listed by one "
                        + "member, values fetched by the partitions' owners in batches).",
                        Environment.current().versions().get("cassandra-server"), entries, bytes, gib, runs),
                context.pick("quick", "full"), Instant.now().toString(), Environment.current(), List.of(load, raw, restart),
                List.of(),
                List.of(Ratio.of("StreamGrid load / raw driver read, entries/s", load.median(), raw.median(),
                        "1 would be as fast as reading the table")),
                List.of(),
                List.of(String.format(Locale.ROOT, "Per GiB of table (%,d bytes of keys and values here): the restart "
                                        + "%.0f s, the load alone %.0f s, the raw read %.1f s (medians scaled linearly).",
                                bytes, restart.median() / gib, entries / load.median() / gib, entries / raw.median() / gib),
                        "The load's time is from the first member's \"loading\" log line to the last member's \"loaded\" "
                                + "line (members log them when they start loading at start and when the map is loaded); the "
                                + "restart's is from launching the JVMs to both members having logged the map loaded.",
                        "Cassandra, both members and the benchmark share 2 cores."));
    }

    private static Path writeConfig(final Path workDir, final CassandraServer server) throws IOException {
        Files.createDirectories(workDir);
        final Path file = workDir.resolve("streamgrid.yaml");
        Files.writeString(file, String.join("\n", "cassandra:", "  contact-points: [127.0.0.1:" + server.nativePort() + "]",
                "  keyspace: " + KEYSPACE, "  consistency-level: ONE", "persistence:", "  enabled: true", ""));
        return file;
    }

    private static LocalClusterBuilder cluster(final BenchContext context, final Path config, final String dir) {
        return LocalCluster.builder().members(2).memberHeap(context.pick("1g", "2g")).configFile(config)
                .workDir(context.workDir().resolve(dir)).progress(context::progress);
    }

    private static void fill(final BenchContext context, final Path config, final int entries) {
        try (LocalCluster cluster = cluster(context, config, "fill").start()) {
            final HazelcastInstance client = cluster.newClient();
            final IMap<String, GenericRecord> map = client.getMap(MAP);
            final Map<String, GenericRecord> batch = new HashMap<>();
            for (int i = 0; i < entries; i++) {
                batch.put("acct-" + i, GenericRecordBuilder.compact("bench.Account").setString("owner", "owner-" + i)
                        .setInt64("balanceCents", i * 100L).setInt32("version", 1).build());
                if (batch.size() == 1_000 || i == entries - 1) {
                    map.putAll(batch);
                    batch.clear();
                }
                if ((i + 1) % 100_000 == 0) {
                    context.progress(String.format(Locale.ROOT, "filled %,d of %,d", i + 1, entries));
                }
            }
            client.shutdown();
            cluster.stopAll();
        }
    }

    /**
     * Seconds from launch to every member having logged the map loaded, and the load's seconds:
     * from the first member's "loading" line to the last one's "loaded" line (log timestamps). The
     * client touches the map only afterwards (touching it first would start the load itself).
     */
    private static double[] restart(final BenchContext context, final Path config, final int entries, final int run)
            throws IOException, InterruptedException {
        final long start = System.nanoTime();
        try (LocalCluster cluster = cluster(context, config, "restart-" + run).start()) {
            final long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
            Instant began = null;
            Instant ended = null;
            for (final MemberProcess member : cluster.members()) {
                String log = Files.readString(member.logFile());
                while (!LOADED.matcher(log).find()) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(member + " logged no load of " + MAP + " in 10 minutes; see " + member.logFile());
                    }
                    Thread.sleep(100);
                    log = Files.readString(member.logFile());
                }
                final Instant loading = timeOfLine(log, LOADING);
                final Instant loaded = timeOfLine(log, LOADED);
                began = began == null || loading.isBefore(began) ? loading : began;
                ended = ended == null || loaded.isAfter(ended) ? loaded : ended;
            }
            final double readable = (System.nanoTime() - start) / 1e9;
            final int size = cluster.newClient().getMap(MAP).size();
            if (size != entries) {
                throw new IllegalStateException("after the restart " + entries + " expected, " + size + " found");
            }
            return new double[] {readable, Duration.between(began, ended).toMillis() / 1e3};
        }
    }

    /** The timestamp that starts the log line {@code pattern} matches (the member log's "yyyy-MM-dd HH:mm:ss.SSS"). */
    private static Instant timeOfLine(final String log, final Pattern pattern) {
        final Matcher matcher = pattern.matcher(log);
        if (!matcher.find()) {
            throw new IllegalStateException("no line matching " + pattern + " in a member log");
        }
        final int lineStart = log.lastIndexOf('\n', matcher.start()) + 1;
        return LocalDateTime.parse(log.substring(lineStart, lineStart + 23).replace(' ', 'T')).toInstant(ZoneOffset.UTC);
    }

    /** Rows, bytes of keys and values, nanoseconds: every row of the map, partition by partition, many partitions at once. */
    private static long[] rawRead(final CqlSession session) throws InterruptedException {
        final PreparedStatement select = session.prepare("SELECT key, value FROM " + KEYSPACE + ".state_entries WHERE map = ? AND bucket = ?");
        final AtomicLong rows = new AtomicLong();
        final AtomicLong bytes = new AtomicLong();
        final Semaphore inFlight = new Semaphore(QUERIES_IN_FLIGHT);
        final long start = System.nanoTime();
        final CompletableFuture<?>[] all = new CompletableFuture<?>[271];
        for (int bucket = 0; bucket < all.length; bucket++) {
            inFlight.acquire();
            final CompletableFuture<Void> done = new CompletableFuture<>();
            session.executeAsync(select.bind(MAP, bucket).setPageSize(5_000)).whenComplete((page, failure) ->
                    consume(page, failure, rows, bytes, done));
            all[bucket] = done.whenComplete((ignored, failure) -> inFlight.release());
        }
        CompletableFuture.allOf(all).join();
        return new long[] {rows.get(), bytes.get(), System.nanoTime() - start};
    }

    private static void consume(final AsyncResultSet page, final Throwable failure, final AtomicLong rows, final AtomicLong bytes,
                                final CompletableFuture<Void> done) {
        if (failure != null) {
            done.completeExceptionally(failure);
            return;
        }
        for (final Row row : page.currentPage()) {
            rows.incrementAndGet();
            bytes.addAndGet(row.getByteBuffer("key").remaining() + row.getByteBuffer("value").remaining());
        }
        if (page.hasMorePages()) {
            page.fetchNextPage().whenComplete((next, error) -> consume(next, error, rows, bytes, done));
        } else {
            done.complete(null);
        }
    }
}
