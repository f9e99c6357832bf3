package io.streamgrid.jobs.event;

import java.util.Arrays;
import java.util.Locale;

/** What a sensor reading measures: the symbols of the {@code sensor} schema's {@code kind}, in ordinal order. */
public enum SensorKind {
    VIBRATION, TEMPERATURE, PRESSURE;

    static String[] symbols() {
        return Arrays.stream(values()).map(kind -> kind.name().toLowerCase(Locale.ROOT)).toArray(String[]::new);
    }
}
