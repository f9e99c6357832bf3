package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.Jobs;
import com.hazelcast.jet.Job;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.MachineReading;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.junit.jupiter.api.Test;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static io.streamgrid.jobs.keyed.CoPartitionedSchemasTest.PRESSURE;
import static io.streamgrid.jobs.keyed.CoPartitionedSchemasTest.TEMPERATURE;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code KeyedJob.Builder.inEventTimeOrder}: the function sees each key's events sorted by event
 * time (ties: schema order, then log order), each held until the watermark reaches it, and before
 * the event-time timers of its time; an event behind the watermark within the allowed lateness
 * comes at once, marked late. Held events are in the snapshot, so restarts change nothing.
 */
class EventTimeOrderTest extends EmbeddedMemberTest {
    private static final String MAP = "state.event-order";
    private static final int MACHINES = 100;
    private static final int PARTITIONS = 4;
    private static final long START = 1_767_225_600_000L;
    private static final long DISORDER_MS = 500;
    private static final long PRESSURE_SEQUENCES = 1_000_000;
    private static final long NONE = -1;

    /**
     * Per machine, the sequence of the event it saw last (the state); per event it writes that
     * predecessor, per timer the event seen last before it. Timers fire at 49 ms past each 50 ms,
     * events are at even times, so no event shares a timer's time.
     */
    static final class Predecessors implements KeyedFunction<long[]> {
        @Override
        public void onEvent(final SchemaRecord event, final KeyedContext<long[]> context) {
            final long[] last = context.state();
            context.put(MAP, context.longKey() + "|" + event.sequence(), last == null ? NONE : last[0]);
            if (context.isLate()) {
                context.put(MAP, context.longKey() + "|late|" + event.sequence(), NONE);
            }
            context.setState(new long[] {event.sequence()});
            context.registerTimer(timerTime(event.eventTime()));
        }

        @Override
        public void onTimer(final long time, final KeyedContext<long[]> context) {
            context.put(MAP, context.longKey() + "|timer|" + time, context.state()[0]);
        }
    }

    static long timerTime(final long eventTime) {
        return eventTime - Math.floorMod(eventTime, 50) + 49;
    }

    static final StateCodec<long[]> CODEC = new StateCodec<>() {
        @Override
        public void write(final long[] state, final DataOutput out) throws IOException {
            out.writeLong(state[0]);
        }

        @Override
        public long[] read(final DataInput in) throws IOException {
            return new long[] {in.readLong()};
        }
    };

    /**
     * Readings at even times, in time order and then shuffled in runs of 8 (a run spans under
     * 200 ms, less than the allowed disorder): out of order, none late.
     */
    private static List<MachineReading> disordered(final long seed, final int count, final long sequenceBase) {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<MachineReading> out = new ArrayList<>(count);
        long ts = START;
        for (int i = 0; i < count; i++) {
            ts += 2L * random.nextInt(0, 10); // 0: equal times, within and across the streams
            out.add(new MachineReading(random.nextInt(MACHINES), ts, 0, sequenceBase + i));
        }
        for (int from = 0; from < count; from += 8) {
            Collections.shuffle(out.subList(from, Math.min(count, from + 8)), new java.util.Random(random.nextLong()));
        }
        return out;
    }

    /** The oracle: each machine's readings sorted by (time, schema, log order); each one's predecessor, each timer's last reading. */
    private static Map<String, Long> expected(final List<MachineReading> temperatures, final List<MachineReading> pressures) {
        record Seen(MachineReading reading, int schema, int position) {
        }
        final Map<Long, List<Seen>> byMachine = new HashMap<>();
        for (int i = 0; i < temperatures.size(); i++) {
            byMachine.computeIfAbsent(temperatures.get(i).machine(), m -> new ArrayList<>()).add(new Seen(temperatures.get(i), 0, i));
        }
        for (int i = 0; i < pressures.size(); i++) {
            byMachine.computeIfAbsent(pressures.get(i).machine(), m -> new ArrayList<>()).add(new Seen(pressures.get(i), 1, i));
        }
        final Map<String, Long> expected = new HashMap<>();
        byMachine.forEach((machine, seen) -> {
            seen.sort(Comparator.comparingLong((Seen s) -> s.reading().ts()).thenComparingInt(Seen::schema).thenComparingInt(Seen::position));
            long previous = NONE;
            for (final Seen s : seen) {
                expected.put(machine + "|" + s.reading().sequence(), previous);
                previous = s.reading().sequence();
            }
            // A timer fires after every reading before its time, before any after it.
            for (int i = 0; i < seen.size(); i++) {
                final long timer = timerTime(seen.get(i).reading().ts());
                final boolean lastBeforeTimer = i + 1 == seen.size() || seen.get(i + 1).reading().ts() > timer;
                if (lastBeforeTimer) {
                    expected.put(machine + "|timer|" + timer, seen.get(i).reading().sequence());
                }
            }
        });
        return expected;
    }

