package io.streamgrid.client.impl.publish;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.streamgrid.client.Event;
import io.streamgrid.client.PublishException;
import io.streamgrid.client.PublishResult;
import io.streamgrid.client.Publisher;
import io.streamgrid.client.PublisherOptions;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.logging.Logger;

/**
 * A {@link Publisher} through the members, over the Hazelcast client: events queue here, one sender thread sends them in
 * batches ({@link PublishBatch} on the publisher's ledger entry), one request at a time so the
 * log receives them in order, and retries a request that failed (a member died, a timeout) with
 * the same sequences until {@link PublisherOptions#deliveryTimeout()} has passed since its
 * oldest event was published. {@link #open} returns a {@link KafkaPublisher} instead when the
 * members' log is Kafka and the options do not ask for the members' path.
 */
public final class DefaultPublisher extends NumberedPublisher {
    private static final Logger LOG = Logger.getLogger(DefaultPublisher.class.getName());
    /** Pause between two attempts of a request that failed. */
    private static final long RETRY_PAUSE_MS = 200;

    private final PublisherOptions options;
    private final IMap<String, PublisherLedger> ledgers;
    private final String key;
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private final Thread sender;
    private boolean closed;

    /** An event waiting to be sent: its JSON text in UTF-8, encoded on the application's thread. */
    private record Pending(long sequence, byte[] utf8, CompletableFuture<PublishResult> future, long publishedNanos) {
    }

    private DefaultPublisher(final HazelcastInstance client, final String schema, final String id, final PublisherOptions options,
                             final long durableSequence) {
        super(schema, id, options, durableSequence);
        this.options = options;
        this.ledgers = client.getMap(MemberPublishing.LEDGERS);
        this.key = PublishBatch.key(schema, id);
        this.sender = new Thread(this::sendLoop, "streamgrid-publisher-" + id);
        sender.setDaemon(true);
    }

