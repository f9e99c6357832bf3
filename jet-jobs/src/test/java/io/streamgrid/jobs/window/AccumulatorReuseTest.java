package io.streamgrid.jobs.window;

import io.streamgrid.jobs.window.impl.WindowListener;
import io.streamgrid.jobs.window.impl.WindowEngine;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.EventGenerator;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Sliding and tumbling engines reuse the accumulators of dropped slices (and of emitted windows
 * they built) when the aggregation can {@link WindowAggregation#reset reset} them: over a stream of
 * thousands of slices they create about as many accumulators as are alive at once, not one per key
 * and slice — and every result, corrections and late events included, equals the same engine's with
 * fresh accumulators throughout.
 */
class AccumulatorReuseTest {
    private static final int KEYS = 50;

    @ParameterizedTest(name = "size {0}, slide {1}, lateness {2}, deducting {3}")
    @CsvSource({
        "1000, 100, 0, true",
        "1000, 100, 250, true",
        "1000, 100, 250, false",
        "500, 500, 250, false"})
    void when_aggregationResets_then_accumulatorsAreReusedAndResultsEqualFreshOnes(
            final long size, final long slide, final long lateness, final boolean deducting) {
        final List<byte[]> events = new ArrayList<>();
        // 10 events a second per key: most keys have an event in most 100 ms slices, for 400 s of event time.
        new EventGenerator(GeneratorSpec.of(EventType.CLICK, 17, 200_000, KEYS).withRate(500)
                .withDisorder(300, 0.02, 2_000)).generate(r -> {
                    final byte[] copy = new byte[r.length()];
                    r.buffer().getBytes(r.offset(), copy);
                    events.add(copy);
                });
        final WindowPolicy policy = new WindowPolicy(WindowDefinition.sliding(size, slide), 300, lateness);

        final CountingVariant fresh = new CountingVariant(deducting, false);
        final Results freshResults = run(policy, fresh, events);
        final CountingVariant reused = new CountingVariant(deducting, true);
        final Results reusedResults = run(policy, reused, events);

        assertThat(reusedResults.countByWindow).as("every window's last result").isEqualTo(freshResults.countByWindow);
        assertThat(reusedResults.emitted).as("results emitted, corrections included").isEqualTo(freshResults.emitted);
        assertThat(reusedResults.late).as("late events").isEqualTo(freshResults.late);
        assertThat(freshResults.late).as("the stream has late events").isPositive();
        final long slicesInStream = 400_000 / slide;
        assertThat(fresh.creates).as("without reuse: about one accumulator per key and slice")
                .isGreaterThan(KEYS * slicesInStream / 2);
        // Alive at once: a window's slices, those kept for lateness and the running window, per key.
        final long aliveAtOnce = KEYS * ((size + lateness + 300) / slide + 3);
        assertThat(reused.creates).as("with reuse: about as many as are alive at once").isLessThanOrEqualTo(aliveAtOnce);
    }

    private static Results run(final WindowPolicy policy, final WindowAggregation<Counter> aggregation,
                               final List<byte[]> events) {
        final Results results = new Results();
        final WindowEngine<Counter> engine = WindowEngine.create(policy, aggregation, results);
        final SchemaRecord record = new SchemaRecord(EventType.CLICK.schema().layout());
        for (final byte[] event : events) {
            engine.onEvent(record.wrap(new UnsafeBuffer(event), 0, event.length));
        }
        engine.onEndOfStream();
        return results;
    }

    private static final class Results implements WindowListener<Counter> {
        final Map<String, Long> countByWindow = new HashMap<>();
        long emitted;
        long late;

        @Override
        public void onWindow(final long key, final long start, final long end, final Counter value, final int sequence,
                             final boolean afterWatermark) {
            countByWindow.put(key + "@" + start, value.value());
            emitted++;
        }

        @Override
        public void onRetract(final long key, final long start) {
            throw new AssertionError("sliding windows never retract");
        }

        @Override
        public void onLate(final SchemaRecord event, final long watermark, final String reason) {
            late++;
        }
    }
}
