package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.SchemaRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * How far a file's load into Kafka topics got. Every {@value LoadLedger#COMMIT_EVERY} lines, and at
 * the end, the load commits one Kafka transaction holding that batch's events and a record of
 * progress in the schema topic (key {@code load/<sha256 of the file>}, value
 * {@code lines-done=N[;finished=<instant>]}): both are visible to readers (read committed) or
 * neither. A load run again after a crash resumes after the last committed batch, and the
 * interrupted batch's events, never committed, are never read — every line is appended once.
 *
 * <p>The transactional id is derived from the file's content hash, so a second load of the same
 * file (run again while a killed one's transaction is open, or at the same time) fences the first:
 * Kafka aborts the older transaction, and the older process's next commit fails. A file loaded
 * completely is refused unless forced; a forced load starts from the first line.
 */
public final class KafkaLoadLedger implements LoadProgress {
    private final KafkaProducer<byte[], byte[]> producer;
    private final String schemaTopic;
    private final String key;
    private final long resumeAfterLine;
    private final String finishedAt;
    private boolean inTransaction;

    private KafkaLoadLedger(final KafkaProducer<byte[], byte[]> producer, final String schemaTopic, final String key,
                            final long resumeAfterLine, final String finishedAt) {
        this.producer = producer;
        this.schemaTopic = schemaTopic;
        this.key = key;
        this.resumeAfterLine = resumeAfterLine;
        this.finishedAt = finishedAt;
    }

    /**
     * The progress of {@code input}'s load into {@code kafka}'s topics, read from the schema topic
     * ({@code force}: ignored, the load starts from the first line); fences any earlier load of the
     * same file.
     *
     * @throws IllegalStateException when Kafka does not answer within a minute
     */
    public static KafkaLoadLedger open(final KafkaLogs kafka, final Path input, final boolean force) throws IOException {
        final String hash = LoadLedger.sha256(input);
        final String key = "load/" + hash;
        final KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "streamgrid-load-" + hash,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 60_000,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()));
        try {
            producer.initTransactions(); // aborts a transaction an earlier load of this file left open
            KafkaTopics.ensureSchemaTopic(kafka); // a first load may come before any log exists
            final String recorded = force ? null : SchemaTopic.schemaTopicRecords(kafka).get(key);
            long linesDone = 0;
            String finishedAt = null;
            if (recorded != null) {
                for (final String part : recorded.split(";")) {
                    if (part.startsWith("lines-done=")) {
                        linesDone = Long.parseLong(part.substring("lines-done=".length()));
                    } else if (part.startsWith("finished=")) {
                        finishedAt = part.substring("finished=".length());
                    }
                }
            }
            return new KafkaLoadLedger(producer, kafka.schemaTopic(), key, linesDone, finishedAt);
        } catch (final KafkaException | IllegalStateException e) {
            producer.close(Duration.ZERO);
            throw new IllegalStateException("cannot start the load's transaction on " + kafka.describe() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public long resumeAfterLine() {
        return resumeAfterLine;
    }

    @Override
    public boolean finished() {
        return finishedAt != null;
    }

    @Override
    public String finishedDescription() {
        return "at " + finishedAt + ", " + resumeAfterLine + " lines, recorded in topic " + schemaTopic;
    }

    @Override
    public long skippedAsAlreadyAppended() {
        return 0; // an interrupted batch was never committed: nothing of it is in the log
    }

    @Override
    public boolean append(final EventLog log, final SchemaRecord record) {
        if (!(log instanceof KafkaLog kafkaLog)) {
            throw new IllegalArgumentException("a Kafka load writes Kafka logs, not " + log.name());
        }
        begin();
        producer.send(kafkaLog.producerRecord(record));
        return true;
    }

    @Override
    public void lineDone(final long lineNumber) {
        if (lineNumber > resumeAfterLine && lineNumber % LoadLedger.COMMIT_EVERY == 0) { // lines read past on a resume are committed already
            commit("lines-done=" + lineNumber);
        }
    }

    @Override
    public void finish(final long lines) {
        commit("lines-done=" + lines + ";finished=" + Instant.now());
    }

    private void begin() {
        if (!inTransaction) {
            producer.beginTransaction();
            inTransaction = true;
        }
    }

    /** Commits the batch's events together with {@code progress}; a failed commit fails the load (nothing of the batch is read). */
    private void commit(final String progress) {
        begin();
        producer.send(new ProducerRecord<>(schemaTopic, 0, key.getBytes(StandardCharsets.UTF_8), progress.getBytes(StandardCharsets.UTF_8)));
        try {
            producer.commitTransaction();
        } catch (final ProducerFencedException e) {
            throw new IllegalStateException("another load of the same file took over (its transaction fenced this one); "
                    + "this load stops, the other goes on", e);
        } catch (final KafkaException e) {
            throw new IllegalStateException("Kafka did not commit the load's batch before '" + progress + "': " + e.getMessage()
                    + "; run the load again — it resumes after the last committed batch", e);
        } finally {
            inTransaction = false;
        }
    }

    /** Aborts an uncommitted batch (its events are never read) and closes the producer. */
    @Override
    public void close() {
        try {
            if (inTransaction) {
                producer.abortTransaction();
            }
        } catch (final KafkaException e) {
            // the batch stays uncommitted: Kafka aborts it when its transaction times out or the next load fences it
        } finally {
            producer.close(Duration.ofSeconds(30));
        }
    }
}
