package io.streamgrid.jobs.pattern;

import io.streamgrid.jobs.schema.EventSchema;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A sequence of steps to find in each key's events, in event time, within a time bound — such as
 * "temperature rising over 3 consecutive readings, then a pressure reading at least 0.5 bar below
 * the next one, all within 60 s". Immutable; travels inside the job.
 *
 * <p>How events are matched (per key, per pattern):
 * <ul>
 * <li>Events are considered in event-time order, each once the watermark has passed it; equal
 *     times: schemas in the job's order, then log order. A reading out of order but within the
 *     allowed disorder is matched as if it had come on time.</li>
 * <li>Every event that can take the first step starts a new partial match; matches overlap.</li>
 * <li>Entering a step is relaxed: events that cannot take it (other schemas, or its condition
 *     false) are skipped. The repetitions of a step ({@link Builder#times}) are strict: once a step
 *     has begun, the next event <em>of its schema</em> must take it too, or the partial match ends.
 *     Events of other schemas never break a repetition.</li>
 * <li>A partial match ends when an event comes more than {@code within} after its first event.</li>
 * <li>When a match completes, it is reported and every other partial match of the pattern on that
 *     key is dropped (one report per occurrence: the earliest-starting of the matches that complete
 *     first); the completing event starts nothing.</li>
 * </ul>
 */
public final class Pattern implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[a-z][a-z0-9-]{0,62}");

    private final String name;
    private final List<Step> steps;
    private final long withinMs;

    /**
     * One step: the schema whose events may take it, how many consecutive such events it takes, and
     * the condition each must meet.
     */
    public record Step(String name, String schema, int times, Condition condition) implements Serializable {
        public Step {
            Objects.requireNonNull(name, "step name");
            Objects.requireNonNull(schema, "schema of step " + name);
            Objects.requireNonNull(condition, "condition of step " + name);
            if (times < 1) {
                throw new IllegalArgumentException("step " + name + " must take at least 1 event, was " + times);
            }
        }
    }

    private Pattern(final String name, final List<Step> steps, final long withinMs) {
        this.name = name;
        this.steps = List.copyOf(steps);
        this.withinMs = withinMs;
    }

    /** Starts a pattern; names are lower-case letters, digits and -. */
    public static Builder named(final String name) {
        return new Builder(name);
    }

    public String name() {
        return name;
    }

    public List<Step> steps() {
        return steps;
    }

    /** The longest a match may last: from its first event to its last, in event-time ms. */
    public long withinMs() {
        return withinMs;
    }

    @Override
    public String toString() {
        return "pattern " + name + " " + steps.stream().map(s -> s.name() + "(" + s.schema() + (s.times() > 1 ? " x" + s.times() : "") + ")")
                .toList() + " within " + withinMs + " ms";
    }

    /** Steps in order; {@link #within} and at least one step are required. */
    public static final class Builder {
        private final String name;
        private final List<Step> steps = new ArrayList<>();
        private String stepName;
        private String stepSchema;
        private int stepTimes;
        private Condition stepCondition;
        private long withinMs = -1;

        private Builder(final String name) {
            if (name == null || !NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("pattern name '" + name
                        + "' must be lower-case letters, digits and -, starting with a letter, at most 63 characters");
            }
            this.name = name;
        }

        /** The next step, taken by events of {@code schema}; once, with {@link Condition#ANY}, unless told otherwise. */
        public Builder step(final String stepName, final EventSchema schema) {
            Objects.requireNonNull(schema, "schema of step " + stepName);
            closeStep();
            if (stepName == null || stepName.isBlank()) {
                throw new IllegalArgumentException("pattern " + name + ": a step needs a name");
            }
            if (steps.stream().anyMatch(s -> s.name().equals(stepName))) {
                throw new IllegalArgumentException("pattern " + name + " has two steps named " + stepName);
            }
            this.stepName = stepName;
            this.stepSchema = schema.name();
            this.stepTimes = 1;
            this.stepCondition = Condition.ANY;
            return this;
        }

        /** The current step takes {@code count} consecutive events of its schema. */
        public Builder times(final int count) {
            requireStep("times");
            stepTimes = count;
            return this;
        }

        /** The condition every event of the current step must meet. */
        public Builder where(final Condition condition) {
            requireStep("where");
            stepCondition = Objects.requireNonNull(condition, "condition");
            return this;
        }

        /** The longest a match may last, first event to last, in event-time ms (at least 1). */
        public Builder within(final long millis) {
            if (millis < 1) {
                throw new IllegalArgumentException("pattern " + name + ": within must be at least 1 ms, was " + millis);
            }
            withinMs = millis;
            return this;
        }

        public Pattern build() {
            closeStep();
            if (steps.isEmpty()) {
                throw new IllegalArgumentException("pattern " + name + " has no steps");
            }
            if (withinMs < 0) {
                throw new IllegalArgumentException("pattern " + name + " needs within(ms): partial matches must end some time");
            }
            return new Pattern(name, steps, withinMs);
        }

        private void requireStep(final String what) {
            if (stepName == null) {
                throw new IllegalStateException("pattern " + name + ": " + what + "(...) belongs to a step; call step(...) first");
            }
        }

        private void closeStep() {
            if (stepName != null) {
                steps.add(new Step(stepName, stepSchema, stepTimes, stepCondition));
                stepName = null;
            }
        }
    }
}
