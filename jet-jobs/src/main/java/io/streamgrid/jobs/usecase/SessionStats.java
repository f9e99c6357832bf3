package io.streamgrid.jobs.usecase;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.schema.TypedField.IntField;
import io.streamgrid.jobs.schema.TypedField.LongField;
import io.streamgrid.jobs.window.WindowAggregation;
import org.agrona.collections.LongHashSet;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;
import java.util.Arrays;

/**
 * A user session's accumulator: event count, distinct items (a primitive set) and the categories of
 * the {@value #LAST} latest events by event time.
 */
public final class SessionStats {
    static final int LAST = 5;
    long events;
    final LongHashSet items = new LongHashSet();
    /** The latest events by time, newest first: timestamps and categories; {@code latest} are filled. */
    final long[] latestTimestamps = new long[LAST];
    final int[] latestCategories = new int[LAST];
    int latest;

    void offer(final long timestamp, final int category) {
        if (latest == LAST && timestamp <= latestTimestamps[LAST - 1]) {
            return; // not newer than the oldest kept
        }
        // The slot to fill: the next free one, or the oldest's when full; then sink it into place.
        int i = latest < LAST ? latest++ : LAST - 1;
        while (i > 0 && latestTimestamps[i - 1] < timestamp) {
            latestTimestamps[i] = latestTimestamps[i - 1];
            latestCategories[i] = latestCategories[i - 1];
            i--;
        }
        latestTimestamps[i] = timestamp;
        latestCategories[i] = category;
    }

    /** Categories of the latest events, newest first. */
    public int[] lastCategories() {
        return Arrays.copyOf(latestCategories, latest);
    }

    /** Aggregates clicks into session statistics. */
    public static final class Aggregation implements WindowAggregation<SessionStats>, Serializable {
        private static final long serialVersionUID = 1L;
        private static final LongField ITEM = EventType.CLICK.schema().longField("item");
        private static final IntField CATEGORY = EventType.CLICK.schema().intField("category");

        @Override
        public SessionStats create() {
            return new SessionStats();
        }

        @Override
        public void accumulate(final SessionStats stats, final SchemaRecord event) {
            stats.events++;
            stats.items.add(event.get(ITEM));
            stats.offer(event.eventTime(), event.get(CATEGORY));
        }

        @Override
        public void combine(final SessionStats target, final SessionStats other) {
            target.events += other.events;
            target.items.addAll(other.items);
            for (int i = 0; i < other.latest; i++) {
                target.offer(other.latestTimestamps[i], other.latestCategories[i]);
            }
        }

        @Override
        public void write(final SessionStats stats, final DataOutput out) throws IOException {
            out.writeLong(stats.events);
            out.writeInt(stats.items.size());
            final LongHashSet.LongIterator items = stats.items.iterator();
            while (items.hasNext()) {
                out.writeLong(items.nextValue());
            }
            out.writeInt(stats.latest);
            for (int i = 0; i < stats.latest; i++) {
                out.writeLong(stats.latestTimestamps[i]);
                out.writeInt(stats.latestCategories[i]);
            }
        }

        @Override
        public SessionStats read(final DataInput in) throws IOException {
            final SessionStats stats = new SessionStats();
            stats.events = in.readLong();
            final int items = in.readInt();
            for (int i = 0; i < items; i++) {
                stats.items.add(in.readLong());
            }
            stats.latest = in.readInt();
            for (int i = 0; i < stats.latest; i++) {
                stats.latestTimestamps[i] = in.readLong();
                stats.latestCategories[i] = in.readInt();
            }
            return stats;
        }
    }
}
