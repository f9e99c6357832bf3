package io.streamgrid.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.logging.ConsoleHandler;
import java.util.logging.FileHandler;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * Where the log records of a CLI process go. The terminal shows the command's own lines; what the
 * libraries log (Hazelcast's client connecting, Chronicle's announcer and disk-space notes, the
 * Cassandra driver) goes to {@value #LOG_FILE} under the working directory, and to the terminal as
 * well with {@code --verbose}. {@code node} keeps its log on the terminal: a foreground member's log
 * is its output.
 */
final class CliLogging {
    /** Relative to the working directory, like the rest of the CLI's run-time files. */
    static final String LOG_FILE = ".streamgrid/logs/streamgrid.log";
    /** One file (a name a user can find), started afresh when it reaches this size. */
    private static final int FILE_LIMIT_BYTES = 10 * 1024 * 1024;

    private CliLogging() {
    }

    /** One line per log record (date, time, level, logger, message), in the file as on the terminal; before the first formatter exists. */
    static void useOneLineFormat() {
        if (System.getProperty("java.util.logging.SimpleFormatter.format") == null) {
            System.setProperty("java.util.logging.SimpleFormatter.format", "%1$tF %1$tT.%1$tL %4$s %3$s - %5$s%6$s%n");
        }
    }

    /** Call first in a CLI process, before anything logs. */
    static void configure(final String[] args) {
        useOneLineFormat();
        final boolean verbose = Arrays.asList(args).contains("--verbose");
        final String command = Arrays.stream(args).filter(a -> !a.startsWith("-")).findFirst().orElse("");
        if (command.equals("node")) {
            return;
        }
        final Logger root = Logger.getLogger("");
        try {
            final Path file = Path.of(LOG_FILE).toAbsolutePath();
            Files.createDirectories(file.getParent());
            final FileHandler handler = new FileHandler(file.toString().replace("%", "%%"), FILE_LIMIT_BYTES, 1, true);
            handler.setFormatter(new SimpleFormatter());
            root.addHandler(handler);
        } catch (final IOException | RuntimeException e) {
            // No log file here (a read-only directory, say): warnings stay on the terminal, nothing is lost silently.
            System.err.println("streamgrid: cannot write " + LOG_FILE + " (" + e.getMessage() + "); library warnings go to the terminal");
            for (final Handler handler : root.getHandlers()) {
                if (handler instanceof ConsoleHandler && !verbose) {
                    handler.setLevel(Level.WARNING);
                }
            }
            return;
        }
        if (!verbose) {
            for (final Handler handler : root.getHandlers()) {
                if (handler instanceof ConsoleHandler) {
                    root.removeHandler(handler);
                }
            }
        }
    }
}
