package io.streamgrid.jobs.keyed;

import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.Replay;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.Serializable;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Typed side outputs: what a function sets aside reaches the declared map (and a replay's own copy
 * of it), is listed among the job's side maps, and an undeclared output fails the job naming it; a
 * side output on a map the job already writes is refused when the job is built.
 */
class SideOutputTest extends EmbeddedMemberTest {
    static final EventSchema READING = EventSchema.builder("reading").longKey("machine").eventTime("ts").float64("celsius").build();
    static final String TOTALS = "state.reading-counts";

    /** A reading out of range, as set aside. */
    public record OutOfRange(long machine, long time, double celsius) implements Serializable {
    }

    static final SideOutput<OutOfRange> OUT_OF_RANGE = SideOutput.toMap("side.out-of-range", OutOfRange.class);
    static final SideOutput<OutOfRange> UNDECLARED = SideOutput.toMap("side.undeclared", OutOfRange.class);

    /** Counts readings in range per machine; sets aside those out of range (and, for machine 13, writes an undeclared output). */
    static final class Readings implements KeyedFunction<long[]> {
        @Override
        public void onEvent(final SchemaRecord reading, final KeyedContext<long[]> context) {
            final double celsius = reading.getDouble(2);
            if (celsius > 90 || celsius < -20) {
                context.output(context.longKey() == 13 ? UNDECLARED : OUT_OF_RANGE, reading.sequence(),
                        new OutOfRange(context.longKey(), context.time(), celsius));
                return;
            }
            long[] count = context.state();
            if (count == null) {
                count = new long[1];
                context.setState(count);
            }
            context.put(TOTALS, context.longKey(), ++count[0]);
        }
    }

    private static KeyedJob<long[]> job(final String name) {
        return KeyedJob.<long[]>builder(name, READING).function(new Readings()).state(StateCodec.longs(1)).writes(TOTALS)
                .sideOutputs(OUT_OF_RANGE).build();
    }

    /**
     * Design of this test: 3,000 readings of 12 machines, every 7th out of range: the side output
     * holds exactly those (by sequence), the counts the others; a replay writes its own copy of the
     * side output, equal to the live one.
     */
    @Test
    void when_aFunctionSetsReadingsAside_then_theDeclaredOutputHoldsExactlyThoseAndAReplayItsOwnCopy() {
        final Map<Long, OutOfRange> expected = new HashMap<>();
        final Map<Long, Long> counts = new HashMap<>();
        append(3_000, 12, expected, counts);
        startMember();
        final KeyedJob<long[]> job = job("reading-checks");
        assertThat(job.sideMaps()).contains("side.out-of-range");
        final JobOptions options = JobOptions.of(dir);
        final Job live = Jobs.submit(member.getJet(), job, options);
        JobTestSupport.awaitEqual(expected, () -> Map.copyOf(member.<Long, OutOfRange>getMap(OUT_OF_RANGE.map())), Duration.ofMinutes(1),
                live);
        JobTestSupport.awaitEqual(counts, () -> Map.copyOf(member.<Long, Long>getMap(TOTALS)), Duration.ofMinutes(1), live);
        final Replay replay = Replay.into("again");
        final Job again = Jobs.submit(member.getJet(), job, options.withReplay(replay));
        JobTestSupport.awaitEqual(expected, () -> Map.copyOf(member.<Long, OutOfRange>getMap(replay.mapName(OUT_OF_RANGE.map()))),
                Duration.ofMinutes(1), again);
        System.out.println(expected.size() + " readings set aside of 3000, in the live side output and the replay's own");
        live.cancel();
        again.cancel();
    }

    @Test
    void when_aFunctionWritesAnUndeclaredSideOutput_then_theJobFailsNamingIt() throws Exception {
        append(200, 20, new HashMap<>(), new HashMap<>()); // reading 73: machine 13, out of range
        startMember();
        final Job running = Jobs.submit(member.getJet(), job("reading-checks-undeclared"), JobOptions.of(dir));
        await().atMost(Duration.ofMinutes(1)).until(() -> running.getStatus() == JobStatus.SUSPENDED
                || running.getStatus() == JobStatus.FAILED);
        final String cause = await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                .until(() -> running.getSuspensionCause().errorCause(), c -> c != null);
        assertThat(cause).contains("writes side output side.undeclared of OutOfRange, which it does not declare")
                .contains("side output side.out-of-range of OutOfRange");
        assertThat(member.getMap(UNDECLARED.map()).size()).isZero();
        running.cancel();
    }

    @Test
    void when_aSideOutputIsMisdeclared_then_itIsRefusedNamingWhy() {
        assertThatThrownBy(() -> KeyedJob.<long[]>builder("clash", READING).function(new Readings()).state(StateCodec.longs(1))
                .writes(TOTALS).sideOutputs(SideOutput.toMap(TOTALS, OutOfRange.class)).build())
                .hasMessageContaining("side output " + TOTALS + " is already a map the job writes");
        assertThatThrownBy(() -> SideOutput.toMap("dim.x", OutOfRange.class)).hasMessageContaining("not a dimension map");
    }

    private void append(final int readings, final int machines, final Map<Long, OutOfRange> outOfRange, final Map<Long, Long> counts) {
        try (SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(dir, READING.name()), READING, 2)) {
            final SchemaRecord record = new SchemaRecord(READING.layout());
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[READING.layout().length()]);
            for (int i = 0; i < readings; i++) {
                final long machine = i % machines;
                final long time = 1_767_225_600_000L + i;
                final double celsius = i % 7 == 3 ? 95 + i % 5 : 20 + i % 40;
                log.append(record.wrapForWrite(buffer, 0).sequence(i).setLong(0, machine).setTimestamp(1, time).setDouble(2, celsius));
                if (celsius > 90) {
                    outOfRange.put((long) i, new OutOfRange(machine, time, celsius));
                } else {
                    counts.merge(machine, 1L, Long::sum);
                }
            }
            log.appendEndOfStream();
        }
    }
}
