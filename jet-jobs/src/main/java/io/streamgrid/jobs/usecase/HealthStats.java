package io.streamgrid.jobs.usecase;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.event.SensorKind;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.schema.TypedField.DoubleField;
import io.streamgrid.jobs.schema.TypedField.EnumField;
import io.streamgrid.jobs.window.WindowAggregation;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;

/**
 * A machine's sensor statistics over a slice or window: vibration count, sum and maximum; the sums
 * of a least-squares line through (time in hours, temperature); and the number of one-minute slices
 * that had readings (operating minutes). Times are kept relative to a base hour so that the sums
 * stay precise in a double; combining shifts the other side onto this side's base.
 */
public final class HealthStats {
    private static final double MS_PER_HOUR = 3_600_000.0;
    long readings;
    long vibrationCount;
    double vibrationSum;
    double vibrationMax = Double.NEGATIVE_INFINITY;
    long temperatureCount;
    long baseHourMs = Long.MIN_VALUE;
    double sumT;
    double sumY;
    double sumTT;
    double sumTY;
    long operatingMinutes;

    public double vibrationMean() {
        return vibrationCount == 0 ? 0 : vibrationSum / vibrationCount;
    }

    public double vibrationMax() {
        return vibrationCount == 0 ? 0 : vibrationMax;
    }

    /** Degrees per hour of the least-squares line; 0 with fewer than two readings at distinct times. */
    public double temperatureSlopePerHour() {
        final double n = temperatureCount;
        final double denominator = n * sumTT - sumT * sumT;
        return temperatureCount < 2 || Math.abs(denominator) < 1e-12 ? 0 : (n * sumTY - sumT * sumY) / denominator;
    }

    private void addTemperature(final long timestamp, final double value) {
        if (baseHourMs == Long.MIN_VALUE) {
            baseHourMs = Math.floorDiv(timestamp, 3_600_000L) * 3_600_000L;
        }
        final double t = (timestamp - baseHourMs) / MS_PER_HOUR;
        temperatureCount++;
        sumT += t;
        sumY += value;
        sumTT += t * t;
        sumTY += t * value;
    }

    /** Aggregates sensor readings; operating minutes assume one-minute slices (the job checks). */
    public static final class Aggregation implements WindowAggregation<HealthStats>, Serializable {
        private static final long serialVersionUID = 1L;
        private static final EnumField KIND = EventType.SENSOR.schema().enumField("kind");
        private static final DoubleField VALUE = EventType.SENSOR.schema().doubleField("value");

        @Override
        public HealthStats create() {
            return new HealthStats();
        }

        @Override
        public void accumulate(final HealthStats stats, final SchemaRecord event) {
            stats.readings++;
            stats.operatingMinutes = 1; // a slice is one minute; a window sums its slices
            final double value = event.get(VALUE);
            final int kind = event.ordinal(KIND);
            if (kind == SensorKind.VIBRATION.ordinal()) {
                stats.vibrationCount++;
                stats.vibrationSum += value;
                stats.vibrationMax = Math.max(stats.vibrationMax, value);
            } else if (kind == SensorKind.TEMPERATURE.ordinal()) {
                stats.addTemperature(event.eventTime(), value);
            }
        }

        @Override
        public void combine(final HealthStats target, final HealthStats other) {
            target.readings += other.readings;
            target.operatingMinutes += other.operatingMinutes;
            target.vibrationCount += other.vibrationCount;
            target.vibrationSum += other.vibrationSum;
            target.vibrationMax = Math.max(target.vibrationMax, other.vibrationMax);
            if (other.temperatureCount == 0) {
                return;
            }
            if (target.temperatureCount == 0) {
                target.baseHourMs = other.baseHourMs;
            }
            // Shift the other's sums from its base to ours: t' = t + d.
            final double d = (other.baseHourMs - target.baseHourMs) / MS_PER_HOUR;
            final double n = other.temperatureCount;
            target.temperatureCount += other.temperatureCount;
            target.sumT += other.sumT + n * d;
            target.sumY += other.sumY;
            target.sumTT += other.sumTT + 2 * d * other.sumT + n * d * d;
            target.sumTY += other.sumTY + d * other.sumY;
        }

        @Override
        public void write(final HealthStats s, final DataOutput out) throws IOException {
            out.writeLong(s.readings);
            out.writeLong(s.vibrationCount);
            out.writeDouble(s.vibrationSum);
            out.writeDouble(s.vibrationMax);
            out.writeLong(s.temperatureCount);
            out.writeLong(s.baseHourMs);
            out.writeDouble(s.sumT);
            out.writeDouble(s.sumY);
            out.writeDouble(s.sumTT);
            out.writeDouble(s.sumTY);
            out.writeLong(s.operatingMinutes);
        }

        @Override
        public HealthStats read(final DataInput in) throws IOException {
            final HealthStats s = new HealthStats();
            s.readings = in.readLong();
            s.vibrationCount = in.readLong();
            s.vibrationSum = in.readDouble();
            s.vibrationMax = in.readDouble();
            s.temperatureCount = in.readLong();
            s.baseHourMs = in.readLong();
            s.sumT = in.readDouble();
            s.sumY = in.readDouble();
            s.sumTT = in.readDouble();
            s.sumTY = in.readDouble();
            s.operatingMinutes = in.readLong();
            return s;
        }
    }
}
