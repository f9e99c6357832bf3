package io.streamgrid.examples;

import io.streamgrid.examples.fraud.FraudScoringJob;
import io.streamgrid.examples.fraud.ModelMonitoringJob;
import io.streamgrid.examples.fraud.ModelTrainingJob;
import io.streamgrid.examples.kappa.UserActivityJob;
import io.streamgrid.examples.machines.MachineHealthJob;
import io.streamgrid.examples.recommendations.RecommendationsJob;
import io.streamgrid.examples.trading.PositionsJob;
import io.streamgrid.jobs.keyed.StreamGridJob;

import java.util.List;
import java.util.Optional;

/** The example jobs by name, with their default settings, for the command line ({@code job submit NAME}). */
public final class ExampleJobs {
    public static final List<String> NAMES = List.of(PositionsJob.NAME, MachineHealthJob.NAME, UserActivityJob.NAME,
            RecommendationsJob.NAME, FraudScoringJob.NAME, ModelTrainingJob.NAME, ModelMonitoringJob.NAME);

    private ExampleJobs() {
    }

    /** The example job called {@code name}; empty for another name. */
    public static Optional<StreamGridJob> byName(final String name) {
        return Optional.ofNullable(switch (name) {
            case PositionsJob.NAME -> new PositionsJob();
            case MachineHealthJob.NAME -> new MachineHealthJob();
            case UserActivityJob.NAME -> new UserActivityJob();
            case RecommendationsJob.NAME -> new RecommendationsJob();
            case FraudScoringJob.NAME -> new FraudScoringJob();
            case ModelTrainingJob.NAME -> new ModelTrainingJob();
            case ModelMonitoringJob.NAME -> new ModelMonitoringJob();
            default -> null;
        });
    }
}
