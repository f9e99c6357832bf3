package io.streamgrid.jobs.pattern;

import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.schema.EventSchema;

import java.util.ArrayList;
import java.util.List;

/**
 * Pattern detection as a keyed job: {@link Pattern}s matched per key over one schema or several
 * co-partitioned ones, each completed match written as a {@link PatternAlert} to an alerts map.
 * Built only on the public keyed API ({@link KeyedJob}); submit it like any keyed job.
 */
public final class PatternJobs {
    private PatternJobs() {
    }

    /**
     * @param schemas the schemas the patterns read, co-partitioned by key (the first one leads; see
     *                {@link KeyedJob.Builder#alsoReads}); a job over several needs an idle timeout
     * @param policy  its allowed lateness must be 0: a reading behind the watermark cannot be
     *                matched in order any more, so it goes to the job's late map instead
     * @throws IllegalArgumentException naming the problem: a step reading a schema the job does not
     *                                  read, a non-zero allowed lateness, no patterns
     */
    public static KeyedJob<?> job(final String name, final List<EventSchema> schemas, final List<Pattern> patterns,
                                  final TimePolicy policy, final String alertsMap) {
        if (patterns.isEmpty()) {
            throw new IllegalArgumentException("pattern job " + name + " has no patterns");
        }
        if (policy.allowedLatenessMs() != 0) {
            throw new IllegalArgumentException("pattern job " + name + ": allowed lateness must be 0 (was "
                    + policy.allowedLatenessMs() + " ms); readings behind the watermark go to the late map, the allowed "
                    + "disorder is what lets out-of-order readings match");
        }
        final List<String> names = new ArrayList<>();
        for (final Pattern pattern : patterns) {
            if (names.contains(pattern.name())) {
                throw new IllegalArgumentException("pattern job " + name + " has two patterns named " + pattern.name());
            }
            names.add(pattern.name());
        }
        final PatternFunction function = new PatternFunction(schemas, patterns, alertsMap);
        return KeyedJob.<PatternState>builder(name, schemas.get(0))
                .alsoReads(schemas.subList(1, schemas.size()).toArray(new EventSchema[0]))
                .function(function)
                .state(new PatternState.Codec(function.stepCounts()))
                .time(policy)
                .inEventTimeOrder()
                .writes(alertsMap)
                .build();
    }
}
