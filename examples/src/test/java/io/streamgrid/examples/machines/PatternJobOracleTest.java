package io.streamgrid.examples.machines;

import com.hazelcast.jet.Job;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.examples.machines.MachineHealthJob;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.MachineReading;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pattern.Condition;
import io.streamgrid.jobs.pattern.Pattern;
import io.streamgrid.jobs.pattern.PatternAlert;
import io.streamgrid.jobs.pattern.PatternJobs;
import io.streamgrid.jobs.pattern.PatternOracle;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Pattern jobs against {@link PatternOracle}: two schemas co-partitioned by machine, readings out
 * of order within the allowed disorder, restarts from snapshots, and a reading behind the
 * watermark, which must go to the late map and match nothing.
 */
class PatternJobOracleTest extends EmbeddedMemberTest {
    static final EventSchema TEMPERATURE = MachineHealthJob.TEMPERATURE;
    static final EventSchema PRESSURE = MachineHealthJob.PRESSURE;
    static final String ALERTS = "state.maintenance-alerts";
    private static final int MACHINES = 60;
    private static final int PARTITIONS = 4;
    private static final long DISORDER = 2_000;
    private static final long START = 1_767_225_600_000L;

    /** Temperature rising over 3 consecutive readings above 70 °C, then two pressure readings, the second ≥ 0.5 bar lower; within 60 s. */
    static final Pattern OVERHEAT = MachineHealthJob.OVERHEAT;
    /** One reading above 95 °C. */
    static final Pattern SPIKE = Pattern.named("spike").step("hot", TEMPERATURE).where((event, match) -> event.getDouble(2) > 95)
            .within(1).build();


    /**
     * Readings of all machines, in the order they are appended: true times advance 0–40 ms per
     * reading, and each is delayed by up to the allowed disorder, so every reading is at most
     * {@link #DISORDER} behind any appended before it and none is late.
     */
    private static List<MachineReading> readings(final long seed, final int count, final long sequenceBase, final double mean,
                                          final double spread) {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<long[]> order = new ArrayList<>(count);
        final List<MachineReading> out = new ArrayList<>(count);
        long ts = START;
        for (int i = 0; i < count; i++) {
            ts += random.nextInt(0, 40);
            final double value = Math.round((mean + spread * (random.nextDouble() * 2 - 1)) * 10) / 10.0;
            out.add(new MachineReading(random.nextInt(MACHINES), ts, value, sequenceBase + i));
            order.add(new long[] {ts + random.nextLong(0, DISORDER + 1), i});
        }
        order.sort(Comparator.comparingLong((long[] o) -> o[0]).thenComparingLong(o -> o[1]));
        return order.stream().map(o -> out.get((int) o[1])).toList();
    }


    /** The oracle's view of the readings; log position = order of appending, per log. */
    private static List<PatternOracle.Event> oracleEvents(final EventSchema schema, final int schemaIndex, final String field,
                                                          final List<MachineReading> readings) {
        final List<PatternOracle.Event> events = new ArrayList<>();
        for (int i = 0; i < readings.size(); i++) {
            final MachineReading r = readings.get(i);
            final SchemaRecord record = new SchemaRecord(schema.layout());
            record.wrapForWrite(new UnsafeBuffer(new byte[schema.layout().length()]), 0).sequence(r.sequence()).setLong(0, r.machine())
                    .setTimestamp(1, r.ts()).setDouble(2, r.value());
            events.add(new PatternOracle.Event(Long.toString(r.machine()), schemaIndex, schema.name(), r.ts(), i, r.sequence(), record,
                    " " + field + "=" + r.value()));
        }
        return events;
    }

    private static KeyedJob<?> job() {
        return PatternJobs.job("machine-patterns", List.of(TEMPERATURE, PRESSURE), List.of(OVERHEAT, SPIKE),
                TimePolicy.of(DISORDER, 0).withIdleTimeout(60_000), ALERTS);
    }

