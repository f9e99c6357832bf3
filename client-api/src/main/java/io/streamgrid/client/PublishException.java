package io.streamgrid.client;

/** Why a published event was not acknowledged; {@link #reason()} says whether it can be in the log. */
public final class PublishException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public enum Reason {
        /** The event is invalid for its schema (the message names the field): nothing of it is in the log. */
        REJECTED,
        /**
         * No acknowledgement within {@link PublisherOptions#deliveryTimeout()} (the log or the
         * members unreachable): the event may or may not be in the log. Open the publisher again
         * with the same id: {@link Publisher#durableSequence()} says how far the log got, and
         * publishing an event again under its sequence never appends it twice.
         */
        NOT_ACKNOWLEDGED,
        /** {@link PublisherOptions#maxInFlight()} events were unacknowledged and the publisher fails fast: not sent. */
        FULL,
        /** The publisher was closed before the event was sent: not in the log. */
        CLOSED
    }

    private final Reason reason;
    private final long sequence;

    public PublishException(final Reason reason, final long sequence, final String message, final Throwable cause) {
        super(message, cause);
        this.reason = reason;
        this.sequence = sequence;
    }

    public Reason reason() {
        return reason;
    }

    /** The publisher's sequence of the event, or -1 when it was not given one ({@link Reason#FULL}, {@link Reason#CLOSED}). */
    public long sequence() {
        return sequence;
    }
}
