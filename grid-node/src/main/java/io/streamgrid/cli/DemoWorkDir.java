package io.streamgrid.cli;

import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.jobs.pipeline.JobOptions;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * A demo's {@code --work-dir} (a picocli mixin: {@code @Mixin DemoWorkDir workDir}): where its members'
 * logs, data and ingest logs go, {@code .streamgrid/demo-<its name>} by default, emptied when the
 * demo starts.
 */
public final class DemoWorkDir {
    @Option(names = "--work-dir", defaultValue = ".streamgrid/demo-${COMMAND-NAME}",
            description = "Member logs and data (default: ${DEFAULT-VALUE}); emptied first.")
    Path dir;

    /** Empties the directory (it may not exist yet) and returns it. */
    public Path emptied() throws IOException {
        Demos.deleteRecursively(dir);
        return dir;
    }

    /** The demo's job options: its logs under the directory ({@link Demos#jobOptions}). */
    public JobOptions jobOptions() {
        return Demos.jobOptions(dir);
    }

    /** Three member processes in the directory, their progress indented under the demo's lines. */
    public LocalCluster startThreeMembers(final PrintWriter out) throws Exception {
        return Demos.startThreeMembers(dir, out);
    }

    public Path path() {
        return dir;
    }
}
