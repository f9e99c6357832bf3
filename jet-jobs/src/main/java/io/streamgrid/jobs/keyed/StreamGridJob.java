package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.pipeline.JobDefinition;

/**
 * The entry point of a job in your own jar: {@code streamgrid job submit --jar app.jar --class
 * com.acme.PositionsJob} loads the class (public, with a public no-argument constructor), calls
 * {@link #job()} once on the submitting machine and runs the result — a {@link KeyedJob} or a
 * {@link io.streamgrid.jobs.pipeline.WindowedJob} — on the cluster, with the jar
 * shipped to the members as a Jet job resource (members need no restart, but must allow it:
 * {@code jobs.allow-code-upload: true}).
 */
public interface StreamGridJob {
    /** The job to run: a {@link KeyedJob} or a {@link io.streamgrid.jobs.pipeline.WindowedJob}. Its schemas' logs must exist under the configured ingest directory. */
    JobDefinition job();
}
