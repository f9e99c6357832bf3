package io.streamgrid.client.impl.publish;

import io.streamgrid.jobs.schema.EventSchema;

import java.io.Serializable;
import java.util.Objects;

/**
 * What a publisher needs to produce a schema's events to its Kafka topic itself, given by the member
 * that opened it: the brokers, the topic and its partition count, the schema its records are
 * encoded in, and the publisher's ledger as the open left it (its slot; per partition an offset
 * every later record of the publisher exceeds).
 */
public record KafkaRoute(String bootstrapServers, String topic, int partitions, EventSchema schema, PublisherLedger ledger)
        implements Serializable {
    public KafkaRoute {
        Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(ledger, "ledger");
        if (partitions < 1 || ledger.tails().length != partitions) {
            throw new IllegalArgumentException("topic " + topic + " of " + partitions + " partitions, a ledger of "
                    + ledger.tails().length);
        }
    }
}
