package io.streamgrid.examples.federated;

import io.streamgrid.client.Event;
import io.streamgrid.client.Publisher;
import io.streamgrid.client.PublisherOptions;
import io.streamgrid.client.StreamGridClient;

import java.time.Duration;
import java.util.function.Consumer;

/**
 * The federation's clock, an application beside the devices: it starts the federation (the
 * {@code START} event) and, each time a round stays open another {@code deadline} since it first saw
 * it, publishes the round's {@code DEADLINE} — into the update log itself, so that where a deadline
 * falls among the updates is in the log and every replay of the aggregator closes the round with
 * the same ones. A deadline for a round that closed meanwhile is ignored by the aggregator; a second
 * one abandons a secure round still waiting for corrections. One thread; stops after round
 * {@code rounds} closed, or when closed. (A restarted coordinator publishes the start again, which
 * the aggregator ignores once started.)
 */
public final class FederationCoordinator implements AutoCloseable {
    private final StreamGridClient client;
    private final FederatedModel model;
    private final Duration deadline;
    private final long rounds;
    private final Consumer<String> progress;
    private final Publisher publisher;
    private final Thread thread;
    private volatile boolean closed;
    private volatile long openRound;

    private FederationCoordinator(final StreamGridClient client, final FederatedModel model, final Duration deadline, final long rounds,
                                  final Consumer<String> progress) {
        this.client = client;
        this.model = model;
        this.deadline = deadline;
        this.rounds = rounds;
        this.progress = progress;
        this.publisher = client.publisher(FederatedEvents.UPDATE.name(), model.coordinatorPublisher(), PublisherOptions.defaults());
        this.thread = new Thread(this::run, "fl-coordinator-" + model.name());
        thread.setDaemon(true);
    }

    /** Starts the federation of {@code model} for {@code rounds} rounds, each open at most about {@code deadline}. */
    public static FederationCoordinator start(final StreamGridClient client, final FederatedModel model, final Duration deadline,
                                              final long rounds, final Consumer<String> progress) {
        final FederationCoordinator coordinator = new FederationCoordinator(client, model, deadline, rounds, progress);
        coordinator.publish("START", 0);
        coordinator.thread.start();
        return coordinator;
    }

    /** The round open when last looked (0 before the first; {@code rounds + 1} when all closed). */
    public long openRound() {
        return openRound;
    }

    /** Waits until every round closed. @return whether they did within {@code timeout} */
    public boolean awaitRounds(final Duration timeout) throws InterruptedException {
        thread.join(timeout.toMillis());
        return openRound > rounds;
    }

    private void run() {
        long seen = 0;
        long seenAtNanos = 0;
        int deadlinesSent = 0;
        while (!closed) {
            final GlobalModel global = (GlobalModel) client.get(model.globalMap(), model.name());
            if (global != null && global.round() != seen) {
                seen = global.round();
                seenAtNanos = System.nanoTime();
                deadlinesSent = 0;
                openRound = seen;
                if (seen > rounds) {
                    return;
                }
            }
            if (seen > 0 && System.nanoTime() - seenAtNanos >= (deadlinesSent + 1) * deadline.toNanos()) {
                progress.accept("round " + seen + ": deadline (" + deadline.toMillis() + " ms) reached"
                        + (deadlinesSent > 0 ? " again" : ""));
                publish("DEADLINE", seen);
                deadlinesSent++;
            }
            try {
                Thread.sleep(5);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private void publish(final String kind, final long round) {
        publisher.publish(Event.builder().set("model", model.name()).set("ts", System.currentTimeMillis()).set("kind", kind)
                .set("device", -1L).set("round", round).set("samples", 0L).set("delta", "").build());
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        thread.join(5_000);
        publisher.close();
    }
}
