package io.streamgrid.examples.machines;

import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.StreamGridJob;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.pattern.Pattern;
import io.streamgrid.jobs.pattern.PatternJobs;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;

import java.util.List;

/**
 * Maintenance patterns per machine, over three co-partitioned streams:
 * <ul>
 * <li>{@code overheat-then-pressure-drop}: temperature above 70 °C and rising over 3 consecutive
 *     readings, then the next two pressure readings fall by at least 0.5 bar — within 60 s;</li>
 * <li>{@code vibration-surge}: 3 consecutive vibration readings above 8 mm/s within 30 s.</li>
 * </ul>
 * Each match is a {@link io.streamgrid.jobs.pattern.PatternAlert} in {@link #ALERTS}. Readings up
 * to 2 s out of order are matched as if on time; later ones go to the job's late map.
 *
 * <p>Submit it from your own jar with {@code streamgrid job submit --jar app.jar --class
 * io.streamgrid.examples.machines.MachineHealthJob}.
 */
public class MachineHealthJob implements StreamGridJob {
    public static final String NAME = "machine-patterns";
    public static final String ALERTS = "state.maintenance-alerts";
    public static final long DISORDER_MS = 2_000;
    /** A stream with nothing new holds the others back at most this long (then a heartbeat moves it on). */
    public static final long IDLE_TIMEOUT_MS = 5_000;

    public static final EventSchema TEMPERATURE = EventSchema.builder("temperature").longKey("machine").eventTime("ts")
            .float64("celsius").build();
    public static final EventSchema PRESSURE = EventSchema.builder("pressure").longKey("machine").eventTime("ts")
            .float64("bar").build();
    public static final EventSchema VIBRATION = EventSchema.builder("vibration").longKey("machine").eventTime("ts")
            .float64("mm_s").build();

    public static final Pattern OVERHEAT = Pattern.named("overheat-then-pressure-drop")
            .step("rising", TEMPERATURE).times(3).where((event, match) -> {
                final SchemaRecord last = match.last("rising");
                final double celsius = event.getDouble(2);
                return celsius > 70 && (last == null || celsius > last.getDouble(2));
            })
            .step("drop", PRESSURE).times(2).where((event, match) -> {
                final SchemaRecord before = match.first("drop");
                return before == null || event.getDouble(2) <= before.getDouble(2) - 0.5;
            })
            .within(60_000)
            .build();

    public static final Pattern VIBRATION_SURGE = Pattern.named("vibration-surge")
            .step("surge", VIBRATION).times(3).where((event, match) -> event.getDouble(2) > 8)
            .within(30_000)
            .build();

    @Override
    public KeyedJob<?> job() {
        return PatternJobs.job(NAME, List.of(TEMPERATURE, PRESSURE, VIBRATION), List.of(OVERHEAT, VIBRATION_SURGE),
                TimePolicy.of(DISORDER_MS, 0).withIdleTimeout(IDLE_TIMEOUT_MS), ALERTS);
    }
}
