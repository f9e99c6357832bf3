package io.streamgrid.examples.federated;

import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.keyed.StreamGridJob;
import io.streamgrid.jobs.keyed.StringKeyContext;
import io.streamgrid.jobs.keyed.StringKeyedFunction;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.schema.SchemaRecord;

import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

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
 * <p>With secure aggregation ({@link FederatedModel#secure()}) devices first send their public
 * keys ({@code KEY}; the latest counts), cohorts are chosen among the devices with a key and
 * published with their keys, and the updates are masked: the round sums them as they come; at the
 * quorum or the deadline it publishes an {@link UnmaskRequest} to {@link FederatedModel#unmaskMap()}
 * and waits for every survivor's {@code UNMASK} correction — then the sum less the corrections is
 * the survivors' updates' exact sum, and the round closes as above; if a survivor's correction has
 * not come by the round's next deadline, the round is abandoned (closed by {@code ABANDONED}, the
 * model unchanged). It cannot check a masked update's clipping.
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
                .writes(model.globalMap(), model.roundsMap(), model.refusedMap(), model.unmaskMap())
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
        /** Secure aggregation: devices' public keys; the open round's masked sum; unmasking (its reason to close); corrections. */
        Map<Long, String> keys = new TreeMap<>();
        String[] cohortKeys;
        long[] maskedSum;
        String unmasking;
        long[] correctionSum;
        long[] corrected;
        int corrections;
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
                        deadline(state, context);
                    }
                }
                case "KEY" -> key(state, event.get(FederatedEvents.DEVICE), event, context);
                case "UNMASK" -> unmask(state, event.get(FederatedEvents.DEVICE), round, event, context);
                default -> take(state, event.get(FederatedEvents.DEVICE), round, event, context);
            }
            context.setState(state);
        }

        private void take(final Aggregation state, final long device, final long round, final SchemaRecord event,
                          final StringKeyContext<Aggregation> context) {
            String refusal = refusal(state, device, round);
            if (refusal == null) {
                refusal = model.secure() ? takeMasked(state, device, event) : takePlain(state, device, event);
            }
            if (refusal != null) {
                refuse(state, device, round, refusal, context);
                return;
            }
            if (state.updates == model.quorum()) {
                endCollecting(state, "QUORUM", context);
            }
        }

        private void refuse(final Aggregation state, final long device, final long round, final String reason,
                            final StringKeyContext<Aggregation> context) {
            state.refused++;
            state.refusedEver++;
            context.put(model.refusedMap(), device + "/" + round + "#" + state.refusedEver, reason);
        }

        /** The round's deadline: collecting ends; a secure round already waiting for corrections is abandoned. */
        private void deadline(final Aggregation state, final StringKeyContext<Aggregation> context) {
            if (state.unmasking != null) {
                close(state, "ABANDONED", null, context);
            } else {
                endCollecting(state, "DEADLINE", context);
            }
        }

        /** No more updates for the round: a plain round closes; a secure one with updates asks its survivors for corrections. */
        private void endCollecting(final Aggregation state, final String reason, final StringKeyContext<Aggregation> context) {
            if (!model.secure()) {
                final double[] mean = new double[model.dimensions()];
                for (int d = 0; d < mean.length && state.updates > 0; d++) {
                    mean[d] = state.weightedSum[d] / state.samples;
                }
                close(state, reason, state.updates > 0 ? mean : null, context);
                return;
            }
            if (state.updates == 0) {
                close(state, reason, null, context);
                return;
            }
            state.unmasking = reason;
            final long[] survivors = Arrays.copyOf(state.devices, state.updates);
            final long[] dropped = Arrays.stream(state.cohort).filter(d -> !contains(survivors, survivors.length, d)).toArray();
            final String[] droppedKeys = new String[dropped.length];
            for (int k = 0; k < dropped.length; k++) {
                droppedKeys[k] = state.cohortKeys[Arrays.binarySearch(state.cohort, dropped[k])];
            }
            state.correctionSum = new long[model.dimensions() + 1];
            state.corrected = new long[survivors.length];
            state.corrections = 0;
            context.put(model.unmaskMap(), state.round, new UnmaskRequest(state.round, survivors, dropped, droppedKeys));
        }

        /** A device's public key: the latest counts for the rounds opened after it. */
        private void key(final Aggregation state, final long device, final SchemaRecord event, final StringKeyContext<Aggregation> context) {
            final String key = event.get(FederatedEvents.DELTA);
            String refusal = null;
            if (!model.secure()) {
                refusal = "a key, but model " + model.name() + " is not aggregated securely";
            } else if (device < 0 || device >= model.devices()) {
                refusal = "device " + device + " is outside 0 to " + (model.devices() - 1);
            } else {
                try {
                    SecureAggregation.publicKey(key);
                } catch (final IllegalArgumentException e) {
                    refusal = "malformed key: " + e.getMessage();
                }
            }
            if (refusal != null) {
                refuse(state, device, 0, refusal, context);
            } else {
                state.keys.put(device, key);
            }
        }

        /** A survivor's correction; with the last one the round's exact sum is known and the round closes. */
        private void unmask(final Aggregation state, final long device, final long round, final SchemaRecord event,
                            final StringKeyContext<Aggregation> context) {
            String refusal = null;
            long[] correction = null;
            if (state.unmasking == null || round != state.round) {
                refusal = "a correction for round " + round + ", which is not being unmasked";
            } else if (!contains(state.devices, state.updates, device)) {
                refusal = "a correction of device " + device + ", whose update round " + round + " did not take";
            } else if (contains(state.corrected, state.corrections, device)) {
                refusal = "a second correction of device " + device;
            } else {
                try {
                    correction = Vectors.decodeLongs(event.get(FederatedEvents.DELTA), model.dimensions() + 1);
                } catch (final IllegalArgumentException e) {
                    refusal = "malformed correction: " + e.getMessage();
                }
            }
            if (refusal != null) {
                refuse(state, device, round, refusal, context);
                return;
            }
            SecureAggregation.add(state.correctionSum, correction, 1);
            state.corrected[state.corrections++] = device;
            if (state.corrections == state.updates) {
                final long[] sum = state.maskedSum.clone();
                SecureAggregation.add(sum, state.correctionSum, -1);
                close(state, state.unmasking, SecureAggregation.mean(sum), context);
            }
        }

        /** Whether the first {@code count} of {@code values} hold {@code value}. */
        private static boolean contains(final long[] values, final int count, final long value) {
            for (int i = 0; i < count; i++) {
                if (values[i] == value) {
                    return true;
                }
            }
            return false;
        }

        /** Why an update of {@code device} for {@code round} is refused whatever it holds, or null. */
        private String refusal(final Aggregation state, final long device, final long round) {
            if (state.round == 0) {
                return "the federation has not started";
            }
            if (state.unmasking != null && round == state.round) {
                return "late: round " + round + " is being unmasked";
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
            if (contains(state.devices, state.updates, device)) {
                return "a second update of device " + device + " for round " + round;
            }
            return null;
        }

        /** Adds a masked update to the round's sum, or says why not: its samples and clipping are hidden in it. */
        private String takeMasked(final Aggregation state, final long device, final SchemaRecord event) {
            final long[] masked;
            try {
                masked = Vectors.decodeLongs(event.get(FederatedEvents.DELTA), model.dimensions() + 1);
            } catch (final IllegalArgumentException e) {
                return "malformed masked update: " + e.getMessage();
            }
            SecureAggregation.add(state.maskedSum, masked, 1);
            state.devices[state.updates++] = device;
            return null;
        }

        /** Adds a plain update, weighted by its samples, to the round's sum, or says why not. */
        private String takePlain(final Aggregation state, final long device, final SchemaRecord event) {
            final long samples = event.get(FederatedEvents.SAMPLES);
            if (samples < 1) {
                return "an update of " + samples + " samples";
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
            for (int d = 0; d < delta.length; d++) {
                state.weightedSum[d] += samples * delta[d];
            }
            state.samples += samples;
            state.devices[state.updates] = device;
            state.deviceSamples[state.updates++] = samples;
            return null;
        }

        /** Closes the open round, adding {@code mean} (null: none — the model stays) and the noise, and opens the next. */
        private void close(final Aggregation state, final String closedBy, final double[] mean, final StringKeyContext<Aggregation> context) {
            double noiseStd = 0;
            if (mean != null) {
                noiseStd = model.noiseMultiplier() * model.clipNorm() / state.updates;
                final SplittableRandom noise = new SplittableRandom(noiseSeed(model, state.round));
                for (int d = 0; d < state.weights.length; d++) {
                    state.weights[d] += mean[d] + (noiseStd > 0 ? noiseStd * DeviceData.gaussian(noise) : 0);
                }
            }
            final int taken = mean == null ? 0 : state.updates;
            context.put(model.roundsMap(), state.round, new RoundRecord(state.round, Arrays.copyOf(state.devices, taken),
                    Arrays.copyOf(state.deviceSamples, taken), closedBy, noiseStd, state.refused));
            open(state, state.round + 1, context);
        }

        private void open(final Aggregation state, final long round, final StringKeyContext<Aggregation> context) {
            state.round = round;
            if (model.secure()) {
                state.cohort = cohort(model, round, state.keys.keySet().stream().mapToLong(Long::longValue).sorted().toArray());
                state.cohortKeys = Arrays.stream(state.cohort).mapToObj(state.keys::get).toArray(String[]::new);
            } else {
                state.cohort = cohort(model, round);
                state.cohortKeys = new String[0];
            }
            state.maskedSum = new long[model.dimensions() + 1];
            state.unmasking = null;
            state.weightedSum = new double[model.dimensions()];
            state.samples = 0;
            state.devices = new long[model.perRound()];
            state.deviceSamples = new long[model.perRound()];
            state.updates = 0;
            state.refused = 0;
            context.put(model.globalMap(), model.name(), new GlobalModel(model.name(), round, state.weights.clone(), state.cohort.clone(),
                    state.cohortKeys.clone()));
        }
    }

    /** The devices chosen for {@code round} of a plain model: the first {@code perRound} of a shuffle seeded by the model and the round, ascending. */
    public static long[] cohort(final FederatedModel model, final long round) {
        final long[] all = new long[model.devices()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return cohort(model, round, all);
    }

    /** The devices chosen for {@code round} among {@code eligible} (ascending): {@code perRound} of them, or all when fewer. */
    public static long[] cohort(final FederatedModel model, final long round, final long[] eligible) {
        final long[] all = eligible.clone();
        final int chosen = Math.min(model.perRound(), all.length);
        final SplittableRandom random = new SplittableRandom(model.seed() * 31 + round);
        for (int i = 0; i < chosen; i++) {
            final int j = i + random.nextInt(all.length - i);
            final long swap = all[i];
            all[i] = all[j];
            all[j] = swap;
        }
        final long[] cohort = Arrays.copyOf(all, chosen);
        Arrays.sort(cohort);
        return cohort;
    }

    /** The seed of round {@code round}'s noise. */
    public static long noiseSeed(final FederatedModel model, final long round) {
        return model.seed() ^ (round * 0xD1B5_4A32_D192_ED03L);
    }
}
