package io.streamgrid.examples.fraud;

/**
 * A window whose accuracy fell, or whose fraud rate moved, beyond the configured bounds against the
 * model's baseline ({@link ModelMonitoringJob}).
 */
public record DriftAlert(String model, long start, long end, double accuracy, double baselineAccuracy, double fraudRate,
                         double baselineFraudRate, String reason) {
}
