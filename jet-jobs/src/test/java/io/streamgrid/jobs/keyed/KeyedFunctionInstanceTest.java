package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.Jobs;
import com.hazelcast.jet.Job;
import io.streamgrid.jobs.EmbeddedMemberTest;
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
 * {@link KeyedFunction}'s contract: one instance per partition, on one thread. A function that
 * keeps a field (here: the last sequence it saw, which must grow within a partition's log) must
 * never see another partition's events; Jet alone would hand one job object to every processor
 * of a member.
 */
class KeyedFunctionInstanceTest extends EmbeddedMemberTest {
    static final EventSchema TICK = EventSchema.builder("tick").longKey("k").eventTime("ts").build();
    static final String OUT = "state.instance-check";

    /** Writes, per event, whether its sequence is above the last one this instance saw. */
    static final class RemembersLastSequence implements KeyedFunction<long[]> {
        private long last = -1;

        @Override
        public void onEvent(final SchemaRecord event, final KeyedContext<long[]> context) {
            context.put(OUT, event.sequence(), event.sequence() > last ? "in order" : "after " + last);
            last = event.sequence();
        }
    }

    @Test
    void when_aFunctionKeepsAField_then_eachPartitionHasItsOwnInstance() throws Exception {
        final KeyedJob<long[]> job = KeyedJob.<long[]>builder("instance-check", TICK).function(new RemembersLastSequence())
                .state(StateCodec.longs(1)).writes(OUT).build();
        final int events = 4_000;
        try (SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(dir, TICK.name()), TICK, 4)) {
            final SchemaRecord record = new SchemaRecord(TICK.layout());
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
            for (int i = 0; i < events; i++) {
                // Each partition's sequences grow; across partitions they interleave.
                record.wrapForWrite(buffer, 0).sequence(i).setLong(0, i % 97).setTimestamp(1, 1_767_225_600_000L + i);
                log.append(record);
            }
            log.appendEndOfStream();
        }
        startMember();
        final Job running = Jobs.submit(member.getJet(), job, JobOptions.of(dir).withLocalParallelism(1));
        await().atMost(Duration.ofMinutes(1)).until(() -> member.getMap(OUT).size() == events);
        assertThat(member.<Long, String>getMap(OUT).values()).as("sequences each instance saw").containsOnly("in order");
        running.cancel();
    }
}
