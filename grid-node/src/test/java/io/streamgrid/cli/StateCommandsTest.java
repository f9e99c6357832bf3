package io.streamgrid.cli;

import com.hazelcast.map.IMap;
import com.hazelcast.nio.serialization.genericrecord.GenericRecord;
import com.hazelcast.nio.serialization.genericrecord.GenericRecordBuilder;
import io.streamgrid.client.OneMemberGrid;
import io.streamgrid.client.Tick;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** {@code get}, {@code query} and {@code watch} print what a client reads, against a running member. */
class StateCommandsTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void when_entriesAreInAMap_then_getAndQueryPrintThemByFieldName() throws Exception {
        try (OneMemberGrid grid = OneMemberGrid.start(dir)) {
            final String config = grid.config.toString();
            final IMap<Object, Object> ticks = grid.client.hazelcast().getMap("state.cli-ticks");
            for (long key = 0; key < 30; key++) {
                ticks.set(key, new Tick(key, key + 100, key % 5, key % 2 == 0 ? "even" : "odd"));
            }
            ticks.set("10.0.0.7", new Tick(7, 1, 9, "text key"));
            // A Compact value whose class the CLI does not have: printed by its Compact fields.
            final GenericRecord sensor = GenericRecordBuilder.compact("Sensor").setString("site", "Oslo")
                    .setFloat64("celsius", 21.5).setInt64("readings", 12).build();
            grid.client.hazelcast().getMap("state.cli-sensors").set("s-1", sensor);

            final CliRun get = CliRun.of("get", "state.cli-ticks", "7", "--config", config);
            assertThat(get.code()).as(get.err()).isZero();
            assertThat(get.out().lines()).containsExactly("key      7", "version  107", "bucket   2", "tag      odd");

            assertThat(CliRun.of("get", "state.cli-ticks", "10.0.0.7", "--config", config).out()).contains("tag      text key");
            assertThat(CliRun.of("get", "state.cli-ticks", "7", "--json", "--config", config).out().trim())
                    .isEqualTo("{\"key\":7,\"value\":{\"key\":7,\"version\":107,\"bucket\":2,\"tag\":\"odd\"}}");
            assertThat(CliRun.of("get", "state.cli-sensors", "s-1", "--config", config).out().lines())
                    .containsExactly("celsius   21.5", "readings  12", "site      Oslo");

            // A window result's framework fields get a legend under the value (and under a table), their meaning said once.
            grid.client.hazelcast().getMap("state.cli-windows").set("10.0.0.1@1767225600000",
                    new io.streamgrid.jobs.usecase.IpWindowCount("10.0.0.1", 1_767_225_600_000L, 1_767_225_660_000L, 42, 2, true));
            assertThat(CliRun.of("get", "state.cli-windows", "10.0.0.1@1767225600000", "--config", config).out().lines()).containsExactly(
                    "ip              10.0.0.1", "windowStart     2026-01-01T00:00:00Z", "windowEnd       2026-01-01T00:01:00Z",
                    "count           42", "updateSequence  2", "corrected       true",
                    "  updateSequence: 1 = the window's on-time result; 2, 3, ... = corrected that many times by late events",
                    "  corrected: true = late events changed this result after its window first closed");
            assertThat(CliRun.of("query", "state.cli-windows", "--config", config).out().lines()).endsWith("(1 matching entry)",
                    "  updateSequence: 1 = the window's on-time result; 2, 3, ... = corrected that many times by late events",
                    "  corrected: true = late events changed this result after its window first closed");
            assertThat(CliRun.of("query", "state.cli-ticks", "--where", "version = 101", "--config", config).out())
                    .as("no legend where no column needs one").doesNotContain("updateSequence");

            final CliRun missing = CliRun.of("get", "state.cli-ticks", "99", "--config", config);
            assertThat(missing.code()).isEqualTo(StreamGridCli.EXIT_FAILED);
            assertThat(missing.err()).contains("no entry with key '99' in state.cli-ticks");
            grid.client.hazelcast().getMap("streamgrid.subscriptions").set("internal", "not the user's"); // as a watch leaves
            final CliRun typo = CliRun.of("get", "state.cli-tick", "7", "--config", config);
            assertThat(typo.code()).isEqualTo(StreamGridCli.EXIT_USAGE);
            assertThat(typo.err()).contains("no map named 'state.cli-tick'").contains("its maps: state.cli-sensors, state.cli-ticks, state.cli-windows")
                    .doesNotContain("streamgrid.subscriptions");

            final CliRun query = CliRun.of("query", "state.cli-ticks", "--where", "bucket = 2 AND tag = 'even'", "--config", config);
            assertThat(query.code()).as(query.err()).isZero();
            assertThat(query.out().lines()).containsExactly(
                    "KEY  KEY  VERSION  BUCKET  TAG",
                    "2    2    102      2       even",
                    "12   12   112      2       even",
                    "22   22   122      2       even",
                    "(3 matching entries)");
            final CliRun limited = CliRun.of("query", "state.cli-ticks", "--where", "bucket < 5", "--limit", "4", "--config", config);
            assertThat(limited.out().lines()).hasSize(6).last().isEqualTo("(4 of 30 matching entries shown; --limit to see more)");
            final CliRun json = CliRun.of("query", "state.cli-ticks", "--where", "version = 101", "--json", "--config", config);
            assertThat(json.out().trim()).isEqualTo("{\"key\":1,\"value\":{\"key\":1,\"version\":101,\"bucket\":1,\"tag\":\"odd\"}}");
            // A mistake in --where is the user's: exit 2, one line naming it, no hint of a crash.
            for (final String mistake : List.of("bucket <", "bucket >> 3", "buckets > 3")) {
                final CliRun badWhere = CliRun.of("query", "state.cli-ticks", "--where", mistake, "--config", config);
                assertThat(badWhere.code()).as("--where \"%s\": %s", mistake, badWhere.err()).isEqualTo(StreamGridCli.EXIT_USAGE);
                assertThat(badWhere.err()).contains("--where").doesNotContain("failed").doesNotContain("--verbose");
                assertThat(badWhere.err().lines()).hasSize(1);
                System.out.print("query --where \"" + mistake + "\" -> exit " + badWhere.code() + ": " + badWhere.err());
            }
            assertThat(CliRun.of("query", "state.cli-ticks", "--where", "bucket <", "--config", config).err()).contains("position");
            assertThat(CliRun.of("query", "state.cli-ticks", "--where", "buckets > 3", "--config", config).err())
                    .contains("no field 'buckets'");
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void when_watching_then_theSnapshotThenEachChangeIsPrintedAsItHappens() throws Exception {
        try (OneMemberGrid grid = OneMemberGrid.start(dir)) {
            final IMap<Object, Object> ticks = grid.client.hazelcast().getMap("state.cli-watch");
            ticks.set(1L, new Tick(1, 1, 1, "in"));
            ticks.set(2L, new Tick(2, 1, 7, "out"));
            final StringWriter out = new StringWriter();
            final StringWriter err = new StringWriter();
            final AtomicInteger code = new AtomicInteger(-1);
            final Thread watch = new Thread(() -> code.set(StreamGridCli.run(new String[]{"watch", "state.cli-watch", "--where",
                    "bucket < 5", "--changes", "3", "--config", grid.config.toString()}, new PrintWriter(out, true), new PrintWriter(err, true))));
            watch.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> out.toString().contains("-- 1 matching entry"));

            final long written = System.nanoTime();
            ticks.set(2L, new Tick(2, 2, 3, "now in"));
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5)).until(() -> out.toString().contains("ENTER"));
            final long shownMs = (System.nanoTime() - written) / 1_000_000;
            ticks.set(1L, new Tick(1, 2, 2, "still in"));
            ticks.set(1L, new Tick(1, 3, 9, "gone"));
            watch.join(30_000);