    /**
     * Design of this test: 30,000 temperature readings (60–100 °C, so rising runs above 70 come
     * often) and 30,000 pressure readings (4–6 bar) of 60 machines in 4 partitions, each log out of
     * order within the allowed disorder. Appended in thirds while the job runs, restarted from its
     * snapshot after the first and the second third. The alerts map must equal the oracle's, alert
     * for alert, matched readings and all.
     */
    @Test
    void when_readingsComeOutOfOrderAndTheJobRestarts_then_alertsEqualTheOracle() throws Exception {
        final List<MachineReading> temperatures = readings(31, 30_000, 0, 80, 20);
        final List<MachineReading> pressures = readings(32, 30_000, 1_000_000, 5, 1);
        final List<PatternOracle.Event> events = new ArrayList<>(oracleEvents(TEMPERATURE, 0, "celsius", temperatures));
        events.addAll(oracleEvents(PRESSURE, 1, "bar", pressures));
        final Map<String, PatternAlert> expected = PatternOracle.alerts(events, List.of(OVERHEAT, SPIKE));
        final KeyedJob<?> job = job();
        startMember();
        try (SchemaLog temperatureLog = SchemaLog.open(SchemaLog.directoryOf(dir, "temperature"), TEMPERATURE, PARTITIONS);
             SchemaLog pressureLog = SchemaLog.open(SchemaLog.directoryOf(dir, "pressure"), PRESSURE, PARTITIONS)) {
            final Job running = MachineReading.appendInThirdsAcrossRestarts(() -> Jobs.submit(member.getJet(), job,
                    JobOptions.of(dir).withSnapshotInterval(100).withLocalParallelism(2)), temperatureLog, temperatures,
                    pressureLog, pressures, 0);
            JobTestSupport.awaitEqual(expected, () -> Map.copyOf(member.<String, PatternAlert>getMap(ALERTS)), Duration.ofMinutes(2), running);
            final long overheats = expected.values().stream().filter(a -> a.pattern().equals(OVERHEAT.name())).count();
            System.out.println(expected.size() + " alerts expected, " + expected.size() + " raised, 0 missed, 0 false ("
                    + overheats + " overheat-then-pressure-drop, " + (expected.size() - overheats) + " spike)");
            assertThat(overheats).as("the two-schema pattern matched").isGreaterThan(20);
            assertThat(expected.size() - overheats).as("the one-step pattern matched").isGreaterThan(20);
            assertThat(member.getMap(job.lateMap()).size()).as("readings behind the watermark").isZero();
            running.cancel();
        }
    }

    /**
     * Design of this test: one machine's readings in order, then one far behind the watermark that
     * would match the spike pattern. It goes to the late map and raises nothing; the on-time spike
     * after it raises its alert.
     */
    @Test
    void when_aReadingIsBehindTheWatermark_then_itGoesToTheLateMapAndMatchesNothing() throws Exception {
        final KeyedJob<?> job = PatternJobs.job("spikes", List.of(TEMPERATURE), List.of(SPIKE), TimePolicy.of(DISORDER, 0), ALERTS);
        startMember();
        try (SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(dir, "temperature"), TEMPERATURE, 1)) {
            final List<MachineReading> readings = List.of(new MachineReading(7, START, 60, 1), new MachineReading(7, START + 10_000, 61, 2),
                    new MachineReading(7, START + 1_000, 99, 3), // 7 s behind the watermark (10,000 - 2,000 disorder)
                    new MachineReading(7, START + 10_500, 98, 4));
            MachineReading.append(log, readings, 0, readings.size());
            log.appendEndOfStream();
            final Job running = Jobs.submit(member.getJet(), job, JobOptions.of(dir).withLocalParallelism(1));
            await().atMost(Duration.ofMinutes(1)).until(() -> member.getMap(ALERTS).size() == 1 && member.getMap(job.lateMap()).size() == 1);
            final PatternAlert alert = member.<String, PatternAlert>getMap(ALERTS).values().iterator().next();
            assertThat(alert.startTime()).isEqualTo(START + 10_500);
            assertThat(alert.readings()).isEqualTo("hot temperature@" + (START + 10_500) + " #4 celsius=98.0");
            running.cancel();
        }
    }

    @Test
    void when_jobIsMisdeclared_then_theErrorNamesTheProblem() {
        assertThatThrownBy(() -> PatternJobs.job("p", List.of(PRESSURE), List.of(SPIKE), TimePolicy.of(0, 0), ALERTS))
                .hasMessageContaining("step hot reads schema temperature, which the job does not read");
        assertThatThrownBy(() -> PatternJobs.job("p", List.of(TEMPERATURE), List.of(SPIKE), TimePolicy.of(0, 5), ALERTS))
                .hasMessageContaining("allowed lateness must be 0");
        assertThatThrownBy(() -> Pattern.named("p").step("a", TEMPERATURE).build()).hasMessageContaining("needs within");
        assertThatThrownBy(() -> Pattern.named("p").within(5).build()).hasMessageContaining("has no steps");
        assertThatThrownBy(() -> Pattern.named("p").where(Condition.ANY)).hasMessageContaining("call step(...) first");
        assertThatThrownBy(() -> Pattern.named("p").step("a", TEMPERATURE).times(0).within(5).build())
                .hasMessageContaining("at least 1 event");
    }
}