    /**
     * Design of this test: 12,000 readings of each of two schemas, 100 machines over 4 partitions,
     * each stream shuffled within the allowed disorder, with equal times within and across the
     * streams. Appended in thirds, temperature before pressure, while the job runs and is
     * restarted twice from its snapshots (which then hold events waiting for the watermark). Every
     * reading's predecessor and every timer's last reading must equal the oracle's, and nothing
     * may be marked late.
     */
    @Test
    void when_eventsComeOutOfOrderWithinTheDisorder_then_eachKeySeesThemSortedAcrossRestarts() throws Exception {
        final int count = 12_000;
        final List<MachineReading> temperatures = disordered(31, count, 0);
        final List<MachineReading> pressures = disordered(32, count, PRESSURE_SEQUENCES);
        final Map<String, Long> expected = expected(temperatures, pressures);
        final KeyedJob<long[]> job = KeyedJob.<long[]>builder("event-order", TEMPERATURE).alsoReads(PRESSURE)
                .function(new Predecessors()).state(CODEC)
                .time(TimePolicy.of(DISORDER_MS, 0).withIdleTimeout(60_000)).inEventTimeOrder().writes(MAP).build();
        startMember();
        try (SchemaLog temperatureLog = SchemaLog.open(SchemaLog.directoryOf(dir, "temperature"), TEMPERATURE, PARTITIONS);
             SchemaLog pressureLog = SchemaLog.open(SchemaLog.directoryOf(dir, "pressure"), PRESSURE, PARTITIONS)) {
            final Job running = MachineReading.appendInThirdsAcrossRestarts(() -> Jobs.submit(member.getJet(), job,
                    JobOptions.of(dir).withSnapshotInterval(100).withLocalParallelism(2)), temperatureLog, temperatures,
                    pressureLog, pressures, 200);
            JobTestSupport.awaitEqual(expected, () -> Map.copyOf(member.<String, Long>getMap(MAP)), Duration.ofMinutes(2), running);
            System.out.println(expected.size() + " deliveries expected in event-time order (" + 2 * count + " readings, "
                    + (expected.size() - 2 * count) + " timers), " + expected.size() + " found in that order");
            assertThat(member.getMap(job.lateMap()).size()).isZero();
            assertThat(member.getMap(job.rejectedMap()).size()).isZero();
            running.cancel();
        }
    }

    /** Writes each call as it comes, numbered per key: "event <time>" (" late" when marked late) or "timer <time>". */
    static final class Calls implements KeyedFunction<long[]> {
        @Override
        public void onEvent(final SchemaRecord event, final KeyedContext<long[]> context) {
            record(context, "event " + event.eventTime() + (context.isLate() ? " late" : ""));
            context.registerTimer(event.eventTime() + 100);
        }

        @Override
        public void onTimer(final long time, final KeyedContext<long[]> context) {
            record(context, "timer " + time);
        }

        private static void record(final KeyedContext<long[]> context, final String call) {
            final long[] count = context.state() == null ? new long[1] : context.state();
            context.put(MAP, count[0]++, call);
            context.setState(count);
        }
    }

    /**
     * Design of this test: one key, allowed disorder 100 ms, lateness 1 s; events at 1000, 1100,
     * 1050, 1300, then 1150 (behind the watermark 1200 by then), each registering a timer 100 ms
     * later. Worked out by hand from the contract: 1050 before 1100; the event at 1100 before the
     * timer at 1100; the late event at once, marked late, before the held 1300.
     */
    @Test
    void when_heldEventsAndTimersShareATime_then_theEventComesFirstAndALateEventComesAtOnce() throws Exception {
        final EventSchema schema = TEMPERATURE;
        final KeyedJob<long[]> job = KeyedJob.<long[]>builder("event-order-calls", schema)
                .function(new Calls()).state(CODEC).time(TimePolicy.of(100, 1_000)).inEventTimeOrder().writes(MAP).build();
        startMember();
        try (SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(dir, schema.name()), schema, 1)) {
            final long[] times = {1000, 1100, 1050, 1300, 1150};
            final List<MachineReading> readings = new ArrayList<>();
            for (int i = 0; i < times.length; i++) {
                readings.add(new MachineReading(7, START + times[i], 0, i));
            }
            MachineReading.append(log, readings, 0, readings.size());
            log.appendEndOfStream();
            final Job running = Jobs.submit(member.getJet(), job, JobOptions.of(dir));
            final List<String> expected = List.of("event 1000", "event 1050", "event 1100", "timer 1100", "timer 1150",
                    "timer 1200", "event 1150 late", "timer 1250", "event 1300", "timer 1400");
            final Map<Long, String> expectedCalls = new HashMap<>();
            for (int i = 0; i < expected.size(); i++) {
                final String[] call = expected.get(i).split(" ", 3);
                expectedCalls.put((long) i, call[0] + " " + (START + Long.parseLong(call[1])) + (call.length > 2 ? " " + call[2] : ""));
            }
            JobTestSupport.awaitEqual(expectedCalls, () -> Map.copyOf(member.<Long, String>getMap(MAP)), Duration.ofMinutes(1), running);
            running.cancel();
        }
    }
}
