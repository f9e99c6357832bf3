package io.streamgrid.examples.federated;

import java.util.Locale;

/** A {@link FederatedModel} as one command-line argument, for the processes that run devices. */
final class ModelArgument {
    static final String FORMAT = "name,dimensions,devices,per-round,quorum,local-epochs,local-rate,clip-norm,noise-multiplier,seed,secure";

    private ModelArgument() {
    }

    static String format(final FederatedModel model) {
        return String.join(",", model.name(), Integer.toString(model.dimensions()), Integer.toString(model.devices()),
                Integer.toString(model.perRound()), Integer.toString(model.quorum()), Integer.toString(model.localEpochs()),
                Double.toString(model.localRate()), Double.toString(model.clipNorm()), Double.toString(model.noiseMultiplier()),
                Long.toString(model.seed()), Boolean.toString(model.secure()));
    }

    /** @throws IllegalArgumentException naming {@link #FORMAT} when {@code text} is not one */
    static FederatedModel parse(final String text) {
        final String[] parts = text.split(",");
        if (parts.length != 11 || !parts[10].matches("true|false")) {
            throw new IllegalArgumentException("a model is " + FORMAT + "; was " + text);
        }
        try {
            return new FederatedModel(parts[0], Integer.parseInt(parts[1]), Integer.parseInt(parts[2]), Integer.parseInt(parts[3]),
                    Integer.parseInt(parts[4]), Integer.parseInt(parts[5]), Double.parseDouble(parts[6]), Double.parseDouble(parts[7]),
                    Double.parseDouble(parts[8]), Long.parseLong(parts[9]), Boolean.parseBoolean(parts[10]));
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("a model is " + FORMAT + "; was " + text + " (" + e.getMessage().toLowerCase(Locale.ROOT) + ")");
        }
    }
}
