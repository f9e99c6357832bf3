package io.streamgrid.jobs.event;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Flyweight over one fixed-layout event record of {@value #LENGTH} bytes, little-endian:
 *
 * <pre>
 *  0  byte  type code ({@link EventType})          8  long key
 *  1  byte  layout version (1)                     16 long event timestamp, ms since the epoch
 *  2..7     zero                                   24 long source sequence number
 *  32..47   payload, by type:
 *    REQUEST      32 int destination IPv4 · 36 int bytes · 40 short HTTP status
 *    SENSOR       32 double value · 40 byte sensor kind
 *    CLICK        32 long item id · 40 int category · 44 byte action
 *    TRANSACTION  32 long amount in cents
 * </pre>
 *
 * <p>Wrapping allocates nothing, so one instance reads or writes any number of records: the
 * ingest path produces no garbage per event. Not thread-safe; one instance per thread.
 */
public final class EventRecord {
    public static final int LENGTH = 48;
    public static final byte VERSION = 1;
    static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private static final int TYPE = 0;
    private static final int LAYOUT_VERSION = 1;
    private static final int KEY = 8;
    private static final int TIMESTAMP = 16;
    private static final int SEQUENCE = 24;
    private static final int PAYLOAD = 32;

    /** Click actions. */
    public static final byte ACTION_VIEW = 1;
    public static final byte ACTION_CLICK = 2;
    public static final byte ACTION_PURCHASE = 3;

    private DirectBuffer buffer;
    private MutableDirectBuffer mutable;
    private int offset;

    /** Reads the record at {@code offset}. */
    public EventRecord wrap(final DirectBuffer buffer, final int offset) {
        this.buffer = buffer;
        this.mutable = null;
        this.offset = offset;
        return this;
    }

    /** Reads and writes the record at {@code offset}. */
    public EventRecord wrapForWrite(final MutableDirectBuffer buffer, final int offset) {
        this.buffer = buffer;
        this.mutable = buffer;
        this.offset = offset;
        return this;
    }

    public DirectBuffer buffer() {
        return buffer;
    }

    public int offset() {
        return offset;
    }

    /** The record's type, or null if its code is unknown (see {@link #validate()}). */
    public EventType type() {
        return EventType.ofCode(buffer.getByte(offset + TYPE));
    }

    public byte typeCode() {
        return buffer.getByte(offset + TYPE);
    }

    public long key() {
        return buffer.getLong(offset + KEY, ORDER);
    }

    public long timestamp() {
        return buffer.getLong(offset + TIMESTAMP, ORDER);
    }

    public long sequence() {
        return buffer.getLong(offset + SEQUENCE, ORDER);
    }

    public int requestDestination() {
        return buffer.getInt(offset + PAYLOAD, ORDER);
    }

    public int requestBytes() {
        return buffer.getInt(offset + PAYLOAD + 4, ORDER);
    }

    public short requestStatus() {
        return buffer.getShort(offset + PAYLOAD + 8, ORDER);
    }

    public double sensorValue() {
        return buffer.getDouble(offset + PAYLOAD, ORDER);
    }

    public SensorKind sensorKind() {
        return SensorKind.ofCode(buffer.getByte(offset + PAYLOAD + 8));
    }

    public long clickItem() {
        return buffer.getLong(offset + PAYLOAD, ORDER);
    }

    public int clickCategory() {
        return buffer.getInt(offset + PAYLOAD + 8, ORDER);
    }

    public byte clickAction() {
        return buffer.getByte(offset + PAYLOAD + 12);
    }

    public long transactionAmountCents() {
        return buffer.getLong(offset + PAYLOAD, ORDER);
    }

    /**
     * Why this record cannot be processed, or null when it is well formed. Checks the type code,
     * the layout version, the timestamp and the payload's value ranges. Allocates only when the
     * record is bad.
     */
    public String validate() {
        final EventType type = type();
        if (type == null) {
            return "unknown event type code " + typeCode();
        }
        final byte version = buffer.getByte(offset + LAYOUT_VERSION);
        if (version != VERSION) {
            return "unsupported layout version " + version + " (expected " + VERSION + ")";
        }
        if (type == EventType.END_OF_STREAM) {
            return null;
        }
        if (timestamp() < 0) {
            return "negative event timestamp " + timestamp();
        }
        return switch (type) {
            case HEARTBEAT -> null;
            case REQUEST -> requestBytes() < 0 ? "negative request bytes " + requestBytes()
                    : requestStatus() < 100 || requestStatus() > 599 ? "HTTP status out of range: " + requestStatus() : null;
            case SENSOR -> sensorKind() == null ? "unknown sensor kind code " + buffer.getByte(offset + PAYLOAD + 8)
                    : Double.isFinite(sensorValue()) ? null : "sensor value is not finite: " + sensorValue();
            case CLICK -> clickAction() < ACTION_VIEW || clickAction() > ACTION_PURCHASE ? "unknown click action " + clickAction() : null;
            case TRANSACTION -> null;
            default -> null;
        };
    }

    // ---- writing (wrapForWrite first) ----

    private EventRecord header(final EventType type, final long key, final long timestamp, final long sequence) {
        mutable.setMemory(offset, LENGTH, (byte) 0);
        mutable.putByte(offset + TYPE, type.code());
        mutable.putByte(offset + LAYOUT_VERSION, VERSION);
        mutable.putLong(offset + KEY, key, ORDER);
        mutable.putLong(offset + TIMESTAMP, timestamp, ORDER);
        mutable.putLong(offset + SEQUENCE, sequence, ORDER);
        return this;
    }

    public EventRecord request(final long timestamp, final long sequence, final int sourceIp, final int destinationIp,
                               final int bytes, final int status) {
        header(EventType.REQUEST, Integer.toUnsignedLong(sourceIp), timestamp, sequence);
        mutable.putInt(offset + PAYLOAD, destinationIp, ORDER);
        mutable.putInt(offset + PAYLOAD + 4, bytes, ORDER);
        mutable.putShort(offset + PAYLOAD + 8, (short) status, ORDER);
        return this;
    }

    public EventRecord sensor(final long timestamp, final long sequence, final long machineId, final SensorKind kind,
                              final double value) {
        header(EventType.SENSOR, machineId, timestamp, sequence);
        mutable.putDouble(offset + PAYLOAD, value, ORDER);
        mutable.putByte(offset + PAYLOAD + 8, kind.code());
        return this;
    }

    public EventRecord click(final long timestamp, final long sequence, final long userId, final long itemId,
                             final int category, final byte action) {
        header(EventType.CLICK, userId, timestamp, sequence);
        mutable.putLong(offset + PAYLOAD, itemId, ORDER);
        mutable.putInt(offset + PAYLOAD + 8, category, ORDER);
        mutable.putByte(offset + PAYLOAD + 12, action);
        return this;
    }

    public EventRecord transaction(final long timestamp, final long sequence, final long userId, final long amountCents) {
        header(EventType.TRANSACTION, userId, timestamp, sequence);
        mutable.putLong(offset + PAYLOAD, amountCents, ORDER);
        return this;
    }

    /** An idle partition's heartbeat: its event-time clock stands at {@code eventTime}. */
    public EventRecord heartbeat(final long eventTime) {
        return header(EventType.HEARTBEAT, 0, eventTime, 0);
    }

    public EventRecord endOfStream(final long sequence) {
        return header(EventType.END_OF_STREAM, 0, Long.MAX_VALUE, sequence);
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
}
