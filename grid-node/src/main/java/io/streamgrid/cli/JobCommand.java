package io.streamgrid.cli;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.pipeline.WindowedJobs;
import io.streamgrid.node.impl.ConfigTree;
import io.streamgrid.node.impl.JobCatalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code streamgrid job}: submit and list the named jobs. */
@Command(name = "job", mixinStandardHelpOptions = true, description = "Submit and list the named Jet jobs.",
        subcommands = {JobCommand.Submit.class, JobCommand.ListJobs.class})
final class JobCommand {

    @Command(name = "submit", mixinStandardHelpOptions = true,
            description = "Submit a named job (exactly-once) to the cluster: ip-traffic, user-clicks-hourly, user-sessions, machine-health.")
    static final class Submit implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "NAME", description = "The job.")
        String name;

        @Option(names = "--config", paramLabel = "FILE", description = "YAML overriding the defaults (jobs, ingest, cluster).")
        Path config;

        @Option(names = "--member", paramLabel = "HOST:PORT", description = "Members to connect to (default: network.members).")
        List<String> members;

        @Override
        public Integer call() {
            final ConfigTree tree = ConfigTree.load(Optional.ofNullable(config));
            final WindowedJob<?> job = JobCatalog.job(name, tree);
            final JobOptions options = JobCatalog.options(tree);
            final HazelcastInstance client = ClientConnector.connect(tree, members);
            try {
                final Job submitted = WindowedJobs.submit(client.getJet(), job, options);
                final PrintWriter out = spec.commandLine().getOut();
                out.println("submitted " + job.name() + " (id " + submitted.getIdString() + "), exactly-once, snapshots every "
                        + options.snapshotIntervalMs() + " ms, reading " + options.ingestDir());
                out.println("results in " + job.stateMap() + ", late events in " + job.lateMap() + ", rejected records in "
                        + job.rejectedMap());
                return 0;
            } finally {
                client.shutdown();
            }
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the cluster's jobs and their status.")
    static final class ListJobs implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--config", paramLabel = "FILE", description = "YAML overriding the defaults.")
        Path config;

        @Option(names = "--member", paramLabel = "HOST:PORT", description = "Members to connect to (default: network.members).")
        List<String> members;

        @Override
        public Integer call() {
            final HazelcastInstance client = ClientConnector.connect(ConfigTree.load(Optional.ofNullable(config)), members);
            try {
                final PrintWriter out = spec.commandLine().getOut();
                for (final Job job : client.getJet().getJobs()) {
                    out.println(job.getIdString() + "  " + job.getName() + "  " + job.getStatus());
                }
                return 0;
            } finally {
                client.shutdown();
            }
        }
    }
}
