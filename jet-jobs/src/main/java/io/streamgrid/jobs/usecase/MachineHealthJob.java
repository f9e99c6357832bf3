package io.streamgrid.jobs.usecase;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.pipeline.ResultHandler;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.window.WindowAggregation;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;

/**
 * {@code machine-health}: per machine over sliding windows (10 minutes sliding by 1 minute): mean
 * and maximum vibration, temperature trend and operating hours, into {@code state.machine-health}.
 */
public record MachineHealthJob(WindowPolicy policy) implements WindowedJob<HealthStats> {
    public static final String NAME = "machine-health";
    private static final long serialVersionUID = 1L;

    public MachineHealthJob {
        if (!(policy.window() instanceof WindowDefinition.Sliding sliding) || sliding.slide() != 60_000) {
            throw new IllegalArgumentException("machine-health needs sliding windows with a 1-minute slide "
                    + "(operating hours count one-minute slices), got " + policy.window());
        }
    }


    @Override
    public String name() {
        return NAME;
    }

    @Override
    public EventSchema schema() {
        return EventType.SENSOR.schema();
    }

    @Override
    public WindowAggregation<HealthStats> aggregation() {
        return new HealthStats.Aggregation();
    }

    public static String windowKey(final long machineId, final long windowStart) {
        return WindowKeys.of(machineId, windowStart);
    }

    @Override
    public ResultHandler<HealthStats> newResultHandler() {
        final String map = stateMap();
        return (machine, start, end, s, sequence, afterWatermark, out) -> out.put(map, windowKey(machine, start),
                new MachineHealth(machine, start, end, s.readings, s.vibrationMean(), s.vibrationMax(),
                        s.temperatureSlopePerHour(), s.operatingMinutes / 60.0, sequence, afterWatermark));
    }
}
