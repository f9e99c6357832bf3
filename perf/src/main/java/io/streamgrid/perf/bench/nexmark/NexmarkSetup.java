package io.streamgrid.perf.bench.nexmark;

import io.streamgrid.nexmark.NexmarkGenerator;

/**
 * What every engine of a NEXMark run shares: the generator's seed, event-time rate, base time and
 * padding, and the parallelism (log partitions for StreamGrid and Jet, source readers for Flink).
 */
record NexmarkSetup(long seed, long eventsPerSecond, long baseTimeMs, int padding, int parallelism) {
    static final NexmarkSetup DEFAULT = new NexmarkSetup(20_261_206L, 10_000, 1_700_000_000_000L, 100, 2);

    NexmarkGenerator generator() {
        return new NexmarkGenerator(seed, eventsPerSecond, baseTimeMs, padding);
    }
}
