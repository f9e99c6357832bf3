package io.streamgrid.examples.paramserver;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ShardValueTest {
    @Test
    void when_stalenessIsBucketed_then_smallOnesAreExactAndLargeOnesFallInTheirPowerOfTwo() {
        int previous = -1;
        for (long tau = 0; tau < 1L << 40; tau = tau < 100 ? tau + 1 : tau * 3 / 2) {
            final int bucket = ShardValue.bucketOf(tau);
            assertThat(bucket).as("bucket of %d", tau).isBetween(previous, ShardValue.STALENESS_BUCKETS - 1);
            final long low = ShardValue.lowestStalenessOf(bucket);
            if (tau < 32) {
                assertThat(low).isEqualTo(tau);
            } else if (bucket < ShardValue.STALENESS_BUCKETS - 1) {
                assertThat(tau).as("staleness %d in bucket %d", tau, bucket).isBetween(low, 2 * low - 1);
            } else {
                assertThat(tau).isGreaterThanOrEqualTo(low);
            }
            previous = bucket;
        }
        assertThat(ShardValue.bucketOf(Long.MAX_VALUE)).isEqualTo(ShardValue.STALENESS_BUCKETS - 1);
    }
}
