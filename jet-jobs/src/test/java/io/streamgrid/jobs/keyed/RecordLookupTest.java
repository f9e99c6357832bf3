package io.streamgrid.jobs.keyed;

import com.hazelcast.jet.Job;
import com.hazelcast.map.IMap;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.UnmatchedEvent;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.schema.TypedField;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lookups of records: a dimension map whose values are records of a schema (bytes any client can
 * write), read by the job with the schema's field handles — and values that are not records of it
 * counted as missing, never a failed job.
 */
class RecordLookupTest extends EmbeddedMemberTest {
    static final EventSchema CALL = EventSchema.builder("call").stringKey("subscriber", 16).eventTime("ts").int64("seconds").build();
    static final EventSchema PLAN = EventSchema.builder("plan").stringKey("subscriber", 16).eventTime("valid_from")
            .enumOf("tier", "BASIC", "GOLD").int64("cents_per_minute").build();
    /** The same plan schema, one version on, with a field added: newer than the job's. */
    static final EventSchema PLAN_V2 = EventSchema.builder("plan").version(2).stringKey("subscriber", 16).eventTime("valid_from")
            .enumOf("tier", "BASIC", "GOLD").int64("cents_per_minute").field(io.streamgrid.jobs.schema.Field.int64("cap").withDefault(0L))
            .build();
    static final TypedField.LongField SECONDS = CALL.longField("seconds");
    static final TypedField.EnumField TIER = PLAN.enumField("tier");
    static final TypedField.LongField CENTS_PER_MINUTE = PLAN.longField("cents_per_minute");
    static final String PLANS = "dim.plans";
    static final String BILLS = "state.bills";

    /** Each subscriber's bill in cents and its tier, as "TIER:cents". */
    static final class Bill implements StringKeyedFunction<long[]> {
        @Override
        public void onEvent(final SchemaRecord call, final StringKeyContext<long[]> context) {
            final SchemaRecord plan = context.lookupRecord(PLANS);
            long[] cents = context.state();
            if (cents == null) {
                cents = new long[1];
                context.setState(cents);
            }
            cents[0] += call.get(SECONDS) * plan.get(CENTS_PER_MINUTE) / 60;
            context.put(BILLS, context.stringKey(), plan.get(TIER) + ":" + cents[0]);
        }
    }

    private static byte[] plan(final EventSchema schema, final String subscriber, final String tier, final long centsPerMinute) {
        final SchemaRecord record = new SchemaRecord(schema.layout());
        record.wrapForWrite(new UnsafeBuffer(new byte[schema.layout().length()]), 0).setString(0, subscriber).setTimestamp(1, 0)
                .setEnum(2, tier).setLong(3, centsPerMinute);
        return record.toBytes();
    }

    /**
     * Design: four subscribers call; the plans map holds a valid record for two of them, a Long for
     * the third and a record of a newer schema version for the fourth. The job with a side-outputting
     * record lookup bills the first two exactly (oracle: seconds × rate / 60 per call, summed) and
     * sends every call of the other two to its unmatched map; the job keeps running throughout.
     */
    @Test
    void when_theDimensionHoldsRecordsOfTheSchema_then_theJobReadsThemTypedAndOtherValuesCountAsMissing() throws Exception {
        startMember();
        final IMap<String, Object> plans = member.getMap(PLANS);
        plans.set("ann", plan(PLAN, "ann", "GOLD", 6));
        plans.set("ben", plan(PLAN, "ben", "BASIC", 12));
        plans.set("cat", 42L);
        plans.set("dan", plan(PLAN_V2, "dan", "GOLD", 6));
        final KeyedJob<long[]> job = KeyedJob.<long[]>builder("bills", CALL).stringKeyed(new Bill()).state(StateCodec.longs(1))
                .lookup(PLANS, "subscriber", PLAN, Lookup.OnMissing.SIDE_OUTPUT).writes(BILLS).build();
        assertThat(job.declaredSchemas()).containsExactly(CALL, PLAN);
        final String[] subscribers = {"ann", "ben", "cat", "dan"};
        final Map<String, Long> cents = new HashMap<>();
        int unmatched = 0;
        try (SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(dir, CALL.name()), CALL, 2)) {
            final SchemaRecord call = new SchemaRecord(CALL.layout());
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[CALL.layout().length()]);
            for (int i = 0; i < 400; i++) {
                final String subscriber = subscribers[i % subscribers.length];
                final long seconds = 30 + i;
                log.append(call.wrapForWrite(buffer, 0).sequence(i).setString(0, subscriber).setTimestamp(1, 1_000L * i)
                        .setLong(2, seconds));
                switch (subscriber) {
                    case "ann" -> cents.merge(subscriber, seconds * 6 / 60, Long::sum);
                    case "ben" -> cents.merge(subscriber, seconds * 12 / 60, Long::sum);
                    default -> unmatched++;
                }
            }
            final Job running = Jobs.submit(member.getJet(), job, JobOptions.of(dir));
            final Map<String, String> expected = Map.of("ann", "GOLD:" + cents.get("ann"), "ben", "BASIC:" + cents.get("ben"));
            JobTestSupport.awaitEqual(expected, () -> Map.copyOf(member.<String, String>getMap(BILLS)), Duration.ofMinutes(1), running);
            final int expectedUnmatched = unmatched;
            org.awaitility.Awaitility.await().atMost(Duration.ofMinutes(1))
                    .until(() -> member.getMap(job.unmatchedMap()).size() == expectedUnmatched);
            final TreeSet<String> unmatchedKeys = new TreeSet<>();
            member.<String, UnmatchedEvent>getMap(job.unmatchedMap()).values().forEach(e -> unmatchedKeys.add(e.key()));
            assertThat(unmatchedKeys).containsExactly("cat", "dan");
            System.out.println(expected.size() + " bills equal the oracle; " + expectedUnmatched
                    + " calls whose plan was not a record of the schema side-output, the job still " + running.getStatus());
            running.cancel();
        }
    }
}
