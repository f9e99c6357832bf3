package io.streamgrid.examples.kappa;

import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.Lookup;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.keyed.StreamGridJob;
import io.streamgrid.jobs.keyed.StringKeyContext;
import io.streamgrid.jobs.keyed.StringKeyedFunction;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.pipeline.CassandraOutput;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.Field;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.schema.TypedField.IntField;
import io.streamgrid.jobs.schema.TypedField.LongField;
import io.streamgrid.jobs.schema.TypedField.StringField;
import io.streamgrid.sink.CassandraTarget;
import io.streamgrid.sink.CqlType;
import io.streamgrid.sink.SinkOptions;
import io.streamgrid.sink.TableSpec;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per user: every valid access-log request, enriched with the user's {@code dim.users} row, rolled
 * up into {@link UserActivity} in {@link #ACTIVITY}. A request of a user the dimension does not
 * know goes to {@code unmatched.user-activity} with the reason — never silently dropped; lines that
 * are not valid requests never reach the log (the loader's rejected file has them with their
 * numbers and reasons).
 */
public class UserActivityJob implements StreamGridJob {
    public static final String NAME = "user-activity";
    public static final String USERS = "dim.users";
    public static final String ACTIVITY = "state.user-activity";
    /** Access-log fields this schema keeps (names as {@code SchemaLoader.ACCESS_LOG_FIELDS}); a response without a body ("-") has 0 bytes. */
    public static final EventSchema ACCESS = EventSchema.builder("access").stringKey("user", 32).eventTime("ts")
            .string("host", 64).enumOf("method", "GET", "POST", "PUT", "DELETE", "HEAD", "PATCH", "OPTIONS")
            .string("path", 200).int32("status").field(Field.int64("bytes").withDefault(0L)).build();
    private static final StringField PATH = ACCESS.stringField("path");
    private static final IntField STATUS = ACCESS.intField("status");
    private static final LongField BYTES = ACCESS.longField("bytes");

    @Override
    public KeyedJob<?> job() {
        return KeyedJob.<long[]>builder(NAME, ACCESS).stringKeyed(new RollUp()).state(StateCodec.longs(3))
                .lookup(USERS, "user", Lookup.OnMissing.SIDE_OUTPUT)
                .time(TimePolicy.of(5_000, 60_000)).writes(ACTIVITY).build();
    }

    /** The analytics copy of {@link #ACTIVITY} in Cassandra: {@code user_activity}, one row per user. */
    public static TableSpec activityTable(final String keyspace) {
        return new TableSpec(keyspace, "user_activity", List.of(new TableSpec.Column("user", CqlType.TEXT),
                new TableSpec.Column("country", CqlType.TEXT), new TableSpec.Column("segment", CqlType.TEXT),
                new TableSpec.Column("requests", CqlType.BIGINT), new TableSpec.Column("bytes", CqlType.BIGINT),
                new TableSpec.Column("server_errors", CqlType.BIGINT), new TableSpec.Column("last_path", CqlType.TEXT),
                new TableSpec.Column("last_time", CqlType.BIGINT)), List.of("user"), List.of());
    }

    /** Binds {@link #ACTIVITY} to {@link #activityTable}: exactly-once with the job's snapshots. */
    public static CassandraOutput cassandraOutput(final CassandraTarget target, final SinkOptions options) {
        return new CassandraOutput(target, List.of(new CassandraOutput.Binding(ACTIVITY, activityTable(target.keyspace()),
                value -> row((UserActivity) value))), options);
    }

    /**
     * The oracle: what {@link #ACTIVITY} holds after {@code requests} (valid ones, in log order),
     * with {@code users} as the dimension. Requests of other users are not in it (they are the
     * unmatched side output).
     */
    public static Map<String, UserActivity> expected(final List<AccessLogs.Request> requests, final Map<String, UserProfile> users) {
        final Map<String, UserActivity> activity = new HashMap<>();
        for (final AccessLogs.Request r : requests) {
            final UserProfile profile = users.get(r.user());
            if (profile == null) {
                continue;
            }
            final UserActivity before = activity.get(r.user());
            activity.put(r.user(), new UserActivity(r.user(), profile.country(), profile.segment(),
                    (before == null ? 0 : before.requests()) + 1, (before == null ? 0 : before.bytes()) + Math.max(0, r.bytes()),
                    (before == null ? 0 : before.serverErrors()) + (r.status() >= 500 ? 1 : 0), r.path(), r.epochMillis()));
        }
        return activity;
    }

    /** The row of {@link #activityTable} that holds {@code activity}, in column order. */
    public static Object[] row(final UserActivity a) {
        return new Object[] {a.user(), a.country(), a.segment(), a.requests(), a.bytes(), a.serverErrors(), a.lastPath(), a.lastTime()};
    }

    /** State per user: {requests, bytes, server errors}. */
    static final class RollUp implements StringKeyedFunction<long[]> {
        @Override
        public void onEvent(final SchemaRecord request, final StringKeyContext<long[]> context) {
            long[] totals = context.state();
            if (totals == null) {
                totals = new long[3];
                context.setState(totals);
            }
            totals[0]++;
            totals[1] += request.get(BYTES);
            if (request.get(STATUS) >= 500) {
                totals[2]++;
            }
            final UserProfile profile = context.lookup(USERS);
            context.put(ACTIVITY, context.stringKey(), new UserActivity(context.stringKey(), profile.country(), profile.segment(),
                    totals[0], totals[1], totals[2], request.get(PATH), request.eventTime()));
        }
    }
}
