package io.streamgrid.cluster;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/** Stops processes by PID, with everything they started: never by name. */
final class ProcessTree {
    private ProcessTree() {
    }

    /** SIGKILL to {@code root} and its descendants, children first. */
    static void kill(final ProcessHandle root) {
        final List<ProcessHandle> descendants = root.descendants().collect(Collectors.toList());
        descendants.forEach(ProcessHandle::destroyForcibly);
        root.destroyForcibly();
    }

    /** How a process {@link #terminate}d: on its own after SIGTERM, by SIGKILL, or not at all. */
    enum Outcome { EXITED, KILLED, STILL_RUNNING }

    /** SIGTERM, then SIGKILL after {@code grace}. */
    static Outcome terminate(final ProcessHandle process, final Duration grace) {
        process.destroy();
        if (awaitExit(process, grace)) {
            return Outcome.EXITED;
        }
        kill(process);
        return awaitExit(process, Duration.ofSeconds(10)) ? Outcome.KILLED : Outcome.STILL_RUNNING;
    }

    private static boolean awaitExit(final ProcessHandle process, final Duration wait) {
        try {
            process.onExit().get(wait.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        } catch (final ExecutionException | TimeoutException stillRunning) {
            return !process.isAlive();
        }
    }
}
