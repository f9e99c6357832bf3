package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.event.EventRecord;
import io.streamgrid.jobs.event.SensorKind;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.SplittableRandom;
import java.util.function.Consumer;

/**
 * Produces the events a {@link GeneratorSpec} describes, in arrival order, into one reused
 * {@link EventRecord}: no allocation per event. The consumer must copy or append the record before
 * returning. Deterministic: a spec always yields the same sequence.
 */
public final class EventGenerator {
    /** Request keys are IPv4 addresses 10.x.y.z; key index i is 10.0.0.0 + i. */
    public static final int BASE_IP = 0x0A000000;

    private final GeneratorSpec spec;
    private final SplittableRandom random;
    private final ArrivalModel arrivals;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[EventRecord.LENGTH]);
    private final EventRecord record = new EventRecord().wrapForWrite(buffer, 0);

    public EventGenerator(final GeneratorSpec spec) {
        this.spec = spec;
        if (spec.type() == null) {
            throw new IllegalArgumentException("the spec names no built-in event type: generate a schema's events with SchemaGenerator");
        }
        this.random = new SplittableRandom(spec.seed());
        this.arrivals = new ArrivalModel(spec, random);
    }

    /** Emits every event of the spec to {@code consumer}; returns the count. */
    public long generate(final Consumer<EventRecord> consumer) {
        for (long i = 0; i < spec.events(); i++) {
            consumer.accept(next(i));
        }
        return spec.events();
    }

    /** Appends every event to {@code log}, reporting progress every {@code progressEvery} events. */
    public long appendTo(final IngestLog log, final long progressEvery, final Consumer<String> progress) {
        for (long i = 0; i < spec.events(); i++) {
            log.append(next(i));
            if (progressEvery > 0 && (i + 1) % progressEvery == 0) {
                progress.accept("generated " + (i + 1) + " of " + spec.events() + " " + spec.type() + " events");
            }
        }
        return spec.events();
    }

    private EventRecord next(final long i) {
        final long arrival = arrivals.arrival(i);
        final long timestamp = arrivals.timestamp(arrival);
        final int keyIndex = arrivals.keyIndex(arrival);
        switch (spec.type()) {
            case REQUEST -> record.request(timestamp, i, BASE_IP + keyIndex, 0xC0A80000 + random.nextInt(16),
                    200 + random.nextInt(50_000), status());
            case SENSOR -> {
                final SensorKind kind = SensorKind.values()[random.nextInt(3)];
                record.sensor(timestamp, i, keyIndex, kind, sensorValue(kind, keyIndex, timestamp));
            }
            case CLICK -> {
                final long item = random.nextInt(10_000);
                record.click(timestamp, i, keyIndex, item, (int) (item % 20), action());
            }
            case TRANSACTION -> record.transaction(timestamp, i, keyIndex, 1 + random.nextInt(100_000));
            default -> throw new IllegalStateException("bug: cannot generate " + spec.type());
        }
        return record;
    }

    private int status() {
        final int roll = random.nextInt(100);
        return roll < 90 ? 200 : roll < 97 ? 404 : 500;
    }

    private byte action() {
        final int roll = random.nextInt(100);
        return roll < 70 ? EventRecord.ACTION_VIEW : roll < 95 ? EventRecord.ACTION_CLICK : EventRecord.ACTION_PURCHASE;
    }

    private double sensorValue(final SensorKind kind, final int machine, final long timestamp) {
        return switch (kind) {
            case VIBRATION -> Math.abs(1.0 + 0.2 * random.nextGaussian() + (machine % 17 == 0 ? 1.5 : 0));
            case TEMPERATURE -> 60.0 + (machine % 5) * (timestamp - spec.startTimeMs()) / 3_600_000.0 + random.nextGaussian();
            case PRESSURE -> 100.0 + 5 * random.nextGaussian();
        };
    }
}
