package io.streamgrid.client;

/**
 * An acknowledged event: it is durable in its schema's log (Chronicle: written to the members'
 * host's log files; Kafka: acknowledged by every in-sync replica).
 *
 * @param sequence  the publisher's number for the event (1, 2, ...)
 * @param duplicate the log held this sequence already (a retry or a re-run after a restart): it was not appended again
 */
public record PublishResult(long sequence, boolean duplicate) {
}
