package io.streamgrid.jobs.join;

import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.Field;
import io.streamgrid.jobs.schema.FieldType;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Joins of two event streams by key, and the re-keying that lets streams keyed differently meet.
 * Each builds a {@link KeyedJob}; submit it like any other ({@code Jobs.submit}).
 *
 * <p><b>Joining.</b> {@link #interval} pairs a left and a right event of the same key whose times are
 * within a bound of each other (a trade and the quotes of the second before it); {@link #tumbling}
 * pairs those in the same window (a new seller and the auctions she opened within the same ten
 * seconds). The two schemas must be co-partitioned by key — the same key type, logs of the same
 * partition count (see {@link KeyedJob.Builder#alsoReads}). Each pair reaches the
 * {@link JoinFunction} once, as soon as the later of its two events arrives (not at a window's end),
 * whatever order the events come in within the time policy's allowed disorder and lateness; an event
 * later than that goes to the job's late map, as in every keyed job. The events that may still meet
 * a partner are the job's keyed state (in its snapshots), so pairs are exactly-once across restores;
 * each is dropped by a timer once the watermark says no partner can come.
 *
 * <p><b>Re-keying.</b> When a stream is keyed by something else — trades by account, to be joined
 * with quotes by instrument — {@link #rekey} makes a job that copies every event into the log of a
 * schema with the same fields and another key, exactly once ({@link io.streamgrid.jobs.keyed.KeyedContext#emit});
 * the join then reads that log.
 *
 * <p><b>Selecting first.</b> A join that only wants some events of a side says so with
 * {@link Builder#leftWhere}/{@link Builder#rightWhere}, a re-key with its {@link EventFilter}: the
 * refused events are neither kept nor copied, so state, snapshots and the re-keyed log stay as small
 * as the selection — where testing the selection in the pair function keeps every event.
 */
public final class StreamJoin {
    /** A re-key takes every event as it comes: none is too late to copy (a millennium of lateness). */
    private static final TimePolicy FORWARD_ALL = TimePolicy.of(0, 1000L * 365 * 86_400_000);

    private StreamJoin() {
    }

    /**
     * A join of the events of {@code left} and {@code right} with the same key where the right one's
     * time is from {@code lowerMs} to {@code upperMs} (both included, either may be negative) after
     * the left one's: {@code (-1000, 0)} pairs each left event with the right events of the second
     * before it.
     */
    public static Builder interval(final String name, final EventSchema left, final EventSchema right, final long lowerMs,
                                   final long upperMs) {
        if (lowerMs > upperMs) {
            throw new IllegalArgumentException("join " + name + ": the interval's lower bound " + lowerMs
                    + " ms is above its upper bound " + upperMs + " ms");
        }
        return new Builder(name, left, right, JoinRule.interval(lowerMs, upperMs));
    }

    /** A join of the events of {@code left} and {@code right} with the same key in the same tumbling window of {@code sizeMs}. */
    public static Builder tumbling(final String name, final EventSchema left, final EventSchema right, final long sizeMs) {
        if (sizeMs < 1) {
            throw new IllegalArgumentException("join " + name + ": the window size must be at least 1 ms, was " + sizeMs);
        }
        return new Builder(name, left, right, JoinRule.tumbling(sizeMs));
    }

    /**
     * A job that copies every event of {@code from} into the log of {@code to} — partitioned by
     * {@code to}'s key — exactly once; {@code to} has the same fields as {@code from} (each with the
     * same type, any order; a string at least as long), and its own key and event-time fields among them. Every event is
     * copied, however late: what is late is for the job reading {@code to} to say.
     *
     * <p>What the reader of {@code to} must allow for — its time policy: the copies of events from
     * different partitions of {@code from} land in a partition of {@code to} in the order this job's
     * partitions get to them: in step while it keeps up, but after a restart one may catch up ahead
     * of another, which the reader sees as disorder, so give it an allowed disorder above the
     * catch-up you expect (seconds). And while this job starts or restarts, {@code to} is quiet: a
     * reader merging it with another stream moves past it after its idle timeout (with a heartbeat),
     * and the copies then come late — give a join over {@code to} an idle timeout above this job's
     * restart time (tens of seconds). An event beyond either goes to the reader's late map, never
     * silently away.
     *
     * @throws IllegalArgumentException naming the first field {@code to} lacks, adds or types otherwise
     */
    public static KeyedJob<Void> rekey(final String name, final EventSchema from, final EventSchema to) {
        return rekey(name, from, to, EventFilter.ALL);
    }

    /**
     * As {@link #rekey(String, EventSchema, EventSchema)}, copying only the events {@code keep}
     * passes; the others are not written to {@code to}'s log at all.
     *
     * @throws IllegalArgumentException naming the first field {@code to} lacks, adds or types otherwise
     */
    public static KeyedJob<Void> rekey(final String name, final EventSchema from, final EventSchema to, final EventFilter keep) {
        Objects.requireNonNull(keep, "rekey job " + name + ": event filter");
        for (final Field field : from.fields()) {
            final Field same = to.fields().stream().filter(other -> other.name().equals(field.name())).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("rekey job " + name + ": schema " + to.name() + " has no field "
                            + field.name() + " of " + from.name() + "; the two need the same fields"));
            if (same.type() != field.type() || !same.symbols().equals(field.symbols()) || same.maxLength() < field.maxLength()) {
                throw new IllegalArgumentException("rekey job " + name + ": field " + field.name() + " is " + describe(field) + " in "
                        + from.name() + " but " + describe(same) + " in " + to.name());
            }
        }
        if (to.fields().size() != from.fields().size()) {
            throw new IllegalArgumentException("rekey job " + name + ": schema " + to.name() + " has fields " + from.name()
                    + " lacks; the two need the same fields");
        }
        return KeyedJob.<Void>builder(name, from)
                .function(new RekeyFunction(from, to, keep))
                .state(StateCodec.none())
                .time(FORWARD_ALL)
                .emits(to)
                .build();
    }

    private static String describe(final Field field) {
        return field.type().yamlName() + (field.symbols().isEmpty() ? "" : " " + field.symbols())
                + (field.type() == FieldType.STRING ? " of at most " + field.maxLength() + " bytes" : "");
    }

    /** Builds a join; {@link #onPair} is required. */
    public static final class Builder {
        private final String name;
        private final EventSchema left;
        private final EventSchema right;
        private final JoinRule rule;
        private TimePolicy policy;
        private JoinFunction function;
        private EventFilter leftWhere = EventFilter.ALL;
        private EventFilter rightWhere = EventFilter.ALL;
        private String[] writes = new String[0];
        private final List<EventSchema> emits = new ArrayList<>();

        private Builder(final String name, final EventSchema left, final EventSchema right, final JoinRule rule) {
            this.name = name;
            this.left = Objects.requireNonNull(left, "left schema of join " + name);
            this.right = Objects.requireNonNull(right, "right schema of join " + name);
            this.rule = rule;
        }

        /**
         * The time policy: its allowed disorder is how far apart in time events may arrive and still
         * be paired as if in order, its allowed lateness how much further (events kept that much
         * longer). It needs an idle timeout (two streams: a quiet one must not hold the other back).
         */
        public Builder time(final TimePolicy value) {
            policy = Objects.requireNonNull(value, "time policy");
            return this;
        }

        public Builder onPair(final JoinFunction value) {
            function = value;
            return this;
        }

        /** Only the left events {@code keep} passes take part (see {@link EventFilter}); default: all. */
        public Builder leftWhere(final EventFilter keep) {
            leftWhere = Objects.requireNonNull(keep, "join " + name + ": left event filter");
            return this;
        }

        /** Only the right events {@code keep} passes take part (see {@link EventFilter}); default: all. */
        public Builder rightWhere(final EventFilter keep) {
            rightWhere = Objects.requireNonNull(keep, "join " + name + ": right event filter");
            return this;
        }

        /** The maps the function writes ({@link JoinContext#put}). */
        public Builder writes(final String... maps) {
            writes = maps.clone();
            return this;
        }

        /** The schemas the function emits events of ({@link JoinContext#emit}). */
        public Builder emits(final EventSchema... schemas) {
            emits.addAll(List.of(schemas));
            return this;
        }

        /** @throws IllegalArgumentException or NullPointerException naming what is missing or wrong */
        public KeyedJob<?> build() {
            Objects.requireNonNull(function, "join " + name + " needs onPair");
            Objects.requireNonNull(policy, "join " + name + " needs a time policy with an idle timeout");
            if (left.name().equals(right.name())) {
                throw new IllegalArgumentException("join " + name + " joins schema " + left.name() + " with itself: join two schemas");
            }
            return KeyedJob.<JoinBuffers>builder(name, left)
                    .alsoReads(right)
                    .function(new PairJoinFunction(left, right, rule, policy.allowedLatenessMs(), function, leftWhere, rightWhere))
                    .state(new JoinBuffers.Codec())
                    .time(policy)
                    .writes(writes)
                    .emits(emits.toArray(new EventSchema[0]))
                    .build();
        }
    }
}
