package io.streamgrid.jobs.event;

/** The kinds of record in an ingest log; the code is the record's first byte. */
public enum EventType {
    /** A network request: key = source IPv4 address (unsigned), destination, bytes, HTTP status. */
    REQUEST(1),
    /** A sensor reading: key = machine id, sensor kind, value. */
    SENSOR(2),
    /** A click: key = user id, item id, category, action. */
    CLICK(3),
    /** A payment: key = user id, amount in cents. */
    TRANSACTION(4),
    /**
     * Control record: the partition was idle; its event-time clock stands at the record's timestamp
     * (each job's watermark moves to it minus the job's allowed disorder). Written by jobs, never by
     * loaders; see {@code IngestLog.appendHeartbeat}.
     */
    HEARTBEAT(126),
    /** Control record: no more events in this partition; the watermark jumps to the end of time. */
    END_OF_STREAM(127);

    private static final EventType[] BY_CODE = new EventType[128];

    static {
        for (final EventType type : values()) {
            BY_CODE[type.code] = type;
        }
    }

    private final byte code;

    EventType(final int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    /** The type with this code, or null for an unknown code. */
    public static EventType ofCode(final byte code) {
        return code < 0 ? null : BY_CODE[code];
    }
}
