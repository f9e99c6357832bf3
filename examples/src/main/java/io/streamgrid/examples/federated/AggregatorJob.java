package io.streamgrid.examples.federated;

import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.keyed.StreamGridJob;
import io.streamgrid.jobs.keyed.StringKeyContext;
import io.streamgrid.jobs.keyed.StringKeyedFunction;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.schema.SchemaRecord;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The federation's aggregator: a keyed job over {@link FederatedEvents#UPDATE}, one key per model,
 * so a model's rounds are formed on the member that owns its partition, one event at a time, in the
 * log's order — the same on every replay. It opens round 1 on the coordinator's {@code START},
 * publishing the global model (zeros) and the round's cohort to {@link FederatedModel#globalMap()};
 * takes each chosen device's first update for the open round (its example-weighted delta summed);
 * closes the round at {@code quorum} updates or at the round's {@code DEADLINE} with the updates in
 * by then — the new global model the old plus their weighted mean (plus the model's Gaussian noise)
 * — records it in {@link FederatedModel#roundsMap()} and opens the next.
 *
 * <p>Refused, each with its reason in {@link FederatedModel#refusedMap()}: an update for a round
 * that is not open (a late one is never down-weighted into a later round: it was computed from a
 * model that is gone), from a device not chosen, a device's second for the round, one with a norm
 * above the clip norm (the noise is sized for clipped updates) or of the wrong size. A device that
 * drops mid-round does not stall it: the quorum is below the cohort, and the deadline closes a round
 * short of it.
 *
 * <p>Exactly once: the state (the global model, the open round's sums) is in the job's snapshots,
 * and a restored aggregator reads the log from its snapshot on, in the same order, so each round
 * closes once with the same updates, and the same noise (seeded by round).
 */
public final class AggregatorJob implements StreamGridJob {
    private final FederatedModel model;

    public AggregatorJob(final FederatedModel model) {
        this.model = model;
    }

    public static String name(final FederatedModel model) {
        return "fl-aggregator-" + model.name();
    }

    @Override
    public KeyedJob<?> job() {
        return KeyedJob.<Aggregation>builder(name(model), FederatedEvents.UPDATE)
                .stringKeyed(new Aggregate(model))
                .state(StateCodec.derived(Aggregation.class))
                // Rounds, not event time, decide what is late: no event is late by its time.
                .time(TimePolicy.of(0, Long.MAX_VALUE))
                .writes(model.globalMap(), model.roundsMap(), model.refusedMap())
                .build();
    }

    /** A model's federation: the global model, the open round (0: not started) and what it took so far. */
    static final class Aggregation {
        long round;
        double[] weights;
        long[] cohort;
        /** The open round's updates: the sum of samples × delta, the samples, and per update its device and samples. */
        double[] weightedSum;
        long samples;
        long[] devices;
        long[] deviceSamples;
        int updates;
        long refused;
        /** Refusals since the start: numbers them. */
        long refusedEver;
    }

    static final class Aggregate implements StringKeyedFunction<Aggregation> {
        private final FederatedModel model;

        Aggregate(final FederatedModel model) {
            this.model = model;
        }

        @Override
        public void onEvent(final SchemaRecord event, final StringKeyContext<Aggregation> context) {
            if (!context.stringKey().equals(model.name())) {
                throw new IllegalArgumentException("an event of model " + context.stringKey() + " reached the aggregator of model "
                        + model.name() + ": one aggregator job per model");
            }
            Aggregation state = context.state();
            if (state == null) {
                state = new Aggregation();
            }
            final long round = event.get(FederatedEvents.ROUND);
            switch (event.get(FederatedEvents.KIND)) {
                case "START" -> {
                    if (state.round == 0) {
                        state.weights = new double[model.dimensions()];
                        open(state, 1, context);
                    }
                }
                case "DEADLINE" -> {
                    if (state.round > 0 && round == state.round) {
                        close(state, "DEADLINE", context);
                    }
                }
                default -> take(state, event.get(FederatedEvents.DEVICE), round, event, context);
            }
            context.setState(state);
        }

        private void take(final Aggregation state, final long device, final long round, final SchemaRecord event,
                          final StringKeyContext<Aggregation> context) {
            final String refusal = refusal(state, device, round, event);
            if (refusal != null) {
                state.refused++;
                state.refusedEver++;
                context.put(model.refusedMap(), device + "/" + round + "#" + state.refusedEver, refusal);
                return;
            }
            final double[] delta = Vectors.decode(event.get(FederatedEvents.DELTA), model.dimensions());
            final long samples = event.get(FederatedEvents.SAMPLES);
            for (int d = 0; d < delta.length; d++) {
                state.weightedSum[d] += samples * delta[d];
            }
            state.samples += samples;
            state.devices[state.updates] = device;
            state.deviceSamples[state.updates++] = samples;
            if (state.updates == model.quorum()) {
                close(state, "QUORUM", context);
            }
        }

        /** Why the update is refused, or null when it is taken. */
        private String refusal(final Aggregation state, final long device, final long round, final SchemaRecord event) {
            if (state.round == 0) {
                return "the federation has not started";
            }
            if (round < state.round) {
                return "late: round " + round + " closed (round " + state.round + " is open)";
            }
            if (round > state.round) {
                return "round " + round + " is not open (round " + state.round + " is)";
            }
            if (Arrays.binarySearch(state.cohort, device) < 0) {
                return "device " + device + " was not chosen for round " + round;
            }
            for (int i = 0; i < state.updates; i++) {
                if (state.devices[i] == device) {
                    return "a second update of device " + device + " for round " + round;
                }
            }
            if (event.get(FederatedEvents.SAMPLES) < 1) {
                return "an update of " + event.get(FederatedEvents.SAMPLES) + " samples";
            }
            final double[] delta;
            try {
                delta = Vectors.decode(event.get(FederatedEvents.DELTA), model.dimensions());
            } catch (final IllegalArgumentException e) {
                return "malformed delta: " + e.getMessage();
            }
            final double norm = Vectors.norm(delta);
            if (!(norm <= model.clipNorm() * (1 + 1e-9))) {
                return "a delta of norm " + norm + ", above the clip norm " + model.clipNorm();
            }
            return null;
        }

        private void close(final Aggregation state, final String closedBy, final StringKeyContext<Aggregation> context) {
            double noiseStd = 0;
            if (state.updates > 0) {
                noiseStd = model.noiseMultiplier() * model.clipNorm() / state.updates;
                final SplittableRandom noise = new SplittableRandom(noiseSeed(model, state.round));
                for (int d = 0; d < state.weights.length; d++) {
                    state.weights[d] += state.weightedSum[d] / state.samples + (noiseStd > 0 ? noiseStd * DeviceData.gaussian(noise) : 0);
                }
            }
            context.put(model.roundsMap(), state.round, new RoundRecord(state.round, Arrays.copyOf(state.devices, state.updates),
                    Arrays.copyOf(state.deviceSamples, state.updates), closedBy, noiseStd, state.refused));
            open(state, state.round + 1, context);
        }

        private void open(final Aggregation state, final long round, final StringKeyContext<Aggregation> context) {
            state.round = round;
            state.cohort = cohort(model, round);
            state.weightedSum = new double[model.dimensions()];
            state.samples = 0;
            state.devices = new long[model.perRound()];
            state.deviceSamples = new long[model.perRound()];
            state.updates = 0;
            state.refused = 0;
            context.put(model.globalMap(), model.name(), new GlobalModel(model.name(), round, state.weights.clone(), state.cohort.clone()));
        }
    }

    /** The devices chosen for {@code round}: the first {@code perRound} of a shuffle seeded by the model and the round, ascending. */
    public static long[] cohort(final FederatedModel model, final long round) {
        final long[] all = new long[model.devices()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        final SplittableRandom random = new SplittableRandom(model.seed() * 31 + round);
        for (int i = 0; i < model.perRound(); i++) {
            final int j = i + random.nextInt(all.length - i);
            final long swap = all[i];
            all[i] = all[j];
            all[j] = swap;
        }
        final long[] chosen = Arrays.copyOf(all, model.perRound());
        Arrays.sort(chosen);
        return chosen;
    }

    /** The seed of round {@code round}'s noise. */
    public static long noiseSeed(final FederatedModel model, final long round) {
        return model.seed() ^ (round * 0xD1B5_4A32_D192_ED03L);
    }
}
