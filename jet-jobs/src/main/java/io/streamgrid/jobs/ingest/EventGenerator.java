package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.event.BuiltInEvents;
import io.streamgrid.jobs.event.ClickAction;
import io.streamgrid.jobs.event.SensorKind;
import io.streamgrid.jobs.schema.SchemaRecord;

import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Produces the events of a built-in type ({@link io.streamgrid.jobs.event.EventType}) that a
 * {@link GeneratorSpec} describes, in arrival order, into one reused {@link SchemaRecord} of the
 * type's schema: no allocation per event. The consumer must copy or append the record before
 * returning. Deterministic: a spec always yields the same sequence.
 */
public final class EventGenerator extends RecordGenerator {
    /** Request keys are IPv4 addresses 10.x.y.z; key index i is 10.0.0.0 + i. */
    public static final int BASE_IP = 0x0A000000;

    private final GeneratorSpec spec;
    private final SplittableRandom random;
    private final ArrivalModel arrivals;
    private final BuiltInEvents events = new BuiltInEvents();

    public EventGenerator(final GeneratorSpec spec) {
        super(spec, String.valueOf(spec.type()).toLowerCase(java.util.Locale.ROOT));
        this.spec = spec;
        if (spec.type() == null) {
            throw new IllegalArgumentException("the spec names no built-in event type: generate a schema's events with SchemaGenerator");
        }
        this.random = new SplittableRandom(spec.seed());
        this.arrivals = new ArrivalModel(spec, random);
    }

    /** Appends every event to its type's log in {@code logs}, reporting progress every {@code progressEvery} events. */
    public long appendTo(final BuiltInLogs logs, final long progressEvery, final Consumer<String> progress) {
        return appendTo(logs.log(spec.type()), progressEvery, progress);
    }

    @Override
    SchemaRecord next(final long i) {
        final long arrival = arrivals.arrival(i);
        final long timestamp = arrivals.timestamp(arrival);
        final int keyIndex = arrivals.keyIndex(arrival);
        return switch (spec.type()) {
            case REQUEST -> events.request(timestamp, i, Integer.toUnsignedLong(BASE_IP + keyIndex),
                    Integer.toUnsignedLong(0xC0A80000 + random.nextInt(16)), 200 + random.nextInt(50_000), status());
            case SENSOR -> {
                final SensorKind kind = SensorKind.values()[random.nextInt(3)];
                yield events.sensor(timestamp, i, keyIndex, kind, sensorValue(kind, keyIndex, timestamp));
            }
            case CLICK -> {
                final long item = random.nextInt(10_000);
                yield events.click(timestamp, i, keyIndex, item, (int) (item % 20), action());
            }
            case TRANSACTION -> events.transaction(timestamp, i, keyIndex, 1 + random.nextInt(100_000));
        };
    }

    private int status() {
        final int roll = random.nextInt(100);
        return roll < 90 ? 200 : roll < 97 ? 404 : 500;
    }

    private ClickAction action() {
        final int roll = random.nextInt(100);
        return roll < 70 ? ClickAction.VIEW : roll < 95 ? ClickAction.CLICK : ClickAction.PURCHASE;
    }

    private double sensorValue(final SensorKind kind, final int machine, final long timestamp) {
        return switch (kind) {
            case VIBRATION -> Math.abs(1.0 + 0.2 * random.nextGaussian() + (machine % 17 == 0 ? 1.5 : 0));
            case TEMPERATURE -> 60.0 + (machine % 5) * (timestamp - spec.startTimeMs()) / 3_600_000.0 + random.nextGaussian();
            case PRESSURE -> 100.0 + 5 * random.nextGaussian();
        };
    }
}