    /**
     * Opens publisher {@code id} of {@code schema}: the members check the schema and find how far
     * the publisher's events reached the log; over Kafka (unless {@link PublisherOptions#throughMembers()})
     * they give the route by which the returned publisher produces itself.
     *
     * @throws IllegalArgumentException naming the schemas when the members know no such schema
     * @throws IllegalStateException    when the members or the log do not answer within the delivery timeout
     */
    public static Publisher open(final HazelcastInstance client, final String schema, final String id,
                                        final PublisherOptions options) {
        if (schema == null || schema.isBlank() || id == null || id.isBlank()) {
            throw new IllegalArgumentException("a publisher needs a schema name and an id, was schema '" + schema + "', id '" + id + "'");
        }
        final IMap<String, PublisherLedger> ledgers = client.getMap(MemberPublishing.LEDGERS);
        final PublishBatch.Reply reply;
        try {
            reply = ledgers.submitToKey(PublishBatch.key(schema, id), PublishBatch.open(schema, id, !options.throughMembers()))
                    .toCompletableFuture().get(options.deliveryTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (final ExecutionException e) {
            if (e.getCause() instanceof IllegalArgumentException invalid) {
                throw new IllegalArgumentException(invalid.getMessage(), invalid);
            }
            throw new IllegalStateException("cannot open publisher " + id + " of schema " + schema + ": " + e.getCause(), e.getCause());
        } catch (final TimeoutException e) {
            throw new IllegalStateException("cannot open publisher " + id + " of schema " + schema + ": no answer within "
                    + options.deliveryTimeout().toMillis() + " ms (are the members and their log reachable?)", e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while opening publisher " + id, e);
        }
        if (reply.route() != null) {
            return KafkaPublisher.open(ledgers, schema, id, options, reply.route());
        }
        final DefaultPublisher publisher = new DefaultPublisher(client, schema, id, options, reply.durableSequence());
        publisher.sender.start();
        return publisher;
    }

    @Override
    CompletableFuture<PublishResult> publish(final Event event, final long sequence) {
        final byte[] utf8 = event.toJson().getBytes(StandardCharsets.UTF_8);
        places.acquire();
        final CompletableFuture<PublishResult> future = new CompletableFuture<>();
        synchronized (queue) {
            final long assigned;
            try {
                if (closed) {
                    throw places.closed();
                }
                assigned = places.assign(sequence);
            } catch (final RuntimeException e) {
                places.release(1);
                throw e;
            }
            queue.add(new Pending(assigned, utf8, future, System.nanoTime()));
            queue.notifyAll();
        }
        return future;
    }

    private void sendLoop() {
        final List<Pending> batch = new ArrayList<>();
        while (true) {
            synchronized (queue) {
                while (queue.isEmpty() && !closed) {
                    try {
                        queue.wait();
                    } catch (final InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                if (queue.isEmpty()) {
                    return; // closed and nothing left
                }
                while (!queue.isEmpty() && batch.size() < options.maxBatch()) {
                    batch.add(queue.poll());
                }
            }
            send(batch);
            places.release(batch.size());
            batch.clear();
        }
    }

    /** Sends {@code batch} until acknowledged or its oldest event is older than the delivery timeout; completes every future. */
    private void send(final List<Pending> batch) {
        final long[] sequences = new long[batch.size()];
        final int[] ends = new int[batch.size()];
        int length = 0;
        for (int i = 0; i < ends.length; i++) {
            sequences[i] = batch.get(i).sequence();
            length += batch.get(i).utf8().length;
            ends[i] = length;
        }
        final byte[] events = new byte[length];
        for (int i = 0; i < ends.length; i++) {
            final byte[] utf8 = batch.get(i).utf8();
            System.arraycopy(utf8, 0, events, ends[i] - utf8.length, utf8.length);
        }
        final PublishBatch request = new PublishBatch(schema, id, sequences, events, ends);
        final long deadline = batch.get(0).publishedNanos() + options.deliveryTimeout().toNanos();
        Throwable last = null;
        int attempts = 0;
        while (true) {
            final long remaining = deadline - System.nanoTime();
            if (remaining <= 0 && attempts > 0) {
                break;
            }
            attempts++;
            try {
                final PublishBatch.Reply reply = ledgers.submitToKey(key, request).toCompletableFuture()
                        .get(Math.max(remaining, TimeUnit.MILLISECONDS.toNanos(RETRY_PAUSE_MS)), TimeUnit.NANOSECONDS);
                complete(batch, reply);
                return;
            } catch (final ExecutionException e) {
                last = e.getCause();
            } catch (final TimeoutException e) {
                last = e;
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                last = e;
                break;
            } catch (final RuntimeException e) {
                last = e; // the client itself: shutting down, not connected
            }
            if (attempts == 1) {
                LOG.warning("publisher " + id + ": a batch of " + batch.size() + " events was not acknowledged (" + last
                        + "); retrying with the same sequences until " + options.deliveryTimeout().toMillis() + " ms have passed");
            }
            try {
                Thread.sleep(RETRY_PAUSE_MS);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        for (final Pending pending : batch) {
            pending.future().completeExceptionally(new PublishException(PublishException.Reason.NOT_ACKNOWLEDGED, pending.sequence(),
                    "event " + pending.sequence() + " of publisher " + id + " was not acknowledged within "
                            + options.deliveryTimeout().toMillis() + " ms after " + attempts + " attempts (last: " + last
                            + "): it may or may not be in the log; open the publisher again to learn its durable sequence", last));
        }
    }

    private void complete(final List<Pending> batch, final PublishBatch.Reply reply) {
        for (int i = 0; i < batch.size(); i++) {
            final Pending pending = batch.get(i);
            switch (reply.statuses()[i]) {
                case MemberPublishing.APPENDED -> pending.future().complete(new PublishResult(pending.sequence(), false));
                case MemberPublishing.DUPLICATE -> pending.future().complete(new PublishResult(pending.sequence(), true));
                default -> pending.future().completeExceptionally(PublishQueue.rejected(schema, pending.sequence(),
                        reply.reasons()[i], pending.utf8()));
            }
        }
    }

    /** Every event holds a place until its request has completed it: all places free means nothing in flight. */
    @Override
    public void flush() {
        places.awaitEmpty();
    }

    @Override
    public void close() {
        synchronized (queue) {
            if (closed) {
                return;
            }
            closed = true;
            queue.notifyAll();
        }
        try {
            sender.join();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
