package io.streamgrid.cluster;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
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

    /** SIGTERM, then SIGKILL after {@code grace}; returns true when the process has gone. */
    static boolean terminate(final ProcessHandle process, final Duration grace) {
        process.destroy();
        try {
            process.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (final Exception notYet) {
            kill(process);
            try {
                process.onExit().get(10, TimeUnit.SECONDS);
                return true;
            } catch (final Exception stillThere) {
                return !process.isAlive();
            }
        }
    }
}
