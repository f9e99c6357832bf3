package io.streamgrid.jobs.pattern;

import io.streamgrid.jobs.keyed.KeyedContext;
import io.streamgrid.jobs.keyed.KeyedFunction;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.FieldType;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;

import java.util.AbstractList;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The keyed function of a pattern job (see {@link Pattern} for the matching rules). The job sees
 * its events in event-time order ({@code KeyedJob.Builder.inEventTimeOrder}: the runtime holds each
 * event until the watermark reaches it), so each event is matched as it comes: offered to the
 * key's partial matches, then to each pattern's first step. A copy of an event is made only when a
 * match takes it. A key has at most one timer, just after its oldest partial match can no longer
 * complete (the expiry, which drops matches past their bound, so keys whose matches died leave no
 * state behind).
 */
final class PatternFunction implements KeyedFunction<PatternState> {
    private static final long serialVersionUID = 1L;
    private static final int MAX_SPARE_STATES = 256;

    private final List<EventSchema> schemas;
    private final List<Pattern> patterns;
    private final String alertsMap;
    private final boolean stringKey;
    /** Per pattern, per step: the index of the step's schema in {@link #schemas}. */
    private final int[][] stepSchemas;
    private transient SchemaLayout[] layouts;
    private transient MatchView[] views;
    /** The event being matched, copied on the first take (runs that take one event share its copy). */
    private transient Captured taking;
    /**
     * States of keys whose state was cleared, emptied, for the next key that needs one: most keys
     * of a busy job go empty after each reading is released and come back with the next, and a new
     * state each time (with its lists) was a tenth of the job's time. One function instance per
     * partition and thread, so no sharing.
     */
    private transient ArrayDeque<PatternState> spareStates;
    private transient PatternState.Run[] emptyRuns;
    private transient EventSchema lastSchema;
    private transient int lastSchemaIndex;

    PatternFunction(final List<EventSchema> schemas, final List<Pattern> patterns, final String alertsMap) {
        this.schemas = List.copyOf(schemas);
        this.patterns = List.copyOf(patterns);
        this.alertsMap = alertsMap;
        final EventSchema first = schemas.get(0);
        this.stringKey = first.field(first.keyField()).type() == FieldType.STRING;
        this.stepSchemas = new int[patterns.size()][];
        for (int p = 0; p < patterns.size(); p++) {
            final List<Pattern.Step> steps = patterns.get(p).steps();
            stepSchemas[p] = new int[steps.size()];
            for (int s = 0; s < steps.size(); s++) {
                stepSchemas[p][s] = schemaIndex(steps.get(s).schema());
                if (stepSchemas[p][s] < 0) {
                    throw new IllegalArgumentException(patterns.get(p) + ": step " + steps.get(s).name() + " reads schema "
                            + steps.get(s).schema() + ", which the job does not read; it reads "
                            + schemas.stream().map(EventSchema::name).toList());
                }
            }
        }
    }

    int[] stepCounts() {
        return patterns.stream().mapToInt(p -> p.steps().size()).toArray();
    }

    /** The index of the event's schema; the last one is remembered (events of one schema come in runs). */
    private int schemaIndexOf(final SchemaRecord event) {
        final EventSchema schema = event.layout().schema();
        if (schema != lastSchema) {
            lastSchemaIndex = schemaIndex(schema.name());
            lastSchema = schema;
        }
        return lastSchemaIndex;
    }

