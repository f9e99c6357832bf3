package io.streamgrid.cli;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import com.hazelcast.jet.core.JobSuspensionCause;
import com.hazelcast.jet.impl.JobExecutionRecord;
import com.hazelcast.jet.impl.JobRepository;
import io.streamgrid.node.ConfigException;
import io.streamgrid.node.impl.HazelcastConfigFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

/** The commands on jobs in the cluster: list, cancel, restart, resume, checkpoints. */
final class JobLifecycleCommands {
    private JobLifecycleCommands() {
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the cluster's jobs and their status.")
    static final class ListJobs extends ConnectedCommand implements Callable<Integer> {
        @Override
        public Integer call() {
            return withClient(client -> {
                final PrintWriter out = spec.commandLine().getOut();
                for (final Job job : client.getJet().getJobs()) {
                    final JobStatus status = job.getStatus();
                    out.println(job.getIdString() + "  " + job.getName() + "  " + status
                            + (status == JobStatus.SUSPENDED ? "  (" + suspensionCause(job) + ")" : ""));
                }
                return 0;
            });
        }
    }

    /** The first line of why a job was suspended. */
    static String suspensionCause(final Job job) {
        final JobSuspensionCause cause = job.getSuspensionCause();
        final String text = cause.requestedByUser() ? "suspended by a user" : cause.errorCause();
        return text.lines().filter(line -> !line.isBlank() && !line.startsWith("Execution failure")).findFirst().orElse(text)
                .replaceFirst("^com\\.hazelcast\\.jet\\.JetException: ", "");
    }

    /** A command on one job by name: connects, finds the job, acts on it and prints what it did. */
    abstract static class OnNamedJob extends ConnectedCommand implements Callable<Integer> {
        @Parameters(paramLabel = "NAME", description = "The job.")
        String name;

        /** Acts on {@code job} (through {@code client} where it needs more); returns what to print. @throws ConfigException when the job is not in a state for it */
        abstract String act(Job job, HazelcastInstance client);

        @Override
        public Integer call() {
            return withClient(client -> {
                final Job job = client.getJet().getJob(name);
                if (job == null) {
                    throw new ConfigException("no job named '" + name + "' in the cluster: see 'streamgrid job list'");
                }
                spec.commandLine().getOut().println(act(job, client));
                return 0;
            });
        }
    }

    @Command(name = "cancel", mixinStandardHelpOptions = true,
            description = "Cancel a job: it stops and its snapshots are deleted (its maps keep what it wrote).")
    static final class Cancel extends OnNamedJob {
        @Override
        String act(final Job job, final HazelcastInstance client) {
            if (job.getStatus().isTerminal()) {
                throw new ConfigException("job '" + name + "' is " + job.getStatus() + ": there is nothing to cancel");
            }
            job.cancel();
            return "cancelled " + name + " (id " + job.getIdString() + ")";
        }
    }

    @Command(name = "restart", mixinStandardHelpOptions = true,
            description = "Restart a running job from its last snapshot (exactly-once: nothing lost, nothing twice).")
    static final class Restart extends OnNamedJob {
        @Override
        String act(final Job job, final HazelcastInstance client) {
            if (job.getStatus() != JobStatus.RUNNING) {
                throw new ConfigException("job '" + name + "' is " + job.getStatus() + ", not RUNNING"
                        + (job.getStatus() == JobStatus.SUSPENDED ? ": resume it with 'streamgrid job resume " + name + "'" : ""));
            }
            job.restart();
            return "restarted " + name + " (id " + job.getIdString() + ") from its last snapshot";
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true,
            description = "Resume a suspended job from its last snapshot (after a failure was fixed, e.g. a Cassandra "
                    + "transaction that was decided but not committed).")
    static final class Resume extends OnNamedJob {
        @Override
        String act(final Job job, final HazelcastInstance client) {
            final JobStatus status = job.getStatus();
            if (status != JobStatus.SUSPENDED) {
                throw new ConfigException("job '" + name + "' is " + status + ", not SUSPENDED: only a suspended job can be resumed");
            }
            final String cause = suspensionCause(job);
            job.resume();
            return "resumed " + name + " (id " + job.getIdString() + ") from its last snapshot; it was suspended because: " + cause;
        }
    }

    @Command(name = "checkpoints", mixinStandardHelpOptions = true,
            description = {"List a job's checkpoints (Jet snapshots): the last completed one, which a restart of the job "
                    + "or of the whole cluster resumes from; the one before it while it is kept (until the next completes); "
                    + "one in progress; the last failure. Durable (in Cassandra, surviving the whole cluster) when the "
                    + "members' persistence.jobs is true (the members say), else in member memory only. 'streamgrid job submit "
                    + "--from-checkpoint ID' starts a new submission of the job from one of them."})
    static final class Checkpoints extends OnNamedJob {
        @Override
        String act(final Job job, final HazelcastInstance client) {
            final JobExecutionRecord record = client.<Long, JobExecutionRecord>getMap(JobRepository.JOB_EXECUTION_RECORDS_MAP_NAME).get(job.getId());
            final StringBuilder out = new StringBuilder("job " + name + " (id " + job.getIdString() + "), " + job.getStatus()
                    + ", snapshots every " + job.getConfig().getSnapshotIntervalMillis() + " ms; checkpoints " + durability(client));
            if (record == null || record.snapshotId() < 0) {
                out.append("\n  no checkpoint completed yet: a restart starts the job from the beginning of its logs");
            } else {
                final JobExecutionRecord.SnapshotStats last = record.snapshotStats();
                out.append(String.format(Locale.ROOT, "%n  %-6s %-26s %9s %14s  %s", "ID", "COMPLETED", "TOOK", "BYTES", ""));
                out.append(String.format(Locale.ROOT, "%n  %-6d %-26s %9s %,14d  the last completed: a restart resumes from it",
                        record.snapshotId(), Instant.ofEpochMilli(last.endTime()), last.duration() + " ms", last.numBytes()));
                FromCheckpoint.previous(client, job, record).ifPresent(previous -> out.append(String.format(Locale.ROOT,
                        "%n  %-6d %-26s %9s %,14d  the one before, kept until the next completes", previous.snapshotId(),
                        "started " + Instant.ofEpochMilli(previous.creationTime()), "", previous.numBytes())));
            }
            if (record != null && record.ongoingSnapshotId() > record.snapshotId()) {
                out.append("\n  " + record.ongoingSnapshotId() + " in progress");
            }
            if (record != null && record.lastSnapshotFailure() != null) {
                out.append("\n  the last checkpoint that failed: " + record.lastSnapshotFailure().lines().findFirst().orElse(""));
            }
            return out.toString();
        }

        /** Where the cluster keeps checkpoints, as its members say (their persistence.jobs), not this command's configuration. */
        private static String durability(final HazelcastInstance client) {
            final Set<String> said = new TreeSet<>();
            client.getCluster().getMembers().forEach(m -> said.add(String.valueOf(m.getAttribute(HazelcastConfigFactory.DURABLE_JOBS_ATTRIBUTE))));
            if (said.equals(Set.of("true"))) {
                return "durable: in Cassandra (the members' persistence.jobs)";
            }
            if (said.equals(Set.of("false"))) {
                return "in member memory only (the members' persistence.jobs is false)";
            }
            return said.contains("null") ? "of unknown durability (members that do not say: not StreamGrid members?)"
                    : "durable on some members only (their persistence.jobs differs: give every member one configuration)";
        }
    }
}
