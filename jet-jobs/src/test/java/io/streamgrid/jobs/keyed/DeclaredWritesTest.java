package io.streamgrid.jobs.keyed;

import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A keyed function writes only the maps its job declares ({@code KeyedJob.Builder.writes}): a write
 * to another fails the job at the first such call, naming the map and the ones declared — not a
 * map that appears unannounced, outside what the CLI reports, replays rename and the docs list.
 */
class DeclaredWritesTest extends EmbeddedMemberTest {
    static final EventSchema TICK = EventSchema.builder("tick").longKey("k").eventTime("ts").build();
    static final String DECLARED = "state.declared";
    static final String UNDECLARED = "state.undeclared";

    /** Writes the declared map for even keys and the other one for the key 7. */
    static final class WritesTwoMaps implements KeyedFunction<long[]> {
        @Override
        public void onEvent(final SchemaRecord event, final KeyedContext<long[]> context) {
            context.put(context.longKey() == 7 ? UNDECLARED : DECLARED, context.longKey(), "seen");
        }
    }

    @Test
    void when_aFunctionWritesAMapItDoesNotDeclare_then_theJobFailsNamingTheMap() throws Exception {
        final KeyedJob<long[]> job = KeyedJob.<long[]>builder("declared-writes", TICK).function(new WritesTwoMaps())
                .state(StateCodec.longs(1)).writes(DECLARED).build();
        try (SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(dir, TICK.name()), TICK, 2)) {
            final SchemaRecord record = new SchemaRecord(TICK.layout());
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
            for (int i = 0; i < 20; i++) {
                record.wrapForWrite(buffer, 0).sequence(i).setLong(0, i).setTimestamp(1, 1_767_225_600_000L + i);
                log.append(record);
            }
            log.appendEndOfStream();
        }
        startMember();
        final Job running = Jobs.submit(member.getJet(), job, JobOptions.of(dir));

        await().atMost(Duration.ofMinutes(1)).until(() -> running.getStatus() == JobStatus.SUSPENDED
                || running.getStatus() == JobStatus.FAILED);
        final String cause = await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                .until(() -> running.getSuspensionCause().errorCause(), c -> c != null);
        assertThat(cause).contains("job declared-writes writes map " + UNDECLARED + ", which it does not declare")
                .contains("[" + DECLARED + "]");
        assertThat(member.getMap(UNDECLARED).size()).as("nothing reached the undeclared map").isZero();
        running.cancel();
    }
}
