package io.streamgrid.cli;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.core.JobStatus;
import com.hazelcast.jet.impl.JobExecutionRecord;
import com.hazelcast.jet.impl.JobRepository;
import com.hazelcast.jet.impl.SnapshotValidationRecord;
import com.hazelcast.jet.impl.util.AsyncSnapshotWriterImpl.SnapshotDataKey;
import com.hazelcast.map.IMap;
import io.streamgrid.node.ConfigException;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Where {@code job submit --from-checkpoint} starts a job, and the work that makes way for it.
 * A job keeps its checkpoints (Jet snapshots) only while it is in the cluster, running or
 * suspended — the last completed one and, until the next completes, the one before; a cancelled,
 * failed or completed job's are deleted. So starting a new submission (new code, say) from one of
 * them means: hold the old job still (suspend it, which completes one more checkpoint), copy the
 * chosen checkpoint where Jet restores a new job from ({@code __jet.exportedSnapshot.<name>},
 * Jet's initial snapshot of a job config), check the copy is whole, cancel the old job, then submit.
 * Whatever fails before the cancel leaves the old job as it was (resumed if this suspended it).
 */
final class FromCheckpoint {
    /** How long the old job may take to reach SUSPENDED or to end. */
    private static final long STATUS_WAIT_MS = TimeUnit.MINUTES.toMillis(2);
    private static final int COPY_BATCH = 32;

    /** -1 for "none", -2 for "last", else a checkpoint's id. */
    private final long id;

    private FromCheckpoint(final long id) {
        this.id = id;
    }

    /** "none", "last" or a checkpoint id (as {@code job checkpoints} lists them). @throws ConfigException otherwise */
    static FromCheckpoint parse(final String text) {
        if ("none".equals(text)) {
            return new FromCheckpoint(-1);
        }
        if ("last".equals(text)) {
            return new FromCheckpoint(-2);
        }
        if (text.matches("\\d{1,18}")) {
            return new FromCheckpoint(Long.parseLong(text));
        }
        throw new ConfigException("--from-checkpoint " + text + ": give a checkpoint id (see 'streamgrid job checkpoints NAME'), "
                + "'last' or 'none'");
    }

    /**
     * Without --from-checkpoint: refuses to submit {@code name} while a job of that name is still
     * in the cluster — it resumes by itself, and Jet would refuse the name anyway.
     */
    static void refuseIfPresent(final HazelcastInstance client, final String name) {
        final Job existing = client.getJet().getJob(name);
        if (existing != null && !existing.getStatus().isTerminal()) {
            throw new ConfigException("job '" + name + "' is already " + existing.getStatus() + " (id " + existing.getIdString()
                    + "; it resumes from its last checkpoint by itself): to replace it, submit with --from-checkpoint last "
                    + "(or a checkpoint id, see 'streamgrid job checkpoints " + name + "') to carry its state over, or "
                    + "--from-checkpoint none to start over from the beginning of its logs");
        }
    }

    /**
     * Makes way for submitting {@code config}'s job and returns the config to submit: for "none"
     * the job of that name, if any, is cancelled and the config returned as it is; otherwise the
     * chosen checkpoint of the job of that name is copied and the old job cancelled, and the config
     * returned restores from the copy. Prints each step to {@code out}.
     *
     * @throws ConfigException when there is no such job or checkpoint, or the job is in no state to
     *                         be held still; the old job is then as it was
     */
    JobConfig prepare(final HazelcastInstance client, final JobConfig config, final PrintWriter out) {
        final String name = config.getName();
        final Job existing = client.getJet().getJob(name);
        final boolean present = existing != null && !existing.getStatus().isTerminal();
        if (id == -1) {
            if (present) {
                cancel(existing, out, "; the new job starts over from the beginning of its logs");
            }
            return config;
        }
        if (!present) {
            throw new ConfigException("no job named '" + name + "' keeps checkpoints: a job keeps its last two while it is "
                    + "RUNNING or SUSPENDED (a cancelled, failed or completed job's are deleted); see 'streamgrid job list'");
        }
        if (id >= 0) {
            chosen(client, existing); // refused before the job is touched when the id is not kept
        }
        final boolean suspendedHere = holdStill(existing, out);
        final Kept checkpoint;
        try {
            checkpoint = chosen(client, existing);
            copy(client, existing, checkpoint, name, out);
        } catch (final RuntimeException e) {
            if (suspendedHere) {
                existing.resume();
                if (e instanceof ConfigException) {
                    throw new ConfigException(e.getMessage() + "; job '" + name + "' was resumed as it was", e);
                }
            }
            throw e;
        }
        cancel(existing, out, " after copying checkpoint " + checkpoint.id());
        return config.setInitialSnapshotName(name);
    }

    /** A checkpoint a job keeps: its id and the snapshot map holding it. */
    private record Kept(long id, String map) {
    }

    /** The checkpoints {@code job} keeps, the last completed first; empty when none completed. */
    private static List<Kept> kept(final HazelcastInstance client, final Job job) {
        final JobExecutionRecord record = client.<Long, JobExecutionRecord>getMap(JobRepository.JOB_EXECUTION_RECORDS_MAP_NAME)
                .get(job.getId());
        final List<Kept> kept = new ArrayList<>();
        if (record == null || record.snapshotId() < 0) {
            return kept;
        }
        kept.add(new Kept(record.snapshotId(), JobRepository.snapshotDataMapName(job.getId(), record.dataMapIndex())));
        previous(client, job, record).ifPresent(previous -> kept.add(new Kept(previous.snapshotId(),
                JobRepository.snapshotDataMapName(job.getId(), 1 - record.dataMapIndex()))));
        return kept;
    }

    /** The validation record of the checkpoint before {@code record}'s last one, while its map still holds it whole. */
    static Optional<SnapshotValidationRecord> previous(final HazelcastInstance client, final Job job, final JobExecutionRecord record) {
        final SnapshotValidationRecord previous = client.<Object, SnapshotValidationRecord>getMap(
                JobRepository.snapshotDataMapName(job.getId(), 1 - record.dataMapIndex())).get(SnapshotValidationRecord.KEY);
        return previous != null && previous.snapshotId() < record.snapshotId() ? Optional.of(previous) : Optional.empty();
    }

    private Kept chosen(final HazelcastInstance client, final Job job) {
        final List<Kept> kept = kept(client, job);
        if (kept.isEmpty()) {
            throw new ConfigException("job '" + job.getName() + "' has completed no checkpoint yet: nothing to start from "
                    + "(--from-checkpoint none starts over)");
        }
        if (id == -2) {
            return kept.get(0);
        }
        return kept.stream().filter(k -> k.id() == id).findFirst().orElseThrow(() -> new ConfigException(
                "job '" + job.getName() + "' does not keep checkpoint " + id + "; it keeps " + kept.stream().map(Kept::id).toList()
                        + " (a running job replaces the older one at every checkpoint; see 'streamgrid job checkpoints "
                        + job.getName() + "')"));
    }

    /** Suspends a running job so that its checkpoints stay put; true when this suspended it. */
    private static boolean holdStill(final Job job, final PrintWriter out) {
        final JobStatus status = job.getStatus();
        if (status == JobStatus.SUSPENDED) {
            return false;
        }
        if (status != JobStatus.RUNNING) {
            throw new ConfigException("job '" + job.getName() + "' is " + status + ": try again when it is RUNNING or SUSPENDED");
        }
        out.println("suspending " + job.getName() + " (id " + job.getIdString() + ") so that its checkpoints stay as they are "
                + "(the suspension completes one more)");
        out.flush();
        job.suspend();
        awaitStatus(job, JobStatus.SUSPENDED::equals, "SUSPENDED");
        return true;
    }

    /** Copies {@code checkpoint} into the map Jet restores a job named {@code name} from, and checks the copy is whole. */
    private static void copy(final HazelcastInstance client, final Job job, final Kept checkpoint, final String name,
                             final PrintWriter out) {
        final IMap<Object, Object> from = client.getMap(checkpoint.map());
        client.getMap(JobRepository.exportedSnapshotMapName(name)).destroy();
        final IMap<Object, Object> to = client.getMap(JobRepository.exportedSnapshotMapName(name));
        final List<Object> keys = new ArrayList<>(from.keySet());
        for (int start = 0; start < keys.size(); start += COPY_BATCH) {
            final Set<Object> batch = new HashSet<>(keys.subList(start, Math.min(keys.size(), start + COPY_BATCH)));
            to.putAll(from.getAll(batch));
        }
        final SnapshotValidationRecord record = (SnapshotValidationRecord) to.get(SnapshotValidationRecord.KEY);
        final long chunks = to.keySet().stream()
                .filter(key -> key instanceof SnapshotDataKey data && data.snapshotId() == checkpoint.id()).count();
        if (record == null || record.snapshotId() != checkpoint.id() || record.numChunks() != chunks) {
            to.destroy();
            throw new ConfigException("checkpoint " + checkpoint.id() + " of job '" + name + "' changed while it was copied ("
                    + (record == null ? "no validation record" : "snapshot " + record.snapshotId() + ", " + record.numChunks()
                    + " chunks expected") + ", " + chunks + " copied); nothing was submitted");
        }
        out.printf(Locale.ROOT, "copied checkpoint %d of %s (id %s): %,d chunks, %,d bytes%n", checkpoint.id(), name,
                job.getIdString(), chunks, record.numBytes());
    }

    private static void cancel(final Job job, final PrintWriter out, final String why) {
        job.cancel();
        awaitStatus(job, JobStatus::isTerminal, "ended");
        out.println("cancelled " + job.getName() + " (id " + job.getIdString() + ")" + why);
        out.flush();
    }

    private static void awaitStatus(final Job job, final Predicate<JobStatus> reached, final String what) {
        final long deadline = System.currentTimeMillis() + STATUS_WAIT_MS;
        JobStatus status = job.getStatus();
        while (!reached.test(status)) {
            if (status.isTerminal() || System.currentTimeMillis() > deadline) {
                throw new ConfigException("job '" + job.getName() + "' is " + status + ", not " + what + " after "
                        + TimeUnit.MILLISECONDS.toSeconds(STATUS_WAIT_MS) + " s: nothing was submitted");
            }
            try {
                Thread.sleep(100);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ConfigException("interrupted while waiting for job '" + job.getName() + "' to be " + what, e);
            }
            status = job.getStatus();
        }
    }
}