            System.out.println(out);
            System.out.println("the first change was printed " + shownMs + " ms after its write");
            assertThat(code.get()).as(err.toString()).isZero();
            final List<String> lines = out.toString().lines().toList();
            assertThat(lines).containsExactly(
                    "SNAPSHOT  1  key=1  version=1  bucket=1  tag=in",
                    "-- 1 matching entry; changes follow as they happen (until 3)",
                    "ENTER  2  key=2  version=2  bucket=3  tag=now in",
                    "UPDATE  1  key=1  version=2  bucket=2  tag=still in",
                    "LEAVE  1  key=1  version=2  bucket=2  tag=still in");

            final CliRun unknownField = CliRun.of("watch", "state.cli-watch", "--where", "buckets < 5", "--config", grid.config.toString());
            System.out.print("watch --where \"buckets < 5\" -> exit " + unknownField.code() + ": " + unknownField.err());
            assertThat(unknownField.code()).as(unknownField.err()).isEqualTo(StreamGridCli.EXIT_USAGE);
            assertThat(unknownField.err()).contains("--where", "no field 'buckets'").doesNotContain("--verbose");
        }
    }

    /**
     * {@code watch --changes N} prints N changes, however many arrive together: a delivery thread
     * handed a batch went on printing after the N-th until the subscription closed (the README
     * walkthrough's watch of state.alerts printed two alerts of one window end for {@code --changes 1}).
     */
    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void when_manyChangesArriveTogether_then_watchPrintsOnlyTheNumberAskedFor() throws Exception {
        try (OneMemberGrid grid = OneMemberGrid.start(dir)) {
            final IMap<Object, Object> ticks = grid.client.hazelcast().getMap("state.cli-watch-many");
            ticks.set(0L, new Tick(0, 1, 1, "first"));
            final StringWriter out = new StringWriter();
            final StringWriter err = new StringWriter();
            final AtomicInteger code = new AtomicInteger(-1);
            final Thread watch = new Thread(() -> code.set(StreamGridCli.run(new String[]{"watch", "state.cli-watch-many",
                    "--changes", "2", "--config", grid.config.toString()}, new PrintWriter(out, true), new PrintWriter(err, true))));
            watch.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> out.toString().contains("-- 1 matching entry"));
            final Map<Object, Object> many = new HashMap<>();
            for (long key = 1; key <= 200; key++) {
                many.put(key, new Tick(key, 1, 1, "together"));
            }
            ticks.putAll(many);
            watch.join(30_000);

            assertThat(code.get()).as(err.toString()).isZero();
            assertThat(out.toString().lines().filter(line -> line.startsWith("ENTER "))).as(out.toString()).hasSize(2);
        }
    }
}
