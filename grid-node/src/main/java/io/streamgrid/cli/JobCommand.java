package io.streamgrid.cli;

import picocli.CommandLine.Command;

/** {@code streamgrid job}: submit (built-in jobs or your own jar), replay, list, cancel, restart and resume jobs, list their checkpoints. */
@Command(name = "job", mixinStandardHelpOptions = true,
        description = "Submit (a built-in job or your own from a jar), replay, list, cancel, restart and resume Jet jobs; list a job's checkpoints.",
        subcommands = {JobSubmit.class, JobReplay.class, JobLifecycleCommands.ListJobs.class, JobLifecycleCommands.Cancel.class,
                JobLifecycleCommands.Restart.class, JobLifecycleCommands.Resume.class, JobLifecycleCommands.Checkpoints.class})
final class JobCommand {
    private JobCommand() {
    }
}
