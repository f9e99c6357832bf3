package io.streamgrid.client.impl.publish;

import com.hazelcast.map.IMap;
import io.streamgrid.client.Event;
import io.streamgrid.client.PublishException;
import io.streamgrid.client.PublishResult;
import io.streamgrid.client.Publisher;
import io.streamgrid.client.PublisherOptions;
import io.streamgrid.jobs.schema.KeyPartitions;
import io.streamgrid.jobs.schema.PublishedSequence;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.schema.json.FlatJson;
import io.streamgrid.jobs.schema.json.PublishedJson;
import io.streamgrid.jobs.schema.json.RecordEncoder;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A {@link Publisher} of a Kafka log that produces to the schema's topic itself (decision record
 * 0009): each event is validated and encoded here, in the application, exactly as a member would
 * (the same {@link PublishedJson} and {@link RecordEncoder}), numbered with the publisher's slot and
 * sequence, and sent by an idempotent producer (acks from every in-sync replica; a retried send is
 * never written twice) to its key's partition. No member is on the event's path.
 *
 * <p>Exactly once across restarts as through the members: the open (on a member) read the log for
 * the publisher's highest sequence, so events at or below it are acknowledged as duplicates without
 * being sent; jobs drop a repeated (slot, sequence) as well. How far acknowledged events reached is
 * reported to the publisher's ledger at most once a second and at close ({@link AdvanceLedger}), which
 * only shortens the next open's read of the log.
 *
 * <p>Acknowledgements complete in sequence order, on the producer's I/O thread (or the publishing
 * thread, for an event settled at once): a future's dependents must not block (as for any Kafka
 * callback), nor wait for this publisher.
 */
final class KafkaPublisher extends NumberedPublisher {
    private static final Logger LOG = Logger.getLogger(KafkaPublisher.class.getName());
    private static final long LEDGER_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int LINGER_MS = 5;

    private final IMap<String, PublisherLedger> ledgers;
    private final String key;
    private final String writer;
    private final KafkaRoute route;
    private final KafkaProducer<byte[], byte[]> producer;
    /** Guarded by {@code this}, with the sequence numbering and the send: the log receives events in sequence order. */
    private final PublishedJson plain;
    private final RecordEncoder full;
    private final EventFields fields = new EventFields();
    /** Per partition, the publisher's highest sequence the open found there: at or below it, an event is in the log. */
    private final long[] highs;
    private boolean closed;
    /**
     * The earliest event not acknowledged; from then on nothing is sent and the ledger is not
     * advanced past it: a later event of its partition reaching the log would make a
     * re-publication of it look like a duplicate.
     */
    private final AtomicReference<PublishException> firstFailure = new AtomicReference<>();

    /**
     * Events not completed yet, in sequence order, linked through {@link Pending#next}: appended at
     * {@code tail} under this publisher's lock, taken after {@code head} (a completed sentinel) by
     * one drainer at a time.
     */
    private Pending head = new Pending();
    private Pending tail = head;
    /** Drain requests: the thread that raises it from 0 drains until none is left (so completions keep their order). */
    private final AtomicInteger drainRequests = new AtomicInteger();
    /** Places given back in bulk: a blocked publisher woken per event would cost a context switch per event. */
    private final int releaseEvery;
    // Owned by the drainer:
    private int unreleased;
    private long acknowledgedUpTo;
    private final long[] acknowledgedTails;
    private long ledgerWrittenNanos = System.nanoTime();
    private long ledgerReported;

    private KafkaPublisher(final IMap<String, PublisherLedger> ledgers, final String schema, final String id,
                           final PublisherOptions options, final KafkaRoute route, final KafkaProducer<byte[], byte[]> producer) {
        super(schema, id, options, route.ledger().lastSequence()); // the open's ledger: the durable sequence
        this.ledgers = ledgers;
        this.key = PublishBatch.key(schema, id);
        this.writer = "publisher " + id + " " + UUID.randomUUID();
        this.route = route;
        this.producer = producer;
        this.plain = new PublishedJson(route.schema());
        this.full = new RecordEncoder(route.schema());
        this.highs = route.ledger().highs();
        this.acknowledgedUpTo = route.ledger().lastSequence();
        this.acknowledgedTails = route.ledger().tails();
        this.ledgerReported = acknowledgedUpTo;
        this.releaseEvery = Math.max(1, options.maxInFlight() / 8);
    }

