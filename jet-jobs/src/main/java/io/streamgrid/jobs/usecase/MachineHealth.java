package io.streamgrid.jobs.usecase;

/**
 * A machine's health over one sliding window: the values of {@code state.machine-health}, keyed
 * {@code "<machineId>@<windowStart>"}.
 *
 * @param temperatureSlopePerHour least-squares trend of temperature readings, degrees per hour
 * @param operatingHours          minutes of the window with any reading, in hours
 */
public record MachineHealth(long machineId, long windowStart, long windowEnd, long readings, double vibrationMean,
                            double vibrationMax, double temperatureSlopePerHour, double operatingHours,
                            int updateSequence, boolean corrected) {
}
