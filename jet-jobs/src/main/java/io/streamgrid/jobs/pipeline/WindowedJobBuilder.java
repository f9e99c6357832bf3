package io.streamgrid.jobs.pipeline;

import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.FieldType;
import io.streamgrid.jobs.window.WindowAggregation;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * Builds a {@link WindowedJob} in a few lines ({@link WindowedJob#builder}):
 * <pre>{@code
 * WindowedJob<Counter> job = WindowedJob.builder("clicks-per-minute", CLICKS)
 *         .sliding(60_000, 1_000)
 *         .time(TimePolicy.of(2_000, 10_000))
 *         .aggregate(Aggregations.count())
 *         .results(r -> new ClickCount(r.key(), r.start(), r.value().value()));
 * }</pre>
 * Results are written to {@code state.<name>} under {@link WindowResult#stateKey()}; a session merged
 * into another is removed from it. A job that needs more than one write per window (alerts, state
 * of its own) gives a {@link ResultHandler} instead ({@link Aggregated#handledBy}). Every function
 * given here travels to the members inside the job, hence the serializable interfaces.
 *
 * <p>A mistake fails at once with an {@link IllegalArgumentException} naming it: a blank name, a
 * schema whose key is neither a long nor a string, no window chosen before the aggregation,
 * an aggregation that is not serializable.
 */
public final class WindowedJobBuilder {
    private final String name;
    private final EventSchema schema;
    private WindowDefinition window;
    private TimePolicy time = TimePolicy.of(0, 0);
    private List<EventSchema> emits = List.of();

    WindowedJobBuilder(final String name, final EventSchema schema) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a windowed job needs a name");
        }
        Objects.requireNonNull(schema, "schema");
        final var key = schema.fields().get(schema.layout().keyIndex());
        if (key.type() != FieldType.LONG && key.type() != FieldType.STRING) {
            throw new IllegalArgumentException("windowed job " + name + ": schema " + schema.name() + " is keyed by "
                    + key.type().yamlName() + " field '" + key.name() + "'; windows take long or string keys");
        }
        this.name = name;
        this.schema = schema;
    }

    /** Windows of {@code sizeMs}, one after the other. */
    public WindowedJobBuilder tumbling(final long sizeMs) {
        return window(WindowDefinition.tumbling(sizeMs));
    }

    /** Windows of {@code sizeMs} starting every {@code slideMs}. */
    public WindowedJobBuilder sliding(final long sizeMs, final long slideMs) {
        return window(WindowDefinition.sliding(sizeMs, slideMs));
    }

    /** Per key, a session closed by {@code gapMs} without events. */
    public WindowedJobBuilder session(final long gapMs) {
        return window(WindowDefinition.session(gapMs));
    }

    public WindowedJobBuilder window(final WindowDefinition definition) {
        this.window = Objects.requireNonNull(definition, "definition");
        return this;
    }

    /** Disorder, lateness, how far ahead an event may be, idle partitions; default: in order, no lateness. */
    public WindowedJobBuilder time(final TimePolicy policy) {
        this.time = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /** The window and time rules together, as the member's YAML configures a built-in job. */
    public WindowedJobBuilder policy(final WindowPolicy policy) {
        window(policy.window());
        return time(policy.time());
    }

    /**
     * Schemas whose logs the job's {@link ResultHandler} emits events into ({@link StateWriter#newEvent},
     * {@link StateWriter#emit}) — a window's result feeding another job. Each log is created, with the
     * read log's partitions, when absent; one job emits into a log; its readers follow the job's
     * watermark and end when it does.
     */
    public WindowedJobBuilder emits(final EventSchema... schemas) {
        final List<EventSchema> declared = List.of(schemas);
        JobDefinition.checkEmits(name, List.of(schema), declared);
        this.emits = declared;
        return this;
    }

    /** How a window's value is built: one of {@link io.streamgrid.jobs.window.Aggregations} or your own. */
    public <A> Aggregated<A> aggregate(final WindowAggregation<A> aggregation) {
        Objects.requireNonNull(aggregation, "aggregation");
        if (window == null) {
            throw new IllegalArgumentException("windowed job " + name + ": choose its windows (tumbling, sliding or session) "
                    + "before its aggregation");
        }
        if (!(aggregation instanceof Serializable)) {
            throw new IllegalArgumentException("windowed job " + name + ": its aggregation " + aggregation.getClass().getName()
                    + " must be Serializable (it travels to the members inside the job)");
        }
        return new Aggregated<>(name, schema, new WindowPolicy(window, time), aggregation, emits);
    }

    /** Turns a window's result into the value stored for it. */
    @FunctionalInterface
    public interface ResultFunction<A, V> extends Serializable {
        V apply(WindowResult<A> result);
    }

    /** Makes a job's handler, one per log partition. */
    @FunctionalInterface
    public interface HandlerFactory<A> extends Serializable {
        ResultHandler<A> newHandler(WindowedJob<A> job);
    }

    /** The last step: where results go. */
    public static final class Aggregated<A> {
        private final String name;
        private final EventSchema schema;
        private final WindowPolicy policy;
        private final WindowAggregation<A> aggregation;
        private final List<EventSchema> emits;

        private Aggregated(final String name, final EventSchema schema, final WindowPolicy policy, final WindowAggregation<A> aggregation,
                           final List<EventSchema> emits) {
            this.name = name;
            this.schema = schema;
            this.policy = policy;
            this.aggregation = aggregation;
            this.emits = emits;
        }

        /** Each window's result, as {@code toValue} makes it, into {@code state.<name>} under {@link WindowResult#stateKey()}. */
        public <V> WindowedJob<A> results(final ResultFunction<A, V> toValue) {
            Objects.requireNonNull(toValue, "toValue");
            return handledBy(job -> new StateMapHandler<>(job.stateMap(), toValue));
        }

        /** Each window's result to a handler of the job's own, one per log partition. */
        public WindowedJob<A> handledBy(final HandlerFactory<A> handlers) {
            return new BuiltWindowedJob<>(name, schema, policy, aggregation, Objects.requireNonNull(handlers, "handlers"), emits);
        }
    }

    /** Writes results to the job's state map; a retracted session is removed. */
    private record StateMapHandler<A, V>(String map, ResultFunction<A, V> toValue) implements ResultHandler<A> {
        @Override
        public void onWindow(final long key, final long start, final long end, final A value, final int updateSequence,
                             final boolean afterWatermark, final StateWriter out) {
            final WindowResult<A> result = new WindowResult<>(key, start, end, value, updateSequence, afterWatermark);
            out.put(map, result.stateKey(), toValue.apply(result));
        }

        @Override
        public void onRetract(final long key, final long start, final StateWriter out) {
            out.remove(map, WindowResult.stateKey(key, start));
        }

        @Override
        public void onWindow(final String key, final long start, final long end, final A value, final int updateSequence,
                             final boolean afterWatermark, final StateWriter out) {
            final WindowResult<A> result = new WindowResult<>(0, start, end, value, updateSequence, afterWatermark, key);
            out.put(map, result.stateKey(), toValue.apply(result));
        }

        @Override
        public void onRetract(final String key, final long start, final StateWriter out) {
            out.remove(map, WindowResult.stateKey(key, start));
        }
    }

    /** What the builder made. */
    private record BuiltWindowedJob<A>(String name, EventSchema schema, WindowPolicy policy, WindowAggregation<A> aggregation,
                                       HandlerFactory<A> handlers, List<EventSchema> emits) implements WindowedJob<A> {
        private static final long serialVersionUID = 1L;

        @Override
        public ResultHandler<A> newResultHandler() {
            return handlers.newHandler(this);
        }
    }
}
