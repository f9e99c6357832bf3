package io.streamgrid.jobs.kafka;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka's storage tool reads a cluster id that begins with '-' as an option and refuses to format
 * ("argument --cluster-id/-t: expected one argument"); a URL-safe Base64 id begins with '-' once in
 * 64 draws, which failed a CI run. Every drawn id must be a valid 22-character id that cannot be
 * mistaken for an option.
 */
class KafkaClusterIdTest {
    @Test
    void when_manyClusterIdsAreDrawn_then_noneBeginsWithADash() {
        final Random random = new Random(44);
        for (int i = 0; i < 10_000; i++) {
            final String id = KafkaBroker.newClusterId(random);
            assertThat(id).hasSize(22).matches("[A-Za-z0-9_][A-Za-z0-9_-]{21}");
        }
    }
}
