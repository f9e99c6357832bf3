package io.streamgrid.perf.bench;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class HandWrittenSlidingCountTest {

    @Test
    void when_eventsCounted_then_tallyAndResultsEqualABruteForceCount() {
        final long size = 100;
        final long slide = 20;
        final SplittableRandom random = new SplittableRandom(1);
        final int events = 5_000;
        final long[] keys = new long[events];
        final long[] times = new long[events];
        for (int i = 0; i < events; i++) {
            keys[i] = random.nextInt(30);
            times[i] = 1_000 + i / 7; // in order, several events per millisecond
        }
        final HandWrittenSlidingCount windows = new HandWrittenSlidingCount(size, slide);
        for (int i = 0; i < events; i++) {
            windows.onEvent(keys[i], times[i]);
        }
        windows.flush();

        // Brute force: every (key, window end) with at least one event, and the sum of their counts.
        final Map<String, Long> countByWindow = new HashMap<>();
        for (int i = 0; i < events; i++) {
            final long firstEnd = times[i] - Math.floorMod(times[i], slide) + slide;
            for (long end = firstEnd; end < firstEnd + size; end += slide) {
                countByWindow.merge(keys[i] + "@" + end, 1L, Long::sum);
            }
        }
        assertThat(windows.results()).isEqualTo(countByWindow.size());
        assertThat(windows.tally()).isEqualTo(countByWindow.values().stream().mapToLong(Long::longValue).sum())
                .isEqualTo(events * (size / slide));
    }
}