    private int schemaIndex(final String name) {
        for (int i = 0; i < schemas.size(); i++) {
            if (schemas.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }

    private SchemaLayout layout(final int schema) {
        if (layouts == null) {
            layouts = schemas.stream().map(EventSchema::layout).toArray(SchemaLayout[]::new);
        }
        return layouts[schema];
    }

    @Override
    public void onEvent(final SchemaRecord event, final KeyedContext<PatternState> context) {
        PatternState state = context.state();
        final boolean hadState = state != null;
        if (!hadState) {
            // Offered to an empty state first: most events start nothing, and a key with nothing keeps no entry.
            state = spareState();
        }
        final int schema = schemaIndexOf(event);
        taking = null;
        for (int p = 0; p < patterns.size(); p++) {
            match(p, state.runs.get(p), event, schema, context);
        }
        taking = null;
        if (state.isEmpty()) {
            if (hadState) {
                context.clearState();
            }
            recycle(state);
            return;
        }
        if (!hadState) {
            context.setState(state);
        }
        scheduleExpiry(state, context);
    }

    @Override
    public void onTimer(final long time, final KeyedContext<PatternState> context) {
        final PatternState state = context.state();
        if (state == null) {
            return;
        }
        if (time >= state.expiryTimer) {
            state.expiryTimer = PatternState.NONE;
        }
        // Partial matches that can no longer complete: every event still to come is at or after `time`.
        // Runs are oldest first, so those are a prefix.
        for (int p = 0; p < patterns.size(); p++) {
            final long within = patterns.get(p).withinMs();
            final ArrayList<PatternState.Run> runs = state.runs.get(p);
            int expired = 0;
            while (expired < runs.size() && time - runs.get(expired).start > within) {
                expired++;
            }
            if (expired > 0) {
                runs.subList(0, expired).clear();
            }
        }
        if (state.isEmpty()) {
            context.clearState();
            recycle(state);
            return;
        }
        scheduleExpiry(state, context);
    }

    /** Registers a timer for the oldest partial match's expiry when none is registered at or before it. */
    private void scheduleExpiry(final PatternState state, final KeyedContext<PatternState> context) {
        long expiry = Long.MAX_VALUE;
        for (int p = 0; p < patterns.size(); p++) {
            final ArrayList<PatternState.Run> runs = state.runs.get(p);
            if (!runs.isEmpty()) {
                expiry = Math.min(expiry, expiryTime(runs.get(0).start, patterns.get(p).withinMs())); // runs are oldest first
            }
        }
        if (expiry != Long.MAX_VALUE && (state.expiryTimer == PatternState.NONE || expiry < state.expiryTimer)) {
            // A later expiry timer stays registered; when it fires it finds nothing expired, or what is.
            state.expiryTimer = expiry;
            context.registerTimer(expiry);
        }
    }

    /** An empty state: a recycled one, or a new one. */
    private PatternState spareState() {
        return spareStates == null || spareStates.isEmpty() ? new PatternState(patterns.size()) : spareStates.pop();
    }

    private void recycle(final PatternState state) {
        if (spareStates == null) {
            spareStates = new ArrayDeque<>();
        }
        if (spareStates.size() < MAX_SPARE_STATES) {
            state.reset();
            spareStates.push(state);
        }
    }

    /**
     * When to drop a partial match that started at {@code start}: just after it can no longer
     * complete, rounded up to a 64th of {@code within}. Dropping it a little late changes nothing
     * (an event past the bound ends it anyway); the rounding keeps the distinct timer times few —
     * a timer queue with a distinct time per key's expiry spent more on its buckets than the
     * matching did.
     */
    static long expiryTime(final long start, final long within) {
        final long exact = start + within + 1;
        final long grain = Math.max(1, within / 64);
        return Math.floorDiv(exact + grain - 1, grain) * grain;
    }

    /** Offers one event, in matching order, to pattern {@code p}'s partial matches, then lets it start one. */
    private void match(final int p, final ArrayList<PatternState.Run> runs, final SchemaRecord event, final int schema,
                       final KeyedContext<PatternState> context) {
        final Pattern pattern = patterns.get(p);
        final List<Pattern.Step> steps = pattern.steps();
        final long time = event.eventTime();
        for (int r = 0; r < runs.size(); r++) {
            final PatternState.Run run = runs.get(r);
            if (time - run.start > pattern.withinMs()) {
                runs.remove(r--);
                continue;
            }
            if (stepSchemas[p][run.step] != schema) {
                continue;
            }
            final Pattern.Step step = steps.get(run.step);
            if (!step.condition().test(event, view(p, run))) {
                if (run.count > 0) {
                    runs.remove(r--); // a repetition must not be interrupted by its own schema
                }
                continue;
            }
            if (take(run, captured(event, schema), steps)) {
                report(pattern, run, context);
                runs.clear();
                return;
            }
        }
        if (stepSchemas[p][0] == schema) {
            // Asked of an empty match first, which is reused: most events start nothing.
            final PatternState.Run empty = emptyRun(p, time);
            if (steps.get(0).condition().test(event, view(p, empty))) {
                final PatternState.Run run = new PatternState.Run(time, steps.size());
                if (take(run, captured(event, schema), steps)) {
                    report(pattern, run, context);
                    runs.clear();
                } else {
                    runs.add(run); // its expiry is scheduled when the timer call ends
                }
            }
        }
    }

    /** The copy of the event being matched, made once. */
    private Captured captured(final SchemaRecord event, final int schema) {
        if (taking == null) {
            taking = Captured.of(event, schema);
        }
        return taking;
    }

    /** Adds the event to the run's current step; true when that completed the pattern. */
    private static boolean take(final PatternState.Run run, final Captured event, final List<Pattern.Step> steps) {
        run.taken.add(event);
        run.count++;
        if (run.count == steps.get(run.step).times()) {
            run.step++;
            run.count = 0;
            run.stepStart[run.step] = run.taken.size();
        }
        return run.step == steps.size();
    }

    private void report(final Pattern pattern, final PatternState.Run run, final KeyedContext<PatternState> context) {
        final String key = stringKey ? context.stringKey() : Long.toString(context.longKey());
        final StringBuilder readings = new StringBuilder();
        final List<Pattern.Step> steps = pattern.steps();
        for (int s = 0; s < steps.size(); s++) {
            for (int i = run.stepStart[s]; i < run.stepStart[s + 1]; i++) {
                final Captured event = run.taken.get(i);
                if (readings.length() > 0) {
                    readings.append('\n');
                }
                describe(readings.append(steps.get(s).name()).append(' '), event);
            }
        }
        final Captured last = run.taken.get(run.taken.size() - 1);
        final PatternAlert alert = new PatternAlert(key, pattern.name(), run.start, last.time, readings.toString());
        context.put(alertsMap, alert.mapKey(run.taken.get(0).view(layout(run.taken.get(0).schema)).sequence()), alert);
    }

    private void describe(final StringBuilder out, final Captured event) {
        final SchemaLayout layout = layout(event.schema);
        final SchemaRecord record = event.view(layout);
        out.append(layout.schema().name()).append('@').append(event.time).append(" #").append(record.sequence());
        for (int f = 0; f < layout.fieldCount(); f++) {
            if (f == layout.keyIndex() || f == layout.eventTimeIndex()) {
                continue;
            }
            out.append(' ').append(layout.field(f).name()).append('=').append(record.value(f));
        }
    }

    /** Pattern {@code p}'s reusable empty match, starting at {@code start}. */
    private PatternState.Run emptyRun(final int p, final long start) {
        if (emptyRuns == null) {
            emptyRuns = new PatternState.Run[patterns.size()];
        }
        if (emptyRuns[p] == null) {
            emptyRuns[p] = new PatternState.Run(start, patterns.get(p).steps().size());
        }
        emptyRuns[p].start = start;
        return emptyRuns[p];
    }

    /** The run as the conditions see it: one reusable view per pattern (a Match is only valid during the call). */
    private Match view(final int p, final PatternState.Run run) {
        if (views == null) {
            views = new MatchView[patterns.size()];
        }
        if (views[p] == null) {
            views[p] = new MatchView(patterns.get(p));
        }
        views[p].run = run;
        return views[p];
    }

    /** A Match over the run it is bound to; one list view per step, so none is built per call. */
    private final class MatchView implements Match {
        private final Pattern pattern;
        private final StepEvents[] steps;
        PatternState.Run run;

        MatchView(final Pattern pattern) {
            this.pattern = pattern;
            this.steps = new StepEvents[pattern.steps().size()];
            for (int s = 0; s < steps.length; s++) {
                steps[s] = new StepEvents(s);
            }
        }

        @Override
        public List<SchemaRecord> events(final String step) {
            final List<Pattern.Step> all = pattern.steps();
            for (int s = 0; s < all.size(); s++) {
                if (all.get(s).name().equals(step)) {
                    return steps[s];
                }
            }
            throw new IllegalArgumentException(pattern + " has no step " + step);
        }

        @Override
        public long startTime() {
            return run.start;
        }

        /** The events of one step of the bound run. */
        private final class StepEvents extends AbstractList<SchemaRecord> {
            private final int step;

            StepEvents(final int step) {
                this.step = step;
            }

            @Override
            public SchemaRecord get(final int index) {
                if (index < 0 || index >= size()) {
                    throw new IndexOutOfBoundsException(index);
                }
                final Captured event = run.taken.get(run.stepStart[step] + index);
                return event.view(layout(event.schema));
            }

            @Override
            public int size() {
                if (step > run.step) {
                    return 0;
                }
                final int to = step == run.step ? run.taken.size() : run.stepStart[step + 1];
                return to - run.stepStart[step];
            }
        }
    }
}
