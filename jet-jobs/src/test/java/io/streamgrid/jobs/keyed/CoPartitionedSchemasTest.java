package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.Jobs;
import com.hazelcast.jet.Job;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.MachineReading;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.ingest.PartitionReader;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.junit.jupiter.api.Test;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A keyed job reading two schemas co-partitioned by machine: temperature and pressure readings.
 * For every pressure reading it writes the machine's temperature as of that reading — the latest
 * temperature reading at or before it in event time (at the same time: the temperature, its schema
 * being declared first). That answer depends on the order the two streams are merged in, so it
 * checks the merge: by event time, ties to the first schema, the same after restarts.
 */
class CoPartitionedSchemasTest extends EmbeddedMemberTest {
    static final EventSchema TEMPERATURE = EventSchema.builder("temperature").longKey("machine").eventTime("ts")
            .float64("celsius").build();
    static final EventSchema PRESSURE = EventSchema.builder("pressure").longKey("machine").eventTime("ts")
            .float64("bar").build();
    static final String MAP = "state.pressure-with-temperature";
    private static final int MACHINES = 200;
    private static final int PARTITIONS = 4;
    private static final long START = 1_767_225_600_000L;

    /** Per machine, the last temperature: the whole state is one double. */
    static final class LastTemperature implements KeyedFunction<double[]> {
        @Override
        public void onEvent(final SchemaRecord event, final KeyedContext<double[]> context) {
            if (event.layout().schema().name().equals(TEMPERATURE.name())) {
                context.setState(new double[] {event.getDouble(2)});
            } else {
                final double[] last = context.state();
                context.put(MAP, context.longKey() + "|" + event.sequence(), last == null ? -1.0 : last[0]);
            }
        }
    }

    static final StateCodec<double[]> CODEC = new StateCodec<>() {
        @Override
        public void write(final double[] state, final DataOutput out) throws IOException {
            out.writeDouble(state[0]);
        }

        @Override
        public double[] read(final DataInput in) throws IOException {
            return new double[] {in.readDouble()};
        }
    };

    private static KeyedJob<double[]> job(final long idleTimeoutMs) {
        return KeyedJob.<double[]>builder("pressure-with-temperature", TEMPERATURE).alsoReads(PRESSURE)
                .function(new LastTemperature()).state(CODEC)
                .time(TimePolicy.of(0, 365L * 24 * 3_600_000).withIdleTimeout(idleTimeoutMs)).writes(MAP).build();
    }


    private static List<MachineReading> readings(final long seed, final int count, final long sequenceBase) {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<MachineReading> out = new ArrayList<>(count);
        long ts = START;
        for (int i = 0; i < count; i++) {
            ts += random.nextInt(0, 20); // 0: several readings at the same time, in this stream and across both
            out.add(new MachineReading(random.nextInt(MACHINES), ts, Math.round(random.nextDouble() * 1000) / 10.0, sequenceBase + i));
        }
        return out;
    }


    /** The oracle: per pressure reading, the latest temperature of its machine at or before it (ties: the temperature). */
    private static Map<String, Double> expected(final List<MachineReading> temperatures, final List<MachineReading> pressures) {
        final Map<String, Double> expected = new HashMap<>();
        final Map<Long, List<MachineReading>> byMachine = new HashMap<>();
        temperatures.forEach(t -> byMachine.computeIfAbsent(t.machine(), m -> new ArrayList<>()).add(t));
        for (final MachineReading p : pressures) {
            double last = -1.0;
            for (final MachineReading t : byMachine.getOrDefault(p.machine(), List.of())) {
                if (t.ts() > p.ts()) {
                    break;
                }
                last = t.value();
            }
            expected.put(p.machine() + "|" + p.sequence(), last);
        }
        return expected;
    }

