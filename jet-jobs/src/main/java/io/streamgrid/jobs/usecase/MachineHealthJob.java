package io.streamgrid.jobs.usecase;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.pipeline.WindowResult;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;

/**
 * {@code machine-health}: per machine over sliding windows (10 minutes sliding by 1 minute): mean
 * and maximum vibration, temperature trend and operating hours, into {@code state.machine-health}.
 */
public final class MachineHealthJob {
    public static final String NAME = "machine-health";

    private MachineHealthJob() {
    }

    /** The job over {@code policy}'s windows, which must slide by one minute (the YAML's {@code jobs.machine-health}). */
    public static WindowedJob<HealthStats> of(final WindowPolicy policy) {
        if (!(policy.window() instanceof WindowDefinition.Sliding sliding) || sliding.slide() != 60_000) {
            throw new IllegalArgumentException("machine-health needs sliding windows with a 1-minute slide "
                    + "(operating hours count one-minute slices), got " + policy.window());
        }
        return WindowedJob.builder(NAME, EventType.SENSOR.schema()).policy(policy)
                .aggregate(new HealthStats.Aggregation())
                .results(r -> new MachineHealth(r.key(), r.start(), r.end(), r.value().readings, r.value().vibrationMean(),
                        r.value().vibrationMax(), r.value().temperatureSlopePerHour(), r.value().operatingMinutes / 60.0,
                        r.updateSequence(), r.late()));
    }

    /** The state-map key of a machine's window. */
    public static String windowKey(final long machineId, final long windowStart) {
        return WindowResult.stateKey(machineId, windowStart);
    }
}