    /**
     * Connects to the route's brokers and checks the topic is there with the partitions the members
     * read.
     *
     * @throws IllegalStateException naming the brokers when they do not answer within the delivery timeout
     */
    static KafkaPublisher open(final IMap<String, PublisherLedger> ledgers, final String schema, final String id,
                               final PublisherOptions options, final KafkaRoute route) {
        final long timeoutMs = options.deliveryTimeout().toMillis();
        final Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, route.bootstrapServers());
        config.put(ProducerConfig.CLIENT_ID_CONFIG, "streamgrid-publisher-" + id);
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.LINGER_MS_CONFIG, LINGER_MS);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, (int) Math.min(Integer.MAX_VALUE, timeoutMs));
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) Math.min(30_000, timeoutMs - LINGER_MS));
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeoutMs);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        final KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config);
        final List<PartitionInfo> partitions;
        try {
            partitions = producer.partitionsFor(route.topic());
        } catch (final RuntimeException e) {
            producer.close(Duration.ZERO);
            throw new IllegalStateException("publisher " + id + " of schema " + schema + " cannot reach Kafka " + route.bootstrapServers()
                    + " (topic " + route.topic() + ") within " + timeoutMs + " ms: " + e + ". An application that reaches the members but"
                    + " not the brokers publishes through the members: PublisherOptions.sentThroughMembers()", e);
        }
        if (partitions.size() != route.partitions()) {
            producer.close(Duration.ZERO);
            throw new IllegalStateException("topic " + route.topic() + " has " + partitions.size() + " partitions, the members read "
                    + route.partitions() + ": the topic was changed outside StreamGrid");
        }
        return new KafkaPublisher(ledgers, schema, id, options, route, producer);
    }

    @Override
    CompletableFuture<PublishResult> publish(final Event event, final long requested) {
        places.acquire();
        final Pending entry;
        synchronized (this) {
            try {
                if (closed) {
                    throw places.closed();
                }
                entry = new Pending(places.assign(requested));
            } catch (final RuntimeException e) {
                places.release(1);
                throw e;
            }
            tail.next = entry;
            tail = entry;
            send(entry, event);
        }
        return entry.future;
    }

    /** Validates, encodes and sends {@code entry}'s event, or settles it at once (rejected, duplicate, not sent). */
    private void send(final Pending entry, final Event event) {
        final SchemaRecord record;
        try {
            record = encode(event, PublishedSequence.of(route.ledger().slot(), entry.sequence));
        } catch (final IllegalArgumentException e) {
            settle(entry, PublishQueue.rejected(schema, entry.sequence, e.getMessage(), event.toJson().getBytes(StandardCharsets.UTF_8)));
            return;
        }
        final int partition = KeyPartitions.partitionOf(record, route.partitions());
        if (PublishedSequence.inLog(entry.sequence, durableSequence, highs[partition])) {
            entry.duplicate = true;
            settle(entry, null);
            return;
        }
        final PublishException stopped = firstFailure.get();
        if (stopped != null) {
            settle(entry, new PublishException(PublishException.Reason.NOT_ACKNOWLEDGED, entry.sequence, "event " + entry.sequence
                    + " of publisher " + id + " was not sent: event " + stopped.sequence() + " was not acknowledged before it, and a"
                    + " publisher stops there (its later events could pass it in the log); open the publisher again", stopped));
            return;
        }
        final byte[] value = new byte[record.length()];
        record.buffer().getBytes(record.offset(), value);
        try {
            producer.send(new ProducerRecord<>(route.topic(), partition, null, value), entry);
        } catch (final RuntimeException e) { // the producer refused it at once: closed, or no metadata within the timeout
            settle(entry, notAcknowledged(entry.sequence, e));
        }
    }

    /**
     * {@code event} as a published record, as a member would encode it: fields as set, straight;
     * JSON text in the plain form from its bytes, any other parsed in full (which names what is wrong).
     */
    private SchemaRecord encode(final Event event, final long published) {
        if (!event.isJsonText()) {
            fields.event = event;
            return full.encodePublished(fields, published);
        }
        final byte[] utf8 = event.toJson().getBytes(StandardCharsets.UTF_8);
        final SchemaRecord record = plain.encode(utf8, 0, utf8.length, published);
        return record != null ? record : full.encodePublished(FlatJson.parse(event.toJson()), published);
    }

    private PublishException notAcknowledged(final long sequence, final Exception cause) {
        return new PublishException(PublishException.Reason.NOT_ACKNOWLEDGED, sequence, "event " + sequence + " of publisher " + id
                + " was not acknowledged by Kafka " + route.bootstrapServers() + " within " + places.deliveryTimeoutMs() + " ms ("
                + cause + "): it may or may not be in the log; open the publisher again to learn its durable sequence", cause);
    }

    /** Marks {@code entry} done ({@code error} null: in the log) and completes every done event at the head, in order. */
    private void settle(final Pending entry, final PublishException error) {
        entry.error = error;
        if (error != null && error.reason() == PublishException.Reason.NOT_ACKNOWLEDGED) {
            firstFailure.accumulateAndGet(error, (earlier, next) -> earlier == null || next.sequence() < earlier.sequence() ? next : earlier);
        }
        entry.done = true;
        drain();
    }

    private void drain() {
        if (drainRequests.getAndIncrement() != 0) {
            return; // the draining thread sees this entry: it drains until no request is left
        }
        int requests = 1;
        do {
            final PublishException failed = firstFailure.get();
            Pending head;
            while ((head = this.head.next) != null && head.done) {
                this.head = head;
                if (head.error == null && !head.duplicate && (failed == null || head.sequence < failed.sequence())) {
                    acknowledgedUpTo = Math.max(acknowledgedUpTo, head.sequence);
                    acknowledgedTails[head.partition] = Math.max(acknowledgedTails[head.partition], head.offset);
                }
                if (head.error != null) {
                    head.future.completeExceptionally(head.error);
                } else {
                    head.future.complete(new PublishResult(head.sequence, head.duplicate));
                }
                unreleased++;
            }
            if (unreleased >= releaseEvery || unreleased > 0 && this.head.next == null) {
                places.release(unreleased);
                unreleased = 0;
            }
            if (acknowledgedUpTo > ledgerReported && System.nanoTime() - ledgerWrittenNanos > LEDGER_EVERY_NANOS) {
                reportLedger();
            }
            requests = drainRequests.addAndGet(-requests);
        } while (requests != 0);
    }

    /** Sends the ledger of what is acknowledged so far, without waiting (a lost report only lengthens the next open's read). */
    private CompletableFuture<Void> reportLedger() {
        ledgerWrittenNanos = System.nanoTime();
        ledgerReported = acknowledgedUpTo;
        final PublisherLedger ledger = new PublisherLedger(route.ledger().slot(), acknowledgedUpTo, acknowledgedTails, writer, highs);
        try {
            return ledgers.submitToKey(key, new AdvanceLedger(ledger)).toCompletableFuture().whenComplete((v, error) -> {
                if (error != null) {
                    LOG.log(Level.FINE, "publisher " + id + ": its ledger was not updated (" + error + "); the next open reads more of the log");
                }
            });
        } catch (final RuntimeException e) { // the client is not connected or shutting down: same as a lost report
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public void flush() {
        producer.flush();
        places.awaitEmpty();
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        flush();
        producer.close(Duration.ofSeconds(10));
        final CompletableFuture<Void> report = acknowledgedUpTo > ledgerReported ? reportLedger() : null; // all drained: flush saw every place back
        if (report != null) {
            try {
                report.get(5, TimeUnit.SECONDS);
            } catch (final Exception e) {
                LOG.info("publisher " + id + ": its ledger was not updated at close (" + e + "); the next open reads more of the log");
            }
        }
    }

    /** An {@link Event}'s fields as the encoder reads them, without copying. */
    private static final class EventFields implements RecordEncoder.Fields {
        Event event;

        @Override
        public int count() {
            return event.fieldCount();
        }

        @Override
        public String name(final int index) {
            return event.fieldName(index);
        }

        @Override
        public Object value(final int index) {
            return event.fieldValue(index);
        }
    }

    /** One event on its way: the producer's callback for it, then its outcome until it is completed in order. */
    private final class Pending implements Callback {
        final long sequence;
        final CompletableFuture<PublishResult> future;
        /** The next event published, once there is one. */
        volatile Pending next;
        /** Written last, after the outcome: a drainer that reads it true sees the rest. */
        volatile boolean done;
        boolean duplicate;
        PublishException error;
        int partition;
        long offset;

        Pending(final long sequence) {
            this.sequence = sequence;
            this.future = new CompletableFuture<>();
        }

        /** The head of an empty queue: completed, never delivered. */
        private Pending() {
            this.sequence = 0;
            this.future = null;
            this.done = true;
        }

        @Override
        public void onCompletion(final RecordMetadata metadata, final Exception exception) {
            if (exception == null) {
                partition = metadata.partition();
                offset = metadata.offset();
                settle(this, null);
            } else {
                settle(this, notAcknowledged(sequence, exception));
            }
        }
    }
}
