package io.streamgrid.jobs.usecase;

import io.streamgrid.jobs.event.BuiltInEvents;
import io.streamgrid.jobs.event.SensorKind;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class HealthStatsTest {
    private final HealthStats.Aggregation aggregation = new HealthStats.Aggregation();
    private final BuiltInEvents record = new BuiltInEvents();

    @Test
    void when_slicesAcrossAnHourBoundaryCombined_then_slopeEqualsOneLineThroughAllPoints() {
        // Temperature rises 2 degrees per hour; slices straddle an hour boundary (different bases).
        final long start = 1_767_229_140_000L; // 00:59 on some day
        final HealthStats[] slices = new HealthStats[4];
        for (int s = 0; s < slices.length; s++) {
            slices[s] = aggregation.create();
            for (int i = 0; i < 6; i++) {
                final long t = start + s * 60_000L + i * 10_000L;
                aggregation.accumulate(slices[s], record.sensor(t, i, 1, SensorKind.TEMPERATURE, 50 + 2.0 * (t - start) / 3_600_000.0));
                aggregation.accumulate(slices[s], record.sensor(t, i, 1, SensorKind.VIBRATION, s + i));
            }
        }
        final HealthStats window = aggregation.create();
        for (final HealthStats slice : slices) {
            aggregation.combine(window, slice);
        }

        assertThat(window.temperatureSlopePerHour()).isCloseTo(2.0, within(1e-6));
        assertThat(window.vibrationMax()).isEqualTo(8.0);
        assertThat(window.vibrationMean()).isCloseTo(4.0, within(1e-9));
        assertThat(window.operatingMinutes).isEqualTo(4);
        assertThat(window.readings).isEqualTo(48);
    }
}
