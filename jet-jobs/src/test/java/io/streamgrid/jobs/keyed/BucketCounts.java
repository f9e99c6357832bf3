package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.collections.Long2LongHashMap;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * A keyed function for tests: per user and 10-second bucket of event time, the number of visits,
 * emitted when the watermark passes the bucket's end (an event-time timer) and again at once for
 * each late visit within the allowed lateness (the timer re-registered behind the watermark fires
 * right after the event). A second timer drops the bucket from state once no event can reach it any
 * more. State: an Agrona primitive map bucket start → count.
 */
public final class BucketCounts implements KeyedFunction<Long2LongHashMap> {
    public static final EventSchema VISIT = EventSchema.builder("visit").stringKey("user", 24).eventTime("ts")
            .float64("amount").build();
    public static final long SIZE = 10_000;
    public static final String MAP = "state.visit-buckets";

    private final long lateness;

    public BucketCounts(final long lateness) {
        if (lateness % SIZE == SIZE - 1) {
            throw new IllegalArgumentException("bucket ends and clean-ups would share timer times");
        }
        this.lateness = lateness;
    }

    public static KeyedJob<Long2LongHashMap> job(final String name, final long disorder, final long lateness) {
        return KeyedJob.<Long2LongHashMap>builder(name, VISIT).function(new BucketCounts(lateness)).state(CODEC)
                .time(TimePolicy.of(disorder, lateness)).writes(MAP).build();
    }

    public static String mapKey(final String user, final long start) {
        return user + "|" + start;
    }

    @Override
    public void onEvent(final SchemaRecord event, final KeyedContext<Long2LongHashMap> context) {
        Long2LongHashMap counts = context.state();
        if (counts == null) {
            counts = new Long2LongHashMap(0);
            context.setState(counts);
        }
        final long start = Math.floorDiv(event.eventTime(), SIZE) * SIZE;
        counts.put(start, counts.get(start) + 1);
        context.registerTimer(start + SIZE - 1);
        context.registerTimer(start + SIZE + lateness);
    }

    @Override
    public void onTimer(final long time, final KeyedContext<Long2LongHashMap> context) {
        final Long2LongHashMap counts = context.state();
        if (Math.floorMod(time, SIZE) == SIZE - 1) {
            final long start = time - (SIZE - 1);
            context.put(MAP, mapKey(context.stringKey(), start), counts.get(start));
        } else {
            counts.remove(time - lateness - SIZE);
            if (counts.isEmpty()) {
                context.clearState();
            }
        }
    }

    public static final StateCodec<Long2LongHashMap> CODEC = new StateCodec<>() {
        @Override
        public void write(final Long2LongHashMap state, final DataOutput out) throws IOException {
            out.writeInt(state.size());
            final Long2LongHashMap.EntryIterator entries = state.entrySet().iterator();
            while (entries.hasNext()) {
                entries.next();
                out.writeLong(entries.getLongKey());
                out.writeLong(entries.getLongValue());
            }
        }

        @Override
        public Long2LongHashMap read(final DataInput in) throws IOException {
            final Long2LongHashMap state = new Long2LongHashMap(0);
            final int size = in.readInt();
            for (int i = 0; i < size; i++) {
                state.put(in.readLong(), in.readLong());
            }
            return state;
        }
    };
}
