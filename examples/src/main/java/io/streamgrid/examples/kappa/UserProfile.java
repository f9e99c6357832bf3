package io.streamgrid.examples.kappa;

/** A row of the {@code dim.users} dimension: who the user is, for enrichment. */
public record UserProfile(String user, String country, String segment, long signupDate) {
}
