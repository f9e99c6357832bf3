package io.streamgrid.examples.federated;

import java.io.Serializable;
import java.util.Objects;

/**
 * A model trained by federated averaging (FedAvg, McMahan et al. 2017): a logistic regression over
 * {@code dimensions} real features (the first, the bias, always 1) learnt by {@code devices}
 * devices, ids 0 to {@code devices − 1}, that keep their examples.
 *
 * <p>Each round the aggregator chooses {@code perRound} of the devices (a seeded shuffle of all,
 * by round: the same choice on every replay); each chosen one trains {@code localEpochs} passes of
 * SGD at {@code localRate} over its own examples from the round's global model and submits the
 * difference (its update), clipped to Euclidean norm {@code clipNorm}, with its example count. The
 * round closes when {@code quorum} updates came, or at the round's deadline with the updates that
 * came by then; the new global model is the old plus the example-weighted mean of the updates, plus
 * Gaussian noise of standard deviation {@code noiseMultiplier × clipNorm / updates} per coordinate
 * when {@code noiseMultiplier > 0} (differential privacy's Gaussian mechanism on the mean; the noise
 * is drawn from a generator seeded by {@code seed} and the round, so a replay adds the same).
 *
 * <p>With {@code secure}, updates are masked ({@link SecureAggregation}): the aggregator sees their
 * sum only, after the round's survivors sent their corrections; it cannot check a device's clipping
 * then (devices are trusted to clip), and a round whose survivors do not all correct by the next
 * deadline is abandoned.
 */
public record FederatedModel(String name, int dimensions, int devices, int perRound, int quorum, int localEpochs, double localRate,
                             double clipNorm, double noiseMultiplier, long seed, boolean secure) implements Serializable {
    /** The most dimensions an update carries (its text field's width follows from it). */
    public static final int MAX_DIMENSIONS = 64;

    public FederatedModel {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty() || name.length() > FederatedEvents.MODEL_NAME_LENGTH || dimensions < 2 || dimensions > MAX_DIMENSIONS
                || devices < 1 || perRound < 1 || perRound > devices || quorum < 1 || quorum > perRound || localEpochs < 1
                || !(localRate > 0) || !(clipNorm > 0) || !(noiseMultiplier >= 0)) {
            throw new IllegalArgumentException("a federated model needs a name of 1 to " + FederatedEvents.MODEL_NAME_LENGTH
                    + " characters, 2 to " + MAX_DIMENSIONS + " dimensions, at least 1 device, 1 to devices chosen per round, a quorum "
                    + "of 1 to those, at least 1 local epoch, a positive local rate and clip norm and a noise multiplier of at least 0; "
                    + "were " + name + ", " + dimensions + ", " + devices + ", " + perRound + ", " + quorum + ", " + localEpochs + ", "
                    + localRate + ", " + clipNorm + ", " + noiseMultiplier);
        }
    }

    /** The map of the global model (key: the model's name; value: {@link GlobalModel}), read by the devices. */
    public String globalMap() {
        return "state.fl." + name;
    }

    /** The map of the closed rounds (key: the round, a Long; value: {@link RoundRecord}). */
    public String roundsMap() {
        return "state.fl-rounds." + name;
    }

    /** The map of the updates the aggregator refused (key: "device/round#n", n numbering the refusals from 1; value: the reason). */
    public String refusedMap() {
        return "state.fl-refused." + name;
    }

    /** The map of secure rounds' unmasking requests (key: the round, a Long; value: {@link UnmaskRequest}). */
    public String unmaskMap() {
        return "state.fl-unmask." + name;
    }

    /** A plain (not secure) model. */
    public FederatedModel(final String name, final int dimensions, final int devices, final int perRound, final int quorum,
                          final int localEpochs, final double localRate, final double clipNorm, final double noiseMultiplier,
                          final long seed) {
        this(name, dimensions, devices, perRound, quorum, localEpochs, localRate, clipNorm, noiseMultiplier, seed, false);
    }

    /** The same model with secure aggregation. */
    public FederatedModel securely() {
        return new FederatedModel(name, dimensions, devices, perRound, quorum, localEpochs, localRate, clipNorm, noiseMultiplier, seed,
                true);
    }

    /** The publisher id of device {@code device}'s update for round r (sequence 2r) and its correction (2r + 1); its keys go under this id + "-key". */
    public String devicePublisher(final long device) {
        return "fl-" + name + "-device-" + device;
    }

    /** The publisher id of the coordinator's start and deadlines (its sequence: the round). */
    public String coordinatorPublisher() {
        return "fl-" + name + "-coordinator";
    }
}
