package io.streamgrid.jobs.ingest;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Reads one Kafka partition of a {@link KafkaLog}: a consumer of its own, assigned the partition
 * (no consumer group: the position is the job's, kept in its snapshots), read_committed — records
 * of aborted transactions are never seen. {@link #next()} polls without waiting; a record's index
 * is its offset. A JSON value ({@link JsonValues}) is handed on as the schema's binary record, or
 * as it is with the {@link #rejection() reason} it is not an event.
 */
final class KafkaPartitionReader implements LogReader {
    private final int partition;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final UnsafeBuffer buffer;
    private final int maxCapacity;
    private final JsonValues json;
    private String rejection;
    private Iterator<ConsumerRecord<byte[], byte[]>> fetched;
    private long lastIndex;

    KafkaPartitionReader(final Map<String, Object> consumerConfig, final String topic, final int partition, final long lastReadIndex,
                         final int capacity, final int maxCapacity, final JsonValues json) {
        this.partition = partition;
        this.json = json;
        this.lastIndex = lastReadIndex;
        this.buffer = new UnsafeBuffer(new byte[capacity]);
        this.maxCapacity = maxCapacity;
        this.consumer = new KafkaConsumer<>(consumerConfig);
        final TopicPartition assigned = new TopicPartition(topic, partition);
        consumer.assign(List.of(assigned));
        if (lastReadIndex == START) {
            consumer.seekToBeginning(List.of(assigned));
        } else {
            consumer.seek(assigned, lastReadIndex + 1);
        }
    }

    @Override
    public int next() {
        if (fetched == null || !fetched.hasNext()) {
            final ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ZERO);
            if (records.isEmpty()) {
                return -1;
            }
            fetched = records.iterator();
        }
        final ConsumerRecord<byte[], byte[]> record = fetched.next();
        final byte[] value = record.value();
        lastIndex = record.offset();
        rejection = null;
        if (JsonValues.isJson(value)) {
            try {
                final SchemaRecord event = json.decode(value, record.offset());
                buffer.putBytes(0, event.buffer(), event.offset(), event.length());
                return event.length();
            } catch (final IllegalArgumentException e) {
                rejection = e.getMessage();
            }
        }
        final int length = value == null ? 0 : value.length;
        PartitionReader.growFor(buffer, length, maxCapacity);
        if (length > 0) {
            buffer.putBytes(0, value, 0, Math.min(length, buffer.capacity()));
        }
        return length;
    }

    @Override
    public String rejection() {
        return rejection;
    }

    @Override
    public DirectBuffer buffer() {
        return buffer;
    }

    @Override
    public long lastIndex() {
        return lastIndex;
    }

    @Override
    public int partition() {
        return partition;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
