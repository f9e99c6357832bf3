package io.streamgrid.examples.kappa;

/**
 * A user's activity in the serving map {@code state.user-activity}: requests, bytes and server
 * errors (5xx) so far, the latest request's path and time, and the user's country and segment as
 * the dimension gave them at that request.
 */
public record UserActivity(String user, String country, String segment, long requests, long bytes, long serverErrors,
                           String lastPath, long lastTime) {
}
