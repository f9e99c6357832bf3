package io.streamgrid.cli;

import io.streamgrid.cluster.JvmCommands;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A CLI process prints its own lines; the libraries' log records go to the log file, and to the
 * terminal too only with --verbose. Real processes: logging is configured once per JVM.
 */
class CliLoggingTest {
    /** A java.util.logging record as the CLI formats it: date, time, level, logger. */
    private static final Pattern LOG_RECORD = Pattern.compile("^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\.\\d{3} [A-Z]+ \\S+ - .*");

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void when_aCommandRuns_then_libraryLogsGoToTheLogFileNotTheTerminal() throws Exception {
        final Run quiet = cli(dir.resolve("quiet"), "ingest", "generate", "--schema", "request", "--events", "10");
        assertThat(quiet.code).as(quiet.output).isZero();
        assertThat(quiet.output).contains("appended 10 request events");
        assertThat(quiet.output.lines().filter(line -> LOG_RECORD.matcher(line).matches()).toList())
                .as("library log lines on the terminal").isEmpty();
        final String logFile = Files.readString(dir.resolve("quiet").resolve(CliLogging.LOG_FILE));
        assertThat(logFile).contains("INFO net.openhft.chronicle"); // Chronicle's announcer and its disk-space notes

        final Run verbose = cli(dir.resolve("verbose"), "ingest", "generate", "--schema", "request", "--events", "10", "--verbose");
        assertThat(verbose.code).as(verbose.output).isZero();
        assertThat(verbose.output.lines().filter(line -> LOG_RECORD.matcher(line).matches()))
                .as("with --verbose the library log lines show").isNotEmpty();
    }

    /**
     * Design of this test: the machine-health demo (three member processes, a job, a generated
     * fleet) as a real CLI process, its whole output captured: it must pass, and none of its lines
     * may be a library's log record — in the CLI's one-line format or java.util.logging's default
     * two-line one — although Hazelcast, Chronicle and the client log plenty meanwhile.
     */
    @Tag("soak") // the command test here checks the same routing of library logs; a whole demo is soak only, to keep the default run within 30 minutes
    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void when_aDemoRuns_then_itsOutputHoldsNoLibraryLogLine() throws Exception {
        final Run demo = cli(dir.resolve("demo"), 300, "demo", "machines");
        System.out.println(demo.output);
        assertThat(demo.code).as(demo.output).isZero();
        assertThat(demo.output).contains("machine-health demo passed");
        final Pattern julDefault = Pattern.compile("^([A-Z][a-z]{2} \\d\\d?, \\d{4} .*(AM|PM) .*|(INFO|WARNING|SEVERE|FINE): .*)");
        assertThat(demo.output.lines().filter(line -> LOG_RECORD.matcher(line).matches() || julDefault.matcher(line).matches()).toList())
                .as("library log lines in the demo's output").isEmpty();
        assertThat(Files.readString(dir.resolve("demo").resolve(CliLogging.LOG_FILE))).as("the libraries did log, to the file")
                .contains("INFO com.hazelcast");
    }

    private record Run(int code, String output) {
    }

    /** Runs the CLI in a JVM of its own in {@code workDir}; stdout and stderr together. */
    private static Run cli(final Path workDir, final String... args) throws IOException, InterruptedException {
        return cli(workDir, 60, args);
    }

    private static Run cli(final Path workDir, final int timeoutSeconds, final String... args) throws IOException, InterruptedException {
        Files.createDirectories(workDir);
        final Path jvmOptions = JvmCommands.writeJvmOptions(workDir.resolve("jvm"));
        final Process process = new ProcessBuilder(JvmCommands.cliCommand(jvmOptions, "256m",
                System.getProperty("java.class.path"), null, List.of(args)))
                .directory(workDir.toFile()).redirectErrorStream(true).start();
        try {
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                throw new AssertionError("the CLI did not end within " + timeoutSeconds + " s: " + output);
            }
            return new Run(process.exitValue(), output);
        } finally {
            process.destroyForcibly(); // by its handle: only the process this test started
        }
    }
}
