package io.streamgrid.client.impl;

import com.hazelcast.internal.journal.EventJournalReader;
import com.hazelcast.map.EventJournalMapEvent;
import com.hazelcast.ringbuffer.ReadResultSet;
import io.streamgrid.client.Delta;
import io.streamgrid.cq.ChangeFilter;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Logger;

/**
 * A subscription's own reads of partitions (client executor threads), after its queue was too full
 * to take a batch of the shared read ({@link MapFeed}): a chain per partition reads the journal on
 * from where it stopped, without waiting for more, and goes back to the shared read once caught up.
 * Back-pressure: a chain that finds no room for a batch stops, and the delivery thread lets stopped
 * chains go on in the order they stopped, only as many at a time as the queue has room for. A
 * chain belongs to a partition's generation ({@code generation}): a resync starts a new one, and the
 * old chain's reads end.
 */
final class ReadChains {
    private static final Logger LOG = Logger.getLogger(ReadChains.class.getName());

    private final ContinuousSubscription subscription;
    private final String mapName;
    private final EventJournalReader<EventJournalMapEvent<Object, Object>> journal;
    private final ChangeFilter filter;
    private final ArrayBlockingQueue<Object> queue;
    /**
     * Most changes one journal read returns; also the room a chain needs in the queue to read on
     * (half the queue at most, so that a small queue still lets chains take turns).
     */
    private final int readLimit;
    private final AtomicIntegerArray generation;
    /** Read chains stopped for want of room in the queue, each with the sequence to go on from (FIFO: they take turns). */
    private final ConcurrentLinkedQueue<StoppedChain> stopped = new ConcurrentLinkedQueue<>();
    /** Reads of chains let go on whose batches have not come back yet: room they may still take. */
    private final AtomicInteger resumedReads = new AtomicInteger();
    /** Set from the first chain stopping until every stopped chain has gone on: one overflow. */
    private final AtomicBoolean behind = new AtomicBoolean();
    private final AtomicLong overflows = new AtomicLong();

    /** A read chain that stopped at a full queue: it goes on at {@code sequence} when the listener caught up. */
    private record StoppedChain(int partition, int chain, long sequence) {
    }

    ReadChains(final ContinuousSubscription subscription, final String mapName,
               final EventJournalReader<EventJournalMapEvent<Object, Object>> journal, final ChangeFilter filter,
               final ArrayBlockingQueue<Object> queue, final int readLimit, final AtomicIntegerArray generation) {
        this.subscription = subscription;
        this.mapName = mapName;
        this.journal = journal;
        this.filter = filter;
        this.queue = queue;
        this.readLimit = readLimit;
        this.generation = generation;
    }

    /** How many times the listener fell behind so far that reading had to wait for it. */
    long overflows() {
        return overflows.get();
    }

    void read(final int partition, final int chain, final long sequence) {
        read(partition, chain, sequence, false);
    }

    /**
     * Reads what the journal holds from {@code sequence} on, without waiting for more (no read of a
     * subscription parks on a member: {@link MapFeed} says why); caught up, the chain attaches to
     * the shared read again.
     *
     * @param resumed whether this read lets a stopped chain go on: counted in {@link #resumedReads}
     *                until it returns
     */
    private void read(final int partition, final int chain, final long sequence, final boolean resumed) {
        if (subscription.closed() || generation.get(partition) != chain) {
            if (resumed) {
                resumedReads.decrementAndGet();
            }
            return;
        }
        final CompletionStage<ReadResultSet<EventJournalMapEvent<Object, Object>>> reading;
        try {
            reading = journal.readFromEventJournal(sequence, 0, readLimit, partition, filter, null);
        } catch (final RuntimeException e) {
            if (resumed) {
                resumedReads.decrementAndGet();
            }
            onReadFailure(partition, chain, sequence, e);
            return;
        }
        reading.whenComplete((batch, error) -> {
            if (resumed) {
                resumedReads.decrementAndGet();
            }
            if (error != null) {
                onReadFailure(partition, chain, sequence, error);
                return;
            }
            if (generation.get(partition) != chain) {
                return;
            }
            final String trouble = JournalReads.trouble(partition, sequence, batch);
            if (trouble != null) {
                requestResync(partition, chain, sequence, trouble);
                return;
            }
            final long next = JournalReads.next(sequence, batch);
            for (int i = 0; i < batch.size(); i++) {
                final Delta delta = subscription.deltaOf(batch.get(i), partition, batch.getSequence(i));
                if (delta != null && !queue.offer(delta)) {
                    stop(partition, chain, batch.getSequence(i)); // chains that read together can overfill the room
                    return;
                }
            }
            // No room for another batch: wait for the listener instead of reading one change at a
            // time at its pace (a read per delta costs the members as much as a fast subscriber).
            if (queue.remainingCapacity() < readLimit) {
                stop(partition, chain, next);
                return;
            }
            if (batch.readCount() < readLimit) {
                subscription.backToSharedRead(partition, next - 1); // caught up with the journal: back to the shared read
                return;
            }
            read(partition, chain, next);
        });
    }

    private void onReadFailure(final int partition, final int chain, final long sequence, final Throwable error) {
        if (subscription.ended()) {
            return;
        }
        final Throwable cause = ReadFailures.causeOf(error);
        if (ReadFailures.isTransient(cause)) {
            CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS).execute(() -> read(partition, chain, sequence));
        } else {
            requestResync(partition, chain, sequence, "journal read failed: " + cause);
        }
    }

    /** Asks for a resync; with the queue full, the chain stops at {@code sequence} and finds the same trouble when it goes on. */
    void requestResync(final int partition, final int chain, final long sequence, final String reason) {
        if (!queue.offer(new ContinuousSubscription.Resync(partition, reason))) {
            stop(partition, chain, sequence);
        }
    }

    /** No room for another batch: this chain stops at {@code sequence} and waits for its turn. */
    void stop(final int partition, final int chain, final long sequence) {
        stopped.add(new StoppedChain(partition, chain, sequence));
        if (behind.compareAndSet(false, true)) {
            final long times = overflows.incrementAndGet();
            if (times <= 10 || times % 1_000 == 0) {
                LOG.info(() -> "subscription to " + mapName + ": the listener is " + queue.size()
                        + " deltas behind; reading waits for it (overflow " + times + " so far)");
            }
        }
    }

    /**
     * Delivery thread: lets stopped chains go on, in the order they stopped, while the queue has
     * room for their batches beside those of chains already let go on. A chain that finds the room
     * taken when its batch comes back stops again at the back of the line.
     */
    void resumeStopped() {
        while (!stopped.isEmpty() && queue.remainingCapacity() - (long) resumedReads.get() * readLimit >= readLimit) {
            final StoppedChain chain = stopped.poll();
            resumedReads.incrementAndGet();
            read(chain.partition(), chain.chain(), chain.sequence(), true);
        }
        if (stopped.isEmpty() && resumedReads.get() == 0) {
            behind.set(false);
        }
    }
}
