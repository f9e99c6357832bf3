package io.streamgrid.examples.paramserver;

import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A labelled stream for the parameter server, deterministic by seed: a hidden weight per feature
 * (normal, scaled so that a few active features decide a label), each example {@code active}
 * distinct features drawn uniformly and a label drawn from the hidden model's probability. The
 * i-th example goes to worker {@code i % workers}, at time {@code startMs + i}.
 */
public final class SyntheticExamples {
    private final double[] hidden;
    private final SplittableRandom random;
    private final int active;
    private final int workers;
    private final long startMs;
    private long next;

    public SyntheticExamples(final long seed, final int features, final int active, final int workers, final long startMs) {
        if (active < 1 || active >= features || workers < 1) {
            throw new IllegalArgumentException("need 1 to features − 1 active features and at least 1 worker; were " + active + ", "
                    + workers);
        }
        final SplittableRandom weights = new SplittableRandom(seed);
        hidden = new double[features];
        final double scale = 2.0 / Math.sqrt(active);
        for (int f = 0; f < features; f++) {
            hidden[f] = nextGaussian(weights) * scale;
        }
        hidden[0] = 0.3; // a bias: labels not balanced
        this.random = new SplittableRandom(seed ^ 0x9E37_79B9_7F4A_7C15L);
        this.active = active;
        this.workers = workers;
        this.startMs = startMs;
    }

    /** The next {@code count} examples. */
    public List<LabelledExample> next(final int count) {
        final List<LabelledExample> examples = new ArrayList<>(count);
        for (int i = 0; i < count; i++, next++) {
            final int[] features = random.ints(1, hidden.length).distinct().limit(active).sorted().toArray();
            double margin = hidden[0];
            for (final int f : features) {
                margin += hidden[f];
            }
            final boolean label = random.nextDouble() < 1.0 / (1.0 + Math.exp(-margin));
            examples.add(new LabelledExample(next, next % workers, startMs + next, features, label));
        }
        return examples;
    }

    /** Appends {@code examples} to the example log. */
    public static void append(final SchemaLog log, final List<LabelledExample> examples) {
        final SchemaRecord record = new SchemaRecord(TrainingEvents.EXAMPLE.layout());
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[record.layout().length()]);
        for (final LabelledExample example : examples) {
            log.append(record.wrapForWrite(buffer, 0).sequence(example.number()).setLong(0, example.worker())
                    .setTimestamp(1, example.time()).set(TrainingEvents.FEATURES, TrainingEvents.featuresText(example.features()))
                    .set(TrainingEvents.LABEL, example.label()));
        }
    }

    private static double nextGaussian(final SplittableRandom random) {
        // Box–Muller: SplittableRandom has no Gaussian of its own in Java 17.
        final double u = 1.0 - random.nextDouble();
        final double v = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }
}
