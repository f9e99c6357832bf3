package io.streamgrid.cli;

import io.streamgrid.jobs.ingest.SchemaLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The command line in-process (fast), plus one real process to prove the exit code reaches the shell. */
class StreamGridCliTest {
    @TempDir
    Path dir;

    @Test
    void when_help_then_everySubcommandListedAndExit0() {
        final CliRun result = run("--help");

        assertThat(result.code()).isZero();
        assertThat(result.out()).contains("node", "cluster", "ingest", "job", "cassandra", "demo");
        assertThat(result.err()).isEmpty();
    }

    @Test
    void when_clusterHelp_then_startStatusStopListed() {
        final CliRun result = run("cluster", "--help");

        assertThat(result.code()).isZero();
        assertThat(result.out()).contains("start", "status", "stop");
    }

    @Test
    void when_configHasUnknownKey_then_exit2WithOneLineNamingIt() throws IOException {
        final Path file = dir.resolve("bad.yaml");
        Files.writeString(file, "network:\n  prot: 5701\n");

        final CliRun result = run("node", "--config", file.toString());

        assertThat(result.code()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString()
                .startsWith("streamgrid: unknown key 'network.prot'");
        assertThat(result.err()).doesNotContain("Exception", "\tat ");
    }

    @Test
    void when_schemaHasUnknownFieldType_then_exit2WithOneLineNamingIt() throws IOException {
        final Path file = dir.resolve("schema.yaml");
        Files.writeString(file, "schemas:\n  trade:\n    key: a\n    event-time: ts\n    fields:\n"
                + "      - {name: a, type: long}\n      - {name: ts, type: timestamp}\n      - {name: price, type: money}\n");

        final CliRun result = run("node", "--config", file.toString());

        assertThat(result.code()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString()
                .startsWith("streamgrid: 'schemas.trade.fields[2] (price)': unknown type 'money'");
        assertThat(result.err()).doesNotContain("Exception", "\tat ");
    }

    @Test
    void when_configFileUnreadable_then_exit2WithOneLine() {
        final CliRun result = run("node", "--config", dir.resolve("nope.yaml").toString());

        assertThat(result.code()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString().contains("cannot read config file");
    }

    @Test
    void when_portOutOfRange_then_exit2WithOneLine() {
        final CliRun result = run("node", "--port", "70000");

        assertThat(result.code()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString()
                .isEqualTo("streamgrid: network.port 70000 is out of range: use a free TCP port from 1 to 65535, e.g. 5701");
    }

    @Test
    void when_portNotANumber_then_exit2WithOneLine() {
        final CliRun result = run("node", "--port", "abc");

        assertThat(result.code()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString().contains("--port").contains("abc").contains("--help");
    }

    @Test
    void when_memberAddressBad_then_exit2WithOneLine() {
        final CliRun result = run("node", "--members", "127.0.0.1:5701,nohost");

        assertThat(result.code()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString().contains("bad member address 'nohost'");
    }

    @Test
    void when_noMemberListensAtAnyAddress_then_exit2InSecondsNotAfterTheJoinWait() throws IOException {
        final int nobody;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            nobody = socket.getLocalPort(); // closed again: connections to it are refused
        }
        final long start = System.nanoTime();
        final CliRun result = run("query", "state.anything", "--member", "127.0.0.1:" + nobody);
        final long tookMs = (System.nanoTime() - start) / 1_000_000;

        System.out.println("query with no member listening: exit " + result.code() + " after " + tookMs + " ms: " + result.err());
        assertThat(result.code()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString().contains("127.0.0.1:" + nobody, "refused", "cluster start");
        // The client's own wait is 30 s; a refusal on every address needs no wait (bound generous for a loaded machine).
        assertThat(tookMs).isLessThan(15_000);
    }

    @Test
    void when_verbose_then_stackTraceShown() {
        final CliRun result = run("--verbose", "node", "--port", "0");

        assertThat(result.code()).isEqualTo(2);
        assertThat(result.err()).contains("ConfigException", "\tat ");
    }

    @Test
    void when_unknownSubcommand_then_exit2NamingItAndTheCommands() {
        final CliRun unknown = run("frobnicate");
        final CliRun typo = run("job", "sumbit", "ip-traffic");
        final CliRun jobTypo = run("job", "submit", "ip-trafic");

        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.errLines()).singleElement().asString()
                .contains("unknown command 'frobnicate'", "cluster, demo, dim, get").doesNotContain("did you mean", "Unmatched");
        assertThat(typo.code()).isEqualTo(2);
        assertThat(typo.errLines()).singleElement().asString()
                .contains("unknown command 'sumbit' (did you mean 'submit'?)", "commands of streamgrid job are");
        assertThat(jobTypo.errLines()).singleElement().asString().contains("unknown job 'ip-trafic' (did you mean 'ip-traffic'?)");
    }

    @Test
    void when_aNameIsATypoAway_then_itIsTheNearMiss() {
        assertThat(NearMiss.of("clustr", List.of("cluster", "cassandra", "query"))).contains("cluster");
        assertThat(NearMiss.of("sumbit", List.of("submit", "resume"))).contains("submit");
        assertThat(NearMiss.of("frobnicate", List.of("cluster", "job"))).isEmpty();
        assertThat(NearMiss.of("jbo", List.of("job", "top"))).contains("job");
        assertThat(NearMiss.of("tpp", List.of("job", "top"))).contains("top");
        assertThat(NearMiss.of("xyz", List.of("job", "top"))).isEmpty();
        assertThat(NearMiss.edits("kitten", "sitting")).isEqualTo(3);
    }

    @Test
    void when_noPluginIsOnTheClassPath_then_demoHasNoSubcommandsAndThereIsNoModelCommand() {
        final CliRun demoHelp = run("demo", "--help");
        final CliRun model = run("model", "list", "fraud");

        assertThat(demoHelp.code()).isZero();
        assertThat(demoHelp.out()).contains("live migration").doesNotContain("Commands:");
        assertThat(model.code()).isEqualTo(2);
        assertThat(model.errLines()).singleElement().asString().contains("unknown command 'model'");
    }

    @Test
    void when_unknownJobSubmitted_then_exit2BeforeConnecting() {
        final CliRun result = run("job", "submit", "ip-trafic");

        assertThat(result.code()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString().contains("unknown job 'ip-trafic'").contains("ip-traffic")
                .as("grid-node alone knows no example").doesNotContain("fraud-scoring");
    }

    @Test
    void when_jsonLinesLoaded_then_reportCountsLoadedAndRejected() throws IOException {
        final Path config = dir.resolve("sg.yaml");
        Files.writeString(config, "ingest:\n  dir: " + dir.resolve("ingest") + "\n  partitions: 2\n");
        final Path input = dir.resolve("in.jsonl");
        Files.writeString(input, "{\"type\":\"transaction\",\"ts\":5,\"user\":1,\"amount_cents\":10}\n{broken\n");

        final Path rejected = dir.resolve("bad-lines.txt");
        final CliRun result = run("ingest", "load", input.toString(), "--rejected", rejected.toString(), "--config", config.toString());

        assertThat(result.code()).as(result.err()).isZero();
        assertThat(result.out()).contains("2 lines, 1 events loaded, 1 rejected (see " + rejected + ")");
        assertThat(Files.readAllLines(rejected)).singleElement().asString().startsWith("line 2: ");
    }

    @Test
    void when_aLoadRejectsALineWithoutRejectedOption_then_theFileIsInTheWorkingDirectoryNeverBesideTheInput() throws IOException {
        final Path config = dir.resolve("sg.yaml");
        Files.writeString(config, "ingest:\n  dir: " + dir.resolve("ingest") + "\n  partitions: 2\n");
        final Path clean = dir.resolve("clean-" + UUID.randomUUID() + ".jsonl");
        Files.writeString(clean, "{\"type\":\"transaction\",\"ts\":5,\"user\":1,\"amount_cents\":10}\n");
        final Path input = dir.resolve("mixed-" + UUID.randomUUID() + ".jsonl");
        Files.writeString(input, "{\"type\":\"transaction\",\"ts\":6,\"user\":1,\"amount_cents\":10}\n{broken\n");
        final Path inWorkingDir = Path.of(input.getFileName() + ".rejected").toAbsolutePath();
        try {
            final CliRun cleanLoad = run("ingest", "load", clean.toString(), "--config", config.toString());
            final CliRun result = run("ingest", "load", input.toString(), "--config", config.toString());

            assertThat(cleanLoad.code()).as(cleanLoad.err()).isZero();
            assertThat(Path.of(clean.getFileName() + ".rejected")).as("no rejected file when nothing is rejected").doesNotExist();
            assertThat(result.code()).as(result.err()).isZero();
            assertThat(result.out()).contains("1 rejected (see " + inWorkingDir + ")");
            assertThat(Files.readAllLines(inWorkingDir)).singleElement().asString().startsWith("line 2: ");
            assertThat(Path.of(input + ".rejected")).as("beside the input").doesNotExist();
            assertThat(Path.of(clean + ".rejected")).as("beside the input").doesNotExist();
        } finally {
            Files.deleteIfExists(inWorkingDir);
        }
    }

    @Test
    void when_theInputIsNotText_then_exit2NamingTheFileAndTheLine() throws IOException {
        final Path config = dir.resolve("sg.yaml");
        Files.writeString(config, "ingest:\n  dir: " + dir.resolve("ingest") + "\n  partitions: 2\n");
        final Path binary = dir.resolve("program");
        Files.write(binary, new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, (byte) 0xc3, (byte) 0x28, (byte) 0xff, '\n', 0, 0});
        final Path laterLine = dir.resolve("latin1.jsonl");
        Files.write(laterLine, ("{\"type\":\"transaction\",\"ts\":5,\"user\":1,\"amount_cents\":10}\n"
                + "{\"type\":\"transaction\",\"ts\":6,\"user\":2,\"amount_cents\":20}\r\n"
                + "{\"type\":\"transaction\",\"ts\":7,\"user\":3,\"amount_cents\":30,\"note\":\"caf\u00e9\"}\n")
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));

        final CliRun result = run("ingest", "load", binary.toString(), "--schema", "request", "--config", config.toString());
        final CliRun later = run("ingest", "load", laterLine.toString(), "--config", config.toString());

        assertThat(result.code()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString()
                .contains(binary + " line 1 is not UTF-8 text").doesNotContain("failed").doesNotContain("Input length");
        assertThat(later.code()).isEqualTo(2);
        assertThat(later.errLines()).singleElement().asString().contains(laterLine + " line 3 is not UTF-8 text", "resumes");
        assertThat(Path.of(binary + ".rejected")).doesNotExist();
        assertThat(Path.of(binary.getFileName() + ".rejected")).doesNotExist();
    }

    @Test
    void when_csvOfAConfiguredSchemaLoadedWithEnd_then_eventsInItsLogAndTheStreamEnded() throws IOException {
        final Path config = dir.resolve("sg.yaml");
        Files.writeString(config, String.join("\n", "ingest:", "  dir: " + dir.resolve("ingest"), "  partitions: 2",
                "schemas:", "  trade:", "    key: account", "    event-time: ts", "    fields:",
                "      - {name: account, type: string, max-length: 8}", "      - {name: ts, type: timestamp}",
                "      - {name: price, type: double}", ""));
        final Path input = dir.resolve("trades.csv");
        Files.writeString(input, "account,ts,price\nA1,2026-01-01T09:30:00Z,10.5\nA2,1767260000000,abc\nA3,1767260000001,11\n");

        final Path rejected = dir.resolve("trades.rejected");
        final CliRun result = run("ingest", "load", input.toString(), "--schema", "trade", "--end", "--rejected", rejected.toString(),
                "--config", config.toString());
        final CliRun unknown = run("ingest", "load", input.toString(), "--schema", "quote", "--config", config.toString());
        // The stream was ended: generated events would be late for every job, appended here only because they are allowed to be.
        final CliRun generated = run("ingest", "generate", "--schema", "trade", "--events", "500", "--keys", "20", "--allow-late",
                "--config", config.toString());

        assertThat(result.code()).as(result.err()).isZero();
        assertThat(result.out()).contains("4 lines, 2 events loaded, 1 rejected", "into the log of schema trade",
                "appended the end of the stream to every partition");
        assertThat(Files.readAllLines(rejected)).singleElement().asString()
                .startsWith("line 3: 'price' must be a finite number, found abc");
        assertThat(SchemaLog.storedSchema(SchemaLog.directoryOf(dir.resolve("ingest"), "trade")).name()).isEqualTo("trade");
        assertThat(generated.code()).as(generated.err()).isZero();
        assertThat(generated.out()).contains("appended 500 trade events to");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.errLines()).singleElement().asString()
                .contains("--schema quote: no such schema: not a built-in type (request, sensor, click, transaction) nor in the "
                        + "configuration's schemas: section (it declares [trade])");
    }

    @Test
    void when_ingestLoadGivenMissingFile_then_exit2() {
        final CliRun result = run("ingest", "load", dir.resolve("missing.jsonl").toString());

        assertThat(result.code()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString().contains("cannot read");
    }

    @Test
    void when_cassandraOutputAskedButNoCassandraRuns_then_exit2NamingTheContactPoint() throws IOException {
        final Path config = dir.resolve("sg.yaml");
        Files.writeString(config, "cassandra:\n  contact-points: [127.0.0.1:1]\n");

        final CliRun result = run("job", "submit", "ip-traffic", "--cassandra", "--config", config.toString());

        assertThat(result.code()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString().contains("no Cassandra node answered at [127.0.0.1:1]");
    }

    @Test
    void when_replayAskedWithABadSuffixOrTime_then_exit2BeforeConnecting() {
        final CliRun badSuffix = run("job", "replay", "ip-traffic", "--into", "v-2", "--member=127.0.0.1:1");
        final CliRun badTime = run("job", "replay", "ip-traffic", "--into", "v2", "--from", "2026-13-01", "--member=127.0.0.1:1");
        final CliRun noSuffix = run("job", "replay", "ip-traffic", "--member=127.0.0.1:1");

        assertThat(badSuffix.code()).isEqualTo(2);
        assertThat(badSuffix.errLines()).singleElement().asString().contains("--into: replay suffix 'v-2' is not valid");
        assertThat(badTime.code()).isEqualTo(2);
        assertThat(badTime.errLines()).singleElement().asString().contains("--from 2026-13-01 is neither an ISO-8601 instant");
        assertThat(noSuffix.code()).isEqualTo(2);
        assertThat(noSuffix.err()).contains("Missing required option: '--into=SUFFIX'");
    }

    @Test
    void when_fromCheckpointIsNeitherAnIdNorLastNorNone_then_exit2BeforeConnecting() {
        final CliRun word = run("job", "submit", "ip-traffic", "--from-checkpoint", "latest", "--member=127.0.0.1:1");
        final CliRun negative = run("job", "submit", "ip-traffic", "--from-checkpoint", "-3", "--member=127.0.0.1:1");
        final CliRun onReplay = run("job", "replay", "ip-traffic", "--into", "v2", "--from-checkpoint", "last",
                "--member=127.0.0.1:1");

        assertThat(word.code()).isEqualTo(2);
        assertThat(word.errLines()).singleElement().asString()
                .contains("--from-checkpoint latest: give a checkpoint id", "'last' or 'none'");
        assertThat(negative.code()).isEqualTo(2);
        assertThat(negative.errLines()).singleElement().asString().contains("--from-checkpoint -3: give a checkpoint id");
        assertThat(onReplay.code()).as("a replay runs beside the live job and replaces nothing").isEqualTo(2);
        assertThat(onReplay.err()).contains("Unknown options: '--from-checkpoint'");
    }

    @Test
    void when_cassandraOutputAskedForAJobWithoutTables_then_exit2() {
        final CliRun result = run("job", "submit", "user-sessions", "--cassandra");

        assertThat(result.code()).isEqualTo(2);
        assertThat(result.errLines()).singleElement().asString().contains("--cassandra: job user-sessions declares no Cassandra tables");
    }

    @Test
    void when_realProcessGivenBadPort_then_shellSeesExit2AndOneLine() throws Exception {
        final List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                StreamGridCli.class.getName(), "node", "--port", "70000"));
        final Process process = new ProcessBuilder(command).redirectErrorStream(false).start();
        try {
            assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
            final String err = new String(process.getErrorStream().readAllBytes()).strip();

            assertThat(process.exitValue()).isEqualTo(2);
            assertThat(err.lines()).singleElement().asString().contains("network.port 70000 is out of range");
        } finally {
            process.destroyForcibly();
        }
    }

    private static CliRun run(final String... args) {
        return CliRun.of(args);
    }
}
