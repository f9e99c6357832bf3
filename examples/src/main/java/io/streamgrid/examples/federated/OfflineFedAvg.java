package io.streamgrid.examples.federated;

import java.util.Map;
import java.util.SplittableRandom;

/**
 * FedAvg in one thread over the rounds a federation recorded ({@link RoundRecord}): for each round,
 * each recorded device's local training from this replay's global model, their example-weighted
 * mean in the recorded order, and the round's seeded noise. Which devices made a round depends on
 * timing; given that, the model does not — so a federation that took every update once, trained
 * from the model it published, ends with this model bit for bit (its tests and demo check it).
 */
public final class OfflineFedAvg {
    private OfflineFedAvg() {
    }

    /**
     * The global model after rounds 1 to {@code rounds} of {@code recorded}.
     *
     * @throws IllegalStateException when a round is missing, or a device's example count differs from the one recorded
     */
    public static double[] replay(final FederatedModel model, final DeviceData data, final Map<Long, RoundRecord> recorded,
                                  final long rounds) {
        return replay(model, data, recorded, rounds, (round, weights) -> { });
    }

    /** {@link #replay(FederatedModel, DeviceData, Map, long)}, calling {@code afterEach} with every round's model. */
    public static double[] replay(final FederatedModel model, final DeviceData data, final Map<Long, RoundRecord> recorded,
                                  final long rounds, final RoundModels afterEach) {
        final double[] global = new double[model.dimensions()];
        for (long r = 1; r <= rounds; r++) {
            final RoundRecord round = recorded.get(r);
            if (round == null) {
                throw new IllegalStateException("round " + r + " was not recorded");
            }
            if (round.devices().length == 0) {
                afterEach.accept(r, global.clone());
                continue;
            }
            final double[] sum = new double[model.dimensions()];
            final long[] secureSum = new long[model.dimensions() + 1];
            long samples = 0;
            for (int i = 0; i < round.devices().length; i++) {
                final long device = round.devices()[i];
                final LocalTraining.Update update = LocalTraining.train(model, global, data.of(device), device, r);
                if (model.secure()) {
                    SecureAggregation.add(secureSum, SecureAggregation.encode(update.delta(), update.samples()), 1);
                    continue; // a secure round records no example counts: they are hidden in the updates
                }
                if (update.samples() != round.samples()[i]) {
                    throw new IllegalStateException("device " + device + " has " + update.samples() + " examples; round " + r
                            + " recorded " + round.samples()[i]);
                }
                for (int d = 0; d < sum.length; d++) {
                    sum[d] += update.samples() * update.delta()[d];
                }
                samples += update.samples();
            }
            final double[] mean = model.secure() ? SecureAggregation.mean(secureSum) : sum;
            if (!model.secure()) {
                for (int d = 0; d < mean.length; d++) {
                    mean[d] = sum[d] / samples; // in place: the aggregator's mean, the same division
                }
            }
            final double noiseStd = model.noiseMultiplier() * model.clipNorm() / round.devices().length;
            final SplittableRandom noise = new SplittableRandom(AggregatorJob.noiseSeed(model, r));
            for (int d = 0; d < global.length; d++) {
                global[d] += mean[d] + (noiseStd > 0 ? noiseStd * DeviceData.gaussian(noise) : 0);
            }
            afterEach.accept(r, global.clone());
        }
        return global;
    }

    /** Takes the model after each round. */
    public interface RoundModels {
        void accept(long round, double[] weights);
    }
}
