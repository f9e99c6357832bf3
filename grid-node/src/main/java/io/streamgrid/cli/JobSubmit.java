package io.streamgrid.cli;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.config.JobConfig;
import io.streamgrid.jobs.keyed.StreamGridJob;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "submit", mixinStandardHelpOptions = true,
        description = {"Submit a job (exactly-once) to the cluster: one by NAME — a built-in job, or one a jar on the class "
                + "path declares, as the examples do ('job submit' alone lists them all) — or your own with --jar and --class "
                + "(a class implementing io.streamgrid.jobs.keyed.StreamGridJob; the members need jobs.allow-code-upload: true)."})
final class JobSubmit extends JobSubmission {
    @Option(names = "--from-checkpoint", paramLabel = "ID|last|none",
            description = {"Replace the job of the same name still in the cluster (running or suspended; e.g. to run "
                    + "new code): 'last' or a checkpoint ID it keeps ('streamgrid job checkpoints NAME') carries its state "
                    + "over — the old job is suspended, the checkpoint copied and checked, the old job cancelled, and the "
                    + "new one restores the copy and goes on from there; 'none' cancels the old job and starts over from "
                    + "the beginning of the logs. Without it a job of the same name still in the cluster is refused."})
    String fromCheckpoint;

    private FromCheckpoint choice;

    @Override
    public Integer call() {
        choice = fromCheckpoint == null ? null : FromCheckpoint.parse(fromCheckpoint);
        return submit(null);
    }

    @Override
    JobConfig makeWay(final HazelcastInstance client, final JobConfig config) {
        if (choice == null) {
            FromCheckpoint.refuseIfPresent(client, config.getName());
            return config;
        }
        return choice.prepare(client, config, spec.commandLine().getOut());
    }
}
