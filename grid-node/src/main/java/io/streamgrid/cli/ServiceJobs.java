package io.streamgrid.cli;

import io.streamgrid.jobs.keyed.StreamGridJob;

import java.util.Collections;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The jobs on the class path that declare themselves {@link StreamGridJob} services
 * ({@code META-INF/services/io.streamgrid.jobs.keyed.StreamGridJob}; the examples jar's), by the name
 * of the job each one builds: what {@code job submit NAME} finds besides the configured built-in jobs.
 */
final class ServiceJobs {
    private ServiceJobs() {
    }

    /**
     * Name → job, sorted by name.
     *
     * @throws IllegalStateException when two services build jobs of the same name, naming both classes
     */
    static Map<String, StreamGridJob> byName() {
        final Map<String, StreamGridJob> jobs = new TreeMap<>();
        for (final StreamGridJob job : ServiceLoader.load(StreamGridJob.class)) {
            final String name = job.job().name();
            final StreamGridJob clash = jobs.put(name, job);
            if (clash != null) {
                throw new IllegalStateException("two jobs on the class path are named '" + name + "': "
                        + clash.getClass().getName() + " and " + job.getClass().getName());
            }
        }
        return Collections.unmodifiableMap(jobs);
    }
}
