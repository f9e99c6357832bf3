package io.streamgrid.jobs.keyed;

import com.hazelcast.jet.Job;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Functions typed by their schema's key: a string-keyed one over a string-keyed schema runs (its
 * context has the key as a string only — asking for a long key does not compile), timers included;
 * one of the wrong kind is refused when the job is built, naming the schema's key and the right kind.
 */
class KeyTypedFunctionsTest extends EmbeddedMemberTest {
    static final EventSchema CALL = EventSchema.builder("call").stringKey("caller", 16).eventTime("ts").int64("seconds").build();
    static final EventSchema TICK = EventSchema.builder("tick").longKey("k").eventTime("ts").build();
    static final String MINUTES = "state.call-seconds";

    /** Seconds per caller; at a timer a minute after a caller's first call, the total is written with a mark. */
    static final class CallSeconds implements StringKeyedFunction<long[]> {
        @Override
        public void onEvent(final SchemaRecord call, final StringKeyContext<long[]> context) {
            long[] total = context.state();
            if (total == null) {
                total = new long[1];
                context.setState(total);
                context.registerTimer(context.time() + 60_000);
            }
            total[0] += call.getLong(2);
        }

        @Override
        public void onTimer(final long time, final StringKeyContext<long[]> context) {
            context.put(MINUTES, context.stringKey(), context.state()[0]);
        }
    }

    @Test
    void when_aStringKeyedFunctionRunsOverAStringKeyedSchema_then_itsTimersAndWritesSeeTheStringKey() {
        final Map<String, Long> expected = new HashMap<>();
        try (SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(dir, CALL.name()), CALL, 2)) {
            final SchemaRecord record = new SchemaRecord(CALL.layout());
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[CALL.layout().length()]);
            for (int i = 0; i < 600; i++) {
                final String caller = "+4420" + (i % 30);
                log.append(record.wrapForWrite(buffer, 0).sequence(i).setString(0, caller).setTimestamp(1, 1_767_225_600_000L + i * 50L)
                        .setLong(2, i % 7));
                expected.merge(caller, (long) (i % 7), Long::sum); // every call within 30 s: all in each caller's first minute
            }
            log.appendEndOfStream();
        }
        startMember();
        final KeyedJob<long[]> job = KeyedJob.<long[]>builder("call-seconds", CALL).stringKeyed(new CallSeconds())
                .state(StateCodec.longs(1)).writes(MINUTES).build();
        final Job running = Jobs.submit(member.getJet(), job, JobOptions.of(dir));
        JobTestSupport.awaitEqual(expected, () -> Map.copyOf(member.<String, Long>getMap(MINUTES)), Duration.ofMinutes(1), running);
        running.cancel();
    }

    @Test
    void when_aFunctionIsTypedForTheOtherKindOfKey_then_theJobIsRefusedWhenBuilt() {
        assertThatThrownBy(() -> KeyedJob.<long[]>builder("call-seconds", CALL).longKeyed((event, context) -> context.longKey()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("schema call is keyed by string field caller, so its function is stringKeyed, not longKeyed");
        assertThatThrownBy(() -> KeyedJob.<long[]>builder("ticks", TICK).stringKeyed(new CallSeconds()))
                .hasMessageContaining("schema tick is keyed by long field k, so its function is longKeyed, not stringKeyed");
    }
}
