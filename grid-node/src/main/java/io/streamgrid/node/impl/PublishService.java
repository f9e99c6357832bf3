package io.streamgrid.node.impl;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.streamgrid.client.impl.publish.KafkaRoute;
import io.streamgrid.client.impl.publish.MemberPublishing;
import io.streamgrid.client.impl.publish.PublishBatch;
import io.streamgrid.client.impl.publish.PublisherLedger;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.EventTexts;
import io.streamgrid.jobs.ingest.LogPublisher;
import io.streamgrid.jobs.ingest.LogReader;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.PublishedSequence;
import io.streamgrid.node.NodeSettings;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * The member's side of the publish API: appends publishers' batches to the log of their schema —
 * Chronicle Queue in this host's {@code ingest.dir}, or the schema's Kafka topic — each sequence
 * at most once.
 *
 * <p>A publisher's ledger ({@link PublisherLedger}, a backed-up map entry) is trusted without
 * reading the log only when this member wrote it and remembers writing exactly it: after a failover,
 * a migration or a failed append, the log is read after the ledger's positions for the publisher's
 * records ({@link LogPublisher#scan}), so a batch appended by a member that died before its ledger
 * was backed up is not appended again. A publisher without a ledger (new, or the whole cluster
 * restarted) gets its slot from the log's own record of publishers; only a publisher the log knows
 * from before is searched for in the whole log.
 */
public final class PublishService implements MemberPublishing, AutoCloseable {
    private static final Logger LOG = Logger.getLogger(PublishService.class.getName());
    /** Locks (per log) that make slot claims one at a time across the cluster. */
    private static final String SLOT_LOCKS = "streamgrid.publisher-slot-locks";

    private final NodeSettings settings;
    private final Map<String, LogPublisher> logs = new ConcurrentHashMap<>();
    /** Per publisher key, the last sequence of the ledger this member wrote for it. */
    private final Map<String, Long> wroteLast = new ConcurrentHashMap<>();
    private volatile HazelcastInstance member;

    public PublishService(final NodeSettings settings) {
        this.settings = settings;
    }

    /** The member this service runs in, once it has started. */
    public void attach(final HazelcastInstance instance) {
        this.member = instance;
    }

    @Override
    public BatchResult publish(final String schema, final String publisherId, final PublisherLedger ledger, final long[] sequences,
                               final byte[] events, final int[] ends) {
        if (member == null) {
            throw new IllegalStateException("this member is starting: publish again in a moment");
        }
        final LogPublisher log = log(schema);
        final String key = PublishBatch.key(schema, publisherId);
        final String self = member.getCluster().getLocalMember().getUuid().toString();
        final PublisherLedger current = verified(log, key, publisherId, ledger, self);
        try {
            final LogPublisher.Outcome outcome = log.append(current.slot(), current.lastSequence(), current.highs(), current.tails(),
                    sequences, new EventTexts(events, ends));
            final PublisherLedger next = new PublisherLedger(current.slot(), outcome.lastSequence(), outcome.tails(), self,
                    current.highs());
            wroteLast.put(key, outcome.lastSequence());
            return new BatchResult(next, outcome.statuses(), outcome.reasons());
        } catch (final RuntimeException e) {
            wroteLast.remove(key); // some of the batch may be in the log: the next batch reads it first
            throw e;
        }
    }

    @Override
    public KafkaRoute kafkaRoute(final String schema, final String publisherId, final PublisherLedger ledger) {
        if (!settings.ingestOnKafka()) {
            return null;
        }
        wroteLast.remove(PublishBatch.key(schema, publisherId)); // the publisher appends without this member from now on
        final EventLog log = log(schema).log();
        return new KafkaRoute(settings.ingestKafka().bootstrapServers(), settings.ingestKafka().topic(schema), log.partitions(), log.schema(),
                ledger);
    }

    /** {@code ledger}, or what the log says when this member cannot be sure the ledger saw the publisher's last batch. */
    private PublisherLedger verified(final LogPublisher log, final String key, final String publisherId, final PublisherLedger ledger,
                                     final String self) {
        if (ledger == null) {
            final EventLog.PublisherSlot slot = claimSlot(log, publisherId);
            final long[] tails = log.tails();
            long[] highs = new long[tails.length];
            if (!slot.isNew()) {
                final long[] start = new long[tails.length];
                Arrays.fill(start, LogReader.START);
                highs = log.scan(slot.slot(), start);
                LOG.info("publisher " + key + " has no ledger (the cluster restarted?): its highest sequences in " + log.log().name()
                        + " are " + Arrays.toString(highs) + " by partition");
            }
            return new PublisherLedger(slot.slot(), PublishedSequence.settled(0, highs), tails, self, highs);
        }
        if (self.equals(ledger.writer()) && Long.valueOf(ledger.lastSequence()).equals(wroteLast.get(key))) {
            return ledger;
        }
        final long[] highs = log.scan(ledger.slot(), ledger.tails());
        final long settled = PublishedSequence.settled(ledger.lastSequence(), highs);
        if (Arrays.stream(highs).anyMatch(high -> high > ledger.lastSequence())) {
            LOG.info("publisher " + key + ": the log holds sequences up to " + Arrays.toString(highs) + " by partition, its ledger said "
                    + ledger.lastSequence() + " (written before the last batch was known durable): those are not appended again");
        }
        return new PublisherLedger(ledger.slot(), settled, ledger.tails(), self, highs);
    }

    private EventLog.PublisherSlot claimSlot(final LogPublisher log, final String publisherId) {
        final IMap<String, Boolean> locks = member.getMap(SLOT_LOCKS);
        final String lock = log.log().name();
        locks.lock(lock);
        try {
            return log.log().publisherSlot(publisherId);
        } finally {
            locks.unlock(lock);
        }
    }

    private LogPublisher log(final String schemaName) {
        final LogPublisher open = logs.get(schemaName);
        if (open != null) {
            return open;
        }
        return logs.computeIfAbsent(schemaName, name -> new LogPublisher(openLog(schemaOf(name))));
    }

    private EventLog openLog(final EventSchema schema) {
        if (settings.ingestOnKafka()) {
            return settings.ingestKafka().openOrCreate(schema, schema.name(), settings.ingestPartitions());
        }
        final Path dir = SchemaLog.directoryOf(settings.ingestDir(), schema.name());
        return SchemaLog.exists(dir) ? SchemaLog.openExisting(dir, schema) : SchemaLog.open(dir, schema, settings.ingestPartitions());
    }

    private EventSchema schemaOf(final String name) {
        final EventType builtIn = EventType.ofSchema(name);
        if (builtIn != null) {
            return builtIn.schema();
        }
        for (final EventSchema schema : settings.schemas()) {
            if (schema.name().equals(name)) {
                return schema;
            }
        }
        final List<String> known = new ArrayList<>();
        for (final EventType type : EventType.values()) {
            known.add(type.schema().name());
        }
        settings.schemas().forEach(s -> known.add(s.name()));
        throw new IllegalArgumentException("no schema '" + name + "' on the members: they know " + known
                + " (built-in types and their configuration's schemas: section)");
    }

    @Override
    public void close() {
        logs.values().forEach(LogPublisher::close);
        logs.clear();
    }
}
