package io.streamgrid.jobs.usecase;

import io.streamgrid.jobs.event.ClickAction;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.schema.TypedField.EnumField;
import io.streamgrid.jobs.window.WindowAggregation;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;

/** Click-stream actions counted per kind: the accumulator of {@code user-clicks-hourly}. */
public final class ClickCounts {
    long views;
    long clicks;
    long purchases;

    /** Counts views, clicks and purchases. */
    public static final class Aggregation implements WindowAggregation<ClickCounts>, Serializable {
        private static final long serialVersionUID = 1L;
        private static final EnumField ACTION = EventType.CLICK.schema().enumField("action");
        private static final int VIEW = ClickAction.VIEW.ordinal();
        private static final int CLICK = ClickAction.CLICK.ordinal();

        @Override
        public ClickCounts create() {
            return new ClickCounts();
        }

        @Override
        public void accumulate(final ClickCounts counts, final SchemaRecord event) {
            final int action = event.ordinal(ACTION);
            if (action == VIEW) {
                counts.views++;
            } else if (action == CLICK) {
                counts.clicks++;
            } else {
                counts.purchases++;
            }
        }

        @Override
        public void combine(final ClickCounts target, final ClickCounts other) {
            target.views += other.views;
            target.clicks += other.clicks;
            target.purchases += other.purchases;
        }

        @Override
        public boolean reset(final ClickCounts counts) {
            counts.views = 0;
            counts.clicks = 0;
            counts.purchases = 0;
            return true;
        }

        @Override
        public void write(final ClickCounts counts, final DataOutput out) throws IOException {
            out.writeLong(counts.views);
            out.writeLong(counts.clicks);
            out.writeLong(counts.purchases);
        }

        @Override
        public ClickCounts read(final DataInput in) throws IOException {
            final ClickCounts counts = new ClickCounts();
            counts.views = in.readLong();
            counts.clicks = in.readLong();
            counts.purchases = in.readLong();
            return counts;
        }
    }
}
