package io.streamgrid.perf.report;

/**
 * One of the goals and whether this run met it.
 *
 * @param goal    the goal as stated
 * @param verdict {@code MET}, {@code NOT MET} or {@code NOT MEASURED}
 * @param detail  the figures behind the verdict, and by how much
 */
public record GoalCheck(String goal, String verdict, String detail) {
    public static GoalCheck of(final String goal, final boolean met, final String detail) {
        return new GoalCheck(goal, met ? "MET" : "NOT MET", detail);
    }

    public static GoalCheck notMeasured(final String goal, final String why) {
        return new GoalCheck(goal, "NOT MEASURED", why);
    }
}