    /**
     * Design of this test: 20,000 readings of each kind for 200 machines over 4 partitions, each
     * stream in time order with many equal times (within and across the streams). They are
     * appended in thirds — temperature first, then pressure, so the merge must wait for the
     * pressure log — while the job runs and is restarted twice from its snapshots. Every output
     * must equal the oracle's.
     */
    @Test
    void when_twoSchemasReadTogether_then_eventsMeetInEventTimeOrderAcrossRestarts() throws Exception {
        final List<MachineReading> temperatures = readings(11, 20_000, 0);
        final List<MachineReading> pressures = readings(12, 20_000, 1_000_000);
        final Map<String, Double> expected = expected(temperatures, pressures);
        final KeyedJob<double[]> job = job(60_000);
        final JobOptions options = JobOptions.of(dir).withSnapshotInterval(100).withLocalParallelism(2);
        startMember();
        try (SchemaLog temperatureLog = SchemaLog.open(SchemaLog.directoryOf(dir, "temperature"), TEMPERATURE, PARTITIONS);
             SchemaLog pressureLog = SchemaLog.open(SchemaLog.directoryOf(dir, "pressure"), PRESSURE, PARTITIONS)) {
            final Job running = MachineReading.appendInThirdsAcrossRestarts(() -> Jobs.submit(member.getJet(), job, options),
                    temperatureLog, temperatures, pressureLog, pressures, 200);
            JobTestSupport.awaitEqual(expected, () -> Map.copyOf(member.<String, Double>getMap(MAP)), Duration.ofMinutes(2), running);
            final long ties = pressures.stream().filter(p -> temperatures.stream().anyMatch(
                    t -> t.machine() == p.machine() && t.ts() == p.ts())).count();
            System.out.println(expected.size() + " pressure readings with their temperature expected and found; "
                    + ties + " of them at the same time as a temperature reading of their machine");
            assertThat(ties).as("the streams have readings at the same time on one machine").isPositive();
            assertThat(member.getMap(job.rejectedMap()).size()).isZero();
            running.cancel();
        }
    }

    /**
     * Design of this test: temperature readings only, the pressure log empty. Without a heartbeat the
     * merge would wait for the pressure log forever; after the 500 ms idle timeout the job appends
     * one there, and the pressure readings that arrive later still find their temperature.
     */
    @Test
    void when_oneSchemaIsQuiet_then_aHeartbeatInItsLogLetsTheOthersThrough() throws Exception {
        final List<MachineReading> temperatures = readings(21, 2_000, 0);
        final KeyedJob<double[]> job = job(500);
        startMember();
        try (SchemaLog temperatureLog = SchemaLog.open(SchemaLog.directoryOf(dir, "temperature"), TEMPERATURE, PARTITIONS);
             SchemaLog pressureLog = SchemaLog.open(SchemaLog.directoryOf(dir, "pressure"), PRESSURE, PARTITIONS)) {
            MachineReading.append(temperatureLog, temperatures, 0, temperatures.size());
            final Job running = Jobs.submit(member.getJet(), job, JobOptions.of(dir).withSnapshotInterval(100));
            await().atMost(Duration.ofSeconds(60)).until(() -> heartbeats(pressureLog) == PARTITIONS);
            // Readings after the heartbeats' time (the wall clock) are on time, and see the last temperature.
            final long now = System.currentTimeMillis() + 60_000;
            final List<MachineReading> pressures = new ArrayList<>();
            final Map<String, Double> expected = new HashMap<>();
            final Map<Long, Double> lastTemperature = new HashMap<>();
            temperatures.forEach(t -> lastTemperature.put(t.machine(), t.value()));
            for (long machine = 0; machine < MACHINES; machine++) {
                pressures.add(new MachineReading(machine, now, 1.0, 5_000 + machine));
                expected.put(machine + "|" + (5_000 + machine), lastTemperature.getOrDefault(machine, -1.0));
            }
            MachineReading.append(pressureLog, pressures, 0, pressures.size());
            temperatureLog.appendEndOfStream();
            pressureLog.appendEndOfStream();
            JobTestSupport.awaitEqual(expected, () -> Map.copyOf(member.<String, Double>getMap(MAP)), Duration.ofSeconds(60), running);
            running.cancel();
        }
    }

    /**
     * Design of this test: both streams jump 50 hours ahead half-way (more than the one day of
     * max-future-ms), as a history with a gap does. The merge must follow the jump in both logs:
     * every pressure reading finds its temperature, none is rejected. Before, every reading after
     * the gap was rejected as too far ahead.
     */
    @Test
    void when_bothStreamsJumpAheadByMoreThanMaxFuture_then_theMergeFollows() throws Exception {
        final long gap = 50 * 3_600_000L;
        final List<MachineReading> temperatures = withGap(readings(41, 4_000, 0), gap);
        final List<MachineReading> pressures = withGap(readings(42, 4_000, 1_000_000), gap);
        final KeyedJob<double[]> job = job(60_000);
        startMember();
        try (SchemaLog temperatureLog = SchemaLog.open(SchemaLog.directoryOf(dir, "temperature"), TEMPERATURE, PARTITIONS);
             SchemaLog pressureLog = SchemaLog.open(SchemaLog.directoryOf(dir, "pressure"), PRESSURE, PARTITIONS)) {
            final Job running = runToTheEnd(job, temperatureLog, temperatures, pressureLog, pressures);
            assertThat(member.getMap(job.rejectedMap()).size()).as("readings rejected").isZero();
            assertThat(member.getMap(job.lateMap()).size()).as("readings late").isZero();
            running.cancel();
        }
    }

