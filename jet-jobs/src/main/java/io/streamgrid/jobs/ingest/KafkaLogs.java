package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.EventSchema;

/**
 * Logs in Apache Kafka: the log named {@code n} is the topic {@code <topicPrefix>n}, one Kafka
 * partition per log partition, its schema recorded in the topic {@code <topicPrefix>_schemas}
 * (compacted, keyed by topic). Every member reaches the same topics, so jobs of a cluster across
 * hosts read one log.
 *
 * @param bootstrapServers  host:port[,host:port...] of the Kafka cluster
 * @param topicPrefix       prepended to log names, e.g. {@code streamgrid.}
 * @param replicationFactor of topics StreamGrid creates
 */
public record KafkaLogs(String bootstrapServers, String topicPrefix, short replicationFactor) implements LogSource {
    public KafkaLogs {
        if (bootstrapServers == null || bootstrapServers.isBlank()) {
            throw new IllegalArgumentException("Kafka bootstrap servers are blank: give host:port of a broker");
        }
        if (replicationFactor < 1) {
            throw new IllegalArgumentException("a topic's replication factor must be 1 or more, was " + replicationFactor);
        }
    }

    /** The topic of the log named {@code logName}. */
    public String topic(final String logName) {
        return topicPrefix + logName;
    }

    String schemaTopic() {
        return topicPrefix + "_schemas";
    }

    @Override
    public EventLog open(final EventSchema schema, final String logName) {
        return KafkaLog.open(this, schema, logName, 0);
    }

    @Override
    public EventLog openOrCreate(final EventSchema schema, final String logName, final int partitions) {
        return KafkaLog.open(this, schema, logName, partitions);
    }

    @Override
    public boolean exists(final String logName) {
        return KafkaLog.topicExists(this, logName);
    }

    @Override
    public String describe() {
        return "Kafka " + bootstrapServers + " (topics " + topicPrefix + "*)";
    }
}
