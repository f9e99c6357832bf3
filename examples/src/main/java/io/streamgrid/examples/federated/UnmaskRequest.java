package io.streamgrid.examples.federated;

/**
 * A secure round's call for corrections ({@link SecureAggregation}): the devices whose masked
 * updates the round took ({@code survivors}, in the order taken) are each to send their
 * correction, which needs the chosen devices whose updates it did not take ({@code dropped},
 * ascending) and their public keys ({@code droppedKeys}, same order).
 */
public record UnmaskRequest(long round, long[] survivors, long[] dropped, String[] droppedKeys) {
}
