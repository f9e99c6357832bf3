package io.streamgrid.cluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Thread dumps of a cluster's member processes, for tests that time out waiting on it. */
public final class ThreadDumps {
    private ThreadDumps() {
    }

    /**
     * Writes a thread dump of every live member next to its log ({@code jcmd PID Thread.print}), for
     * a test that timed out waiting on the cluster: where each member's threads were is what tells a
     * hang from slowness. Returns what it wrote, or why it could not, one line per member; never throws.
     */
    public static List<String> of(final LocalCluster cluster) {
        final List<String> written = new ArrayList<>();
        final Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        for (final MemberProcess member : cluster.members()) {
            final Path dump = member.logFile().resolveSibling(member.logFile().getFileName() + ".threads-" + System.currentTimeMillis()
                    + ".txt");
            try {
                final Process process = new ProcessBuilder(jcmd.toString(), Long.toString(member.pid()), "Thread.print")
                        .redirectErrorStream(true).redirectOutput(dump.toFile()).start();
                if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    written.add(member + ": jcmd did not finish in 30 s");
                } else {
                    written.add(member + ": " + dump);
                }
            } catch (final java.io.IOException e) {
                written.add(member + ": no thread dump (" + e.getMessage() + ")");
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                written.add(member + ": interrupted");
                break;
            }
        }
        return written;
    }
}
