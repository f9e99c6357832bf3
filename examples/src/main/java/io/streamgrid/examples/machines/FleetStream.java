package io.streamgrid.examples.machines;

import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pattern.PatternAlert;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A seeded fleet: every machine reports temperature, pressure and vibration once a second, in
 * ranges that never match {@link MachineHealthJob}'s patterns, except a known set of machines that
 * develop a failure signature at known times — the ground truth the demo and the tests check the
 * alerts against. Readings are appended up to 1.5 s out of order (within the job's allowed disorder).
 */
public final class FleetStream {
    public static final long START = 1_767_225_600_000L;
    private static final long APPEND_DISORDER_MS = 1_500;
    private static final List<EventSchema> SCHEMAS = List.of(MachineHealthJob.TEMPERATURE, MachineHealthJob.PRESSURE,
            MachineHealthJob.VIBRATION);

    /** One reading; {@code schema} indexes temperature, pressure, vibration. */
    public record Reading(int schema, long machine, long time, double value, long sequence) {
    }

    /** An alert the job must raise: its machine, pattern and the event times of its first and last readings. */
    public record Incident(long machine, String pattern, long start, long end) {
        static Incident of(final PatternAlert alert) {
            return new Incident(Long.parseLong(alert.key()), alert.pattern(), alert.startTime(), alert.endTime());
        }
    }

    private final List<Reading> readings = new ArrayList<>();
    private final List<Incident> incidents = new ArrayList<>();

    /**
     * @param overheating machines (the first ones) that overheat, then lose pressure, once each
     * @param surging     machines (from the last one down) whose vibration surges once each
     */
    public FleetStream(final long seed, final int machines, final int seconds, final int overheating, final int surging) {
        if (overheating > machines || surging > machines || seconds < 30) {
            throw new IllegalArgumentException("need at least 30 s and no more failing machines than machines");
        }
        final SplittableRandom random = new SplittableRandom(seed);
        final double[][][] values = new double[machines][3][seconds];
        for (int m = 0; m < machines; m++) {
            for (int k = 0; k < seconds; k++) {
                values[m][0][k] = round(60 + random.nextDouble(-5, 5));
                values[m][1][k] = round(5 + random.nextDouble(-0.1, 0.1));
                values[m][2][k] = round(3 + random.nextDouble(-1, 1));
            }
        }
        for (int m = 0; m < overheating; m++) {
            final int k = random.nextInt(10, seconds - 10);
            values[m][0][k] = 72;
            values[m][0][k + 1] = 76;
            values[m][0][k + 2] = 81;
            values[m][1][k + 2] = 5.0;
            values[m][1][k + 3] = 4.2;
            incidents.add(new Incident(m, MachineHealthJob.OVERHEAT.name(), time(m, 0, k), time(m, 1, k + 3)));
        }
        for (int m = machines - 1; m >= machines - surging; m--) {
            final int k = random.nextInt(10, seconds - 10);
            values[m][2][k] = 9;
            values[m][2][k + 1] = 10;
            values[m][2][k + 2] = 11;
            incidents.add(new Incident(m, MachineHealthJob.VIBRATION_SURGE.name(), time(m, 2, k), time(m, 2, k + 2)));
        }
        final List<long[]> order = new ArrayList<>();
        for (int k = 0; k < seconds; k++) {
            for (int m = 0; m < machines; m++) {
                for (int s = 0; s < 3; s++) {
                    final long time = time(m, s, k);
                    order.add(new long[] {time + random.nextLong(0, APPEND_DISORDER_MS + 1), readings.size()});
                    readings.add(new Reading(s, m, time, values[m][s][k], readings.size()));
                }
            }
        }
        order.sort(Comparator.comparingLong((long[] o) -> o[0]).thenComparingLong(o -> o[1]));
        final List<Reading> appendOrder = order.stream().map(o -> readings.get((int) o[1])).toList();
        readings.clear();
        readings.addAll(appendOrder);
    }

    /** Machine {@code m}'s reading of schema {@code s} in second {@code k}: spread over the second, temperature first. */
    private static long time(final long m, final int s, final int k) {
        return START + k * 1_000L + (m * 37) % 300 + s * 300;
    }

    private static double round(final double value) {
        return Math.round(value * 10) / 10.0;
    }

    /** In append order. */
    public List<Reading> readings() {
        return readings;
    }

    public List<Incident> incidents() {
        return incidents;
    }

    /** The fleet's three schema logs under one ingest directory, temperature, pressure, vibration; closing closes them all. */
    public static final class Logs implements AutoCloseable {
        private final SchemaLog[] logs = new SchemaLog[SCHEMAS.size()];

        private Logs(final Path ingestDir, final int partitions) {
            try {
                for (int s = 0; s < logs.length; s++) {
                    logs[s] = SchemaLog.open(SchemaLog.directoryOf(ingestDir, SCHEMAS.get(s).name()), SCHEMAS.get(s), partitions);
                }
            } catch (final RuntimeException e) {
                close();
                throw e;
            }
        }

        /** Opens (creating where needed) the three logs with {@code partitions} partitions each. */
        public static Logs open(final Path ingestDir, final int partitions) {
            return new Logs(ingestDir, partitions);
        }

        /** Closes each stream: the jobs reading them see their end. */
        public void appendEndOfStream() {
            for (final SchemaLog log : logs) {
                log.appendEndOfStream();
            }
        }

        @Override
        public void close() {
            for (final SchemaLog log : logs) {
                if (log != null) {
                    log.close();
                }
            }
        }
    }

    /** Appends readings {@code from} (inclusive) to {@code to} to their schema's log. */
    public void append(final Logs logs, final int from, final int to) {
        final SchemaRecord[] records = SCHEMAS.stream().map(schema -> new SchemaRecord(schema.layout())).toArray(SchemaRecord[]::new);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        for (int i = from; i < to; i++) {
            final Reading r = readings.get(i);
            records[r.schema()].wrapForWrite(buffer, 0).sequence(r.sequence()).setLong(0, r.machine()).setTimestamp(1, r.time())
                    .setDouble(2, r.value());
            logs.logs[r.schema()].append(records[r.schema()]);
        }
    }

    /** The result of comparing the alerts map with the incidents. */
    public record Check(int expected, int raised, List<Incident> missed, List<Incident> wrong, int duplicated) {
        public boolean passed() {
            return missed.isEmpty() && wrong.isEmpty() && duplicated == 0;
        }

        @Override
        public String toString() {
            return expected + " expected, " + raised + " raised, " + missed.size() + " missed, " + wrong.size() + " false, "
                    + duplicated + " duplicated" + (missed.isEmpty() ? "" : "; missed e.g. " + missed.get(0))
                    + (wrong.isEmpty() ? "" : "; false e.g. " + wrong.get(0));
        }
    }

    public Check check(final Map<String, PatternAlert> alerts) {
        final Set<Incident> expected = new HashSet<>(incidents);
        final Set<Incident> raised = new HashSet<>();
        int duplicated = 0;
        for (final PatternAlert alert : alerts.values()) {
            if (!raised.add(Incident.of(alert))) {
                duplicated++;
            }
        }
        final List<Incident> missed = incidents.stream().filter(i -> !raised.contains(i)).toList();
        final List<Incident> wrong = raised.stream().filter(i -> !expected.contains(i)).toList();
        return new Check(incidents.size(), alerts.size(), missed, wrong, duplicated);
    }
}
