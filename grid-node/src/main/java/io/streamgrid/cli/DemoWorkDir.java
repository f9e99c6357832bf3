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

    /** The demo's job options: its logs under {@code <dir>/ingest}, snapshots every 500 ms, 2 processors per member. */
    public JobOptions jobOptions() {
        return JobOptions.of(dir.resolve("ingest").toAbsolutePath()).withSnapshotInterval(500).withLocalParallelism(2);
    }

    /** Three member processes in the directory, their progress indented under the demo's lines. */
    public LocalCluster startThreeMembers(final PrintWriter out) throws Exception {
        return LocalCluster.builder().members(3).workDir(dir).progress(line -> out.println("   " + line)).start();
    }

    /**
     * Three member processes whose configuration (written to {@code <dir>/member.yaml}) puts their
     * ingest logs where {@link #jobOptions()} does, {@code partitions} per new log, and adds
     * {@code yaml} — e.g. a {@code schemas:} section for events applications publish.
     */
    public LocalCluster startThreeMembers(final PrintWriter out, final int partitions, final String yaml) throws Exception {
        final String cluster = "demo-" + dir.getFileName() + "-" + ProcessHandle.current().pid();
        final Path config = java.nio.file.Files.writeString(java.nio.file.Files.createDirectories(dir).resolve("member.yaml"),
                "cluster-name: " + cluster + "\ningest:\n  dir: " + jobOptions().ingestDir() + "\n  partitions: " + partitions + "\n" + yaml);
        return LocalCluster.builder().members(3).clusterName(cluster).configFile(config).workDir(dir)
                .progress(line -> out.println("   " + line)).start();
    }

    public Path path() {
        return dir;
    }
}
