package io.streamgrid.client.impl.publish;

import io.streamgrid.client.Event;
import io.streamgrid.client.PublishResult;
import io.streamgrid.client.Publisher;
import io.streamgrid.client.PublisherOptions;

import java.util.concurrent.CompletableFuture;

/** What every {@link Publisher} here shares: its names, the durable sequence it was opened at, its in-flight places and numbering. */
abstract class NumberedPublisher implements Publisher {
    protected final String schema;
    protected final String id;
    protected final long durableSequence;
    protected final PublishQueue places;

    NumberedPublisher(final String schema, final String id, final PublisherOptions options, final long durableSequence) {
        this.schema = schema;
        this.id = id;
        this.durableSequence = durableSequence;
        this.places = new PublishQueue(id, options, durableSequence);
    }

    @Override
    public final String id() {
        return id;
    }

    @Override
    public final String schema() {
        return schema;
    }

    @Override
    public final long durableSequence() {
        return durableSequence;
    }

    @Override
    public final CompletableFuture<PublishResult> publish(final Event event) {
        return publish(event, -1);
    }

    @Override
    public final CompletableFuture<PublishResult> publish(final long sequence, final Event event) {
        if (sequence < 1) {
            throw new IllegalArgumentException("sequence " + sequence + ": sequences start at 1");
        }
        return publish(event, sequence);
    }

    /** Publishes {@code event} as sequence {@code requested}, or as the next one when it is negative (see {@link PublishQueue#assign}). */
    abstract CompletableFuture<PublishResult> publish(Event event, long requested);
}
