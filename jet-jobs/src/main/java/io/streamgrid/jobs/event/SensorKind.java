package io.streamgrid.jobs.event;

/** What a sensor reading measures. */
public enum SensorKind {
    VIBRATION(1), TEMPERATURE(2), PRESSURE(3);

    private final byte code;

    SensorKind(final int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    /** The kind with this code, or null for an unknown code. */
    public static SensorKind ofCode(final byte code) {
        return switch (code) {
            case 1 -> VIBRATION;
            case 2 -> TEMPERATURE;
            case 3 -> PRESSURE;
            default -> null;
        };
    }
}
