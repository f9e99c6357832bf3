package io.streamgrid.jobs.pattern;

import io.streamgrid.jobs.keyed.StateCodec;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/** One key's state in a pattern job: each pattern's partial matches, oldest first. */
final class PatternState {
    final List<ArrayList<Run>> runs;
    /** Time of the registered timer that drops partial matches past their bound, or {@link #NONE}. */
    long expiryTimer = NONE;
    static final long NONE = Long.MIN_VALUE;

    PatternState(final int patterns) {
        runs = new ArrayList<>(patterns);
        for (int p = 0; p < patterns; p++) {
            runs.add(new ArrayList<>());
        }
    }

    /** Back to the state of a key never seen (for reuse by another key). */
    void reset() {
        runs.forEach(ArrayList::clear);
        expiryTimer = NONE;
    }

    boolean isEmpty() {
        for (final ArrayList<Run> list : runs) {
            if (!list.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /**
     * A partial match: the pattern step it is at, how many events that step has taken, and the
     * events taken so far with the index where each step's events begin.
     */
    static final class Run {
        /** Set again only on the function's reusable empty match (a run that took events keeps its start). */
        long start;
        int step;
        int count;
        final ArrayList<Captured> taken = new ArrayList<>();
        /** stepStart[s]: index in {@link #taken} of step s's first event (valid for s <= step). */
        final int[] stepStart;

        Run(final long start, final int steps) {
            this.start = start;
            this.stepStart = new int[steps + 1];
        }
    }

    /**
     * Writes events once each (a partial match refers to them by number), so the snapshot of a key
     * grows with its distinct events, not with the number of partial matches holding them.
     */
    static final class Codec implements StateCodec<PatternState> {
        private static final long serialVersionUID = 1L;
        /** Per pattern, its number of steps. */
        private final int[] stepCounts;

        Codec(final int[] stepCounts) {
            this.stepCounts = stepCounts.clone();
        }

        @Override
        public void write(final PatternState state, final DataOutput out) throws IOException {
            final Map<Captured, Integer> numbers = new IdentityHashMap<>();
            final List<Captured> events = new ArrayList<>();
            state.runs.forEach(list -> list.forEach(run -> run.taken.forEach(e -> number(e, numbers, events))));
            out.writeLong(state.expiryTimer);
            out.writeInt(events.size());
            for (final Captured e : events) {
                out.writeInt(e.schema);
                out.writeLong(e.time);
                out.writeInt(e.bytes.length);
                out.write(e.bytes);
            }
            for (final ArrayList<Run> list : state.runs) {
                out.writeInt(list.size());
                for (final Run run : list) {
                    out.writeLong(run.start);
                    out.writeInt(run.step);
                    out.writeInt(run.count);
                    for (int s = 0; s <= run.step && s < run.stepStart.length; s++) {
                        out.writeInt(run.stepStart[s]);
                    }
                    out.writeInt(run.taken.size());
                    for (final Captured e : run.taken) {
                        out.writeInt(numbers.get(e));
                    }
                }
            }
        }

        private static void number(final Captured event, final Map<Captured, Integer> numbers, final List<Captured> events) {
            if (numbers.putIfAbsent(event, events.size()) == null) {
                events.add(event);
            }
        }

        @Override
        public PatternState read(final DataInput in) throws IOException {
            final PatternState state = new PatternState(stepCounts.length);
            state.expiryTimer = in.readLong();
            final Captured[] events = new Captured[in.readInt()];
            for (int i = 0; i < events.length; i++) {
                final int schema = in.readInt();
                final long time = in.readLong();
                final byte[] bytes = new byte[in.readInt()];
                in.readFully(bytes);
                events[i] = new Captured(schema, time, bytes);
            }
            for (int p = 0; p < stepCounts.length; p++) {
                final int count = in.readInt();
                for (int r = 0; r < count; r++) {
                    final Run run = new Run(in.readLong(), stepCounts[p]);
                    run.step = in.readInt();
                    run.count = in.readInt();
                    for (int s = 0; s <= run.step && s < run.stepStart.length; s++) {
                        run.stepStart[s] = in.readInt();
                    }
                    final int taken = in.readInt();
                    for (int t = 0; t < taken; t++) {
                        run.taken.add(events[in.readInt()]);
                    }
                    state.runs.get(p).add(run);
                }
            }
            return state;
        }
    }
}