    /** Appends both streams whole and their ends, runs the job, and waits until its output equals the oracle's. */
    private Job runToTheEnd(final KeyedJob<double[]> job, final SchemaLog temperatureLog, final List<MachineReading> temperatures,
                            final SchemaLog pressureLog, final List<MachineReading> pressures) {
        MachineReading.append(temperatureLog, temperatures, 0, temperatures.size());
        MachineReading.append(pressureLog, pressures, 0, pressures.size());
        temperatureLog.appendEndOfStream();
        pressureLog.appendEndOfStream();
        final Job running = Jobs.submit(member.getJet(), job, JobOptions.of(dir).withSnapshotInterval(100));
        JobTestSupport.awaitEqual(expected(temperatures, pressures), () -> Map.copyOf(member.<String, Double>getMap(MAP)),
                Duration.ofSeconds(60), running);
        return running;
    }

    /** The readings with their second half moved {@code gap} ms later. */
    private static List<MachineReading> withGap(final List<MachineReading> readings, final long gap) {
        final List<MachineReading> out = new ArrayList<>(readings.size());
        for (int i = 0; i < readings.size(); i++) {
            final MachineReading r = readings.get(i);
            out.add(i < readings.size() / 2 ? r : new MachineReading(r.machine(), r.ts() + gap, r.value(), r.sequence()));
        }
        return out;
    }

    /**
     * Design of this test: both logs end; readings appended to either afterwards must not vanish.
     * A one-schema job reads on after the end of its stream and reports such events late (the
     * watermark stands at the end of time); a job reading several schemas skipped a log once it had
     * ended, so they reached neither the state nor {@code late.*} nor {@code rejected.*}. Every one of
     * them must be in the late map.
     */
    @Test
    void when_readingsArriveAfterBothLogsEnded_then_eachIsReportedLateAsInAOneSchemaJob() throws Exception {
        final List<MachineReading> temperatures = readings(31, 1_000, 0);
        final List<MachineReading> pressures = readings(32, 1_000, 1_000_000);
        final KeyedJob<double[]> job = job(60_000);
        startMember();
        try (SchemaLog temperatureLog = SchemaLog.open(SchemaLog.directoryOf(dir, "temperature"), TEMPERATURE, PARTITIONS);
             SchemaLog pressureLog = SchemaLog.open(SchemaLog.directoryOf(dir, "pressure"), PRESSURE, PARTITIONS)) {
            final Job running = runToTheEnd(job, temperatureLog, temperatures, pressureLog, pressures);

            final List<MachineReading> afterTheEnd = readings(33, 100, 2_000_000);
            MachineReading.append(temperatureLog, afterTheEnd, 0, 50);
            MachineReading.append(pressureLog, afterTheEnd, 50, 100);

            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(member.getMap(job.lateMap()).size())
                    .as("readings appended after both logs ended, in " + job.lateMap()).isEqualTo(afterTheEnd.size()));
            assertThat(member.getMap(MAP).size()).as("no state written for them").isEqualTo(pressures.size());
            assertThat(member.getMap(job.rejectedMap()).size()).isZero();
            running.cancel();
        }
    }

    @Test
    void when_schemasAreKeyedDifferentlyOrNoIdleTimeout_then_theJobIsRefusedNamingWhy() {
        final EventSchema byName = EventSchema.builder("pressure").stringKey("machine", 16).eventTime("ts").float64("bar").build();
        assertThatThrownBy(() -> KeyedJob.<double[]>builder("j", TEMPERATURE).alsoReads(byName).function(new LastTemperature())
                .state(CODEC).time(TimePolicy.of(0, 0).withIdleTimeout(1_000)).build())
                .hasMessageContaining("their keys are long and string");
        assertThatThrownBy(() -> KeyedJob.<double[]>builder("j", TEMPERATURE).alsoReads(PRESSURE).function(new LastTemperature())
                .state(CODEC).build())
                .hasMessageContaining("give its time policy an idle timeout");
    }

    private static int heartbeats(final SchemaLog log) {
        int found = 0;
        for (int p = 0; p < log.partitions(); p++) {
            try (PartitionReader reader = log.reader(p, PartitionReader.START)) {
                int length;
                while ((length = reader.next()) >= 0) {
                    if (length == SchemaLayout.CONTROL_LENGTH && reader.buffer().getByte(0) == SchemaLayout.KIND_HEARTBEAT) {
                        found++;
                        break;
                    }
                }
            }
        }
        return found;
    }
}
