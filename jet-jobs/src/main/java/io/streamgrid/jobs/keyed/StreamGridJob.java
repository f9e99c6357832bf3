package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.pipeline.JobDefinition;

import java.util.List;
import java.util.Map;

/**
 * The entry point of a job in your own jar: {@code streamgrid job submit --jar app.jar --class
 * com.acme.PositionsJob} loads the class (public, with a public no-argument constructor), calls
 * {@link #job()} once on the submitting machine and runs the result — a {@link KeyedJob} or a
 * {@link io.streamgrid.jobs.pipeline.WindowedJob} — on the cluster, with the jar
 * shipped to the members as a Jet job resource (members need no restart, but must allow it:
 * {@code jobs.allow-code-upload: true}).
 *
 * <p>A class on the members' class path listed in {@code META-INF/services/io.streamgrid.jobs.keyed.StreamGridJob}
 * is submitted by its job's name ({@code streamgrid job submit positions}), as the examples are.
 * A job that takes settings at submission declares them ({@link #parameters()}) and gets their values
 * through {@link #withParameters}.
 */
public interface StreamGridJob {
    /** The job to run: a {@link KeyedJob} or a {@link io.streamgrid.jobs.pipeline.WindowedJob}. Its schemas' logs must exist under the configured ingest directory. */
    JobDefinition job();

    /** The parameters this job takes ({@code --param name=value}); none by default. */
    default List<JobParameter> parameters() {
        return List.of();
    }

    /**
     * This job with the parameters {@code values} (name → the text given), each one of
     * {@link #parameters()}; the job itself when {@code values} is empty.
     *
     * @throws IllegalArgumentException for a value the parameter does not take, naming the parameter
     *                                  and what it takes (the CLI exits 2 with that line)
     */
    default StreamGridJob withParameters(final Map<String, String> values) {
        if (!values.isEmpty()) {
            throw new IllegalArgumentException("this job takes no parameters, was given " + values.keySet());
        }
        return this;
    }
}
