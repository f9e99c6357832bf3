package io.streamgrid.perf;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class BenchMainTest {
    @TempDir
    Path perfDir;

    @Test
    void when_listed_then_everyBenchmarkOfTheIssueIsNamed() {
        final StringWriter out = new StringWriter();
        final CommandLine command = BenchMain.commandLine();
        command.setOut(new PrintWriter(out));

        final int exit = command.execute("--list");

        assertThat(exit).isZero();
        assertThat(out.toString()).contains("windowing", "exactly-once", "point-reads", "cq-latency", "cq-fanout", "cq-slow-subscriber", "cassandra-sink",
                "ingest", "migration", "state-reload", "durable-snapshots");
    }

    @Test
    void when_unknownBenchmarkNamed_then_exit2AndTheKnownOnesListed() {
        final StringWriter err = new StringWriter();
        final CommandLine command = BenchMain.commandLine();
        command.setErr(new PrintWriter(err, true));

        final int exit = command.execute("--perf-dir", perfDir.toString(), "no-such-bench");

        assertThat(exit).isEqualTo(2);
        assertThat(err.toString()).contains("unknown benchmark 'no-such-bench'").contains("windowing");
        assertThat(perfDir.resolve("RESULTS.md")).doesNotExist();
    }

    @Test
    void when_renderOnlyWithoutResults_then_pageListsEveryBenchmarkAsNotRun() throws Exception {
        final int exit = BenchMain.commandLine().execute("--perf-dir", perfDir.toString(), "--render-only");

        assertThat(exit).isZero();
        final String page = Files.readString(perfDir.resolve("RESULTS.md"));
        assertThat(page).contains("| windowing | — | NOT RUN |").contains("| migration | — | NOT RUN |");
    }

}
