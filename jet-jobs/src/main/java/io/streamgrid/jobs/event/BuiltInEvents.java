package io.streamgrid.jobs.event;

import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Writes events of the built-in types ({@link EventType}) into one reused buffer: each method
 * returns a {@link SchemaRecord} of that type's schema, valid until the next call. No allocation
 * per event; not thread-safe.
 */
public final class BuiltInEvents {
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
    private final SchemaRecord request = new SchemaRecord(EventType.REQUEST.schema().layout());
    private final SchemaRecord sensor = new SchemaRecord(EventType.SENSOR.schema().layout());
    private final SchemaRecord click = new SchemaRecord(EventType.CLICK.schema().layout());
    private final SchemaRecord transaction = new SchemaRecord(EventType.TRANSACTION.schema().layout());

    /** Field indexes of each schema, in declaration order (see {@link EventType}). */
    private static final int KEY = 0;
    private static final int TS = 1;

    /** @param sourceIp the source IPv4 address in the low 32 bits, unsigned */
    public SchemaRecord request(final long ts, final long sequence, final long sourceIp, final long destinationIp,
                                final int bytes, final int status) {
        return start(request, ts, sequence, sourceIp).setLong(2, destinationIp).setInt(3, bytes).setInt(4, status);
    }

    public SchemaRecord sensor(final long ts, final long sequence, final long machine, final SensorKind kind, final double value) {
        return start(sensor, ts, sequence, machine).setEnumOrdinal(2, kind.ordinal()).setDouble(3, value);
    }

    public SchemaRecord click(final long ts, final long sequence, final long user, final long item, final int category,
                              final ClickAction action) {
        return start(click, ts, sequence, user).setLong(2, item).setInt(3, category).setEnumOrdinal(4, action.ordinal());
    }

    public SchemaRecord transaction(final long ts, final long sequence, final long user, final long amountCents) {
        return start(transaction, ts, sequence, user).setLong(2, amountCents);
    }

    private SchemaRecord start(final SchemaRecord record, final long ts, final long sequence, final long key) {
        return record.wrapForWrite(buffer, 0).sequence(sequence).setLong(KEY, key).setTimestamp(TS, ts);
    }

    /** Dotted-quad text of an IPv4 address held in the low 32 bits. */
    public static String ipToString(final long ip) {
        return ((ip >>> 24) & 0xff) + "." + ((ip >>> 16) & 0xff) + "." + ((ip >>> 8) & 0xff) + "." + (ip & 0xff);
    }

    /** Parses dotted-quad IPv4 text; null when it is not one. */
    public static Long parseIp(final String text) {
        final String[] parts = text.split("\\.", -1);
        if (parts.length != 4) {
            return null;
        }
        long ip = 0;
        for (final String part : parts) {
            if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(Character::isDigit)) {
                return null;
            }
            final int octet = Integer.parseInt(part);
            if (octet > 255) {
                return null;
            }
            ip = (ip << 8) | octet;
        }
        return ip;
    }

    static {
        for (final EventType type : EventType.values()) {
            final SchemaLayout layout = type.schema().layout();
            if (layout.keyIndex() != KEY || layout.eventTimeIndex() != TS) {
                throw new AssertionError("bug: built-in schema " + type + " must start with its key and ts");
            }
        }
    }
}
