package io.streamgrid.jobs.window;

import io.streamgrid.jobs.window.impl.WindowListener;
import io.streamgrid.jobs.window.impl.WindowEngine;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.EventGenerator;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Design of this test: the sliding engine alone (no Jet), fed generated out-of-order streams with
 * late events, with a deducting aggregation (counting: the incremental path) and a non-deducting
 * one (the same count without deduct: the rebuild path), both reusing the accumulators of dropped
 * slices. Final count per window and the late side output must equal the brute-force oracle's;
 * every window's results come with update sequences 1, 2, 3...; nothing is held after the end of
 * the stream. Sizes include a 500-slice window and a lateness that is not a multiple of the slide.
 */
class SlidingWindowEngineTest {

    @ParameterizedTest(name = "size {0}, slide {1}, disorder {2}, lateness {3}, deducting {4}")
    @CsvSource({
        "10000, 20, 0, 0, true",
        "10000, 20, 0, 0, false",
        "300000, 60000, 2000, 30000, true",
        "600000, 60000, 5000, 60000, true",
        "600000, 60000, 5000, 60000, false",
        "1000, 100, 350, 250, true",
        "1000, 100, 350, 250, false",
        "60000, 60000, 2000, 30000, true"})
    void when_outOfOrderStreamWithLateEvents_then_windowsAndLateOutputEqualOracle(
            final long size, final long slide, final long disorder, final long lateness, final boolean deducting) {
        final GeneratorSpec spec = GeneratorSpec.of(EventType.CLICK, size + slide + lateness, 20_000, 50)
                .withRate(size / slide > 100 ? 2_000 : 20).withDisorder(disorder, 0.03, 4 * size);
        final List<byte[]> events = new ArrayList<>();
        final List<WindowOracle.Event> oracleEvents = new ArrayList<>();
        new EventGenerator(spec).generate(r -> {
            final byte[] copy = new byte[r.length()];
            r.buffer().getBytes(r.offset(), copy);
            events.add(copy);
            oracleEvents.add(new WindowOracle.Event(0, r.keyLong(), r.eventTime(), r.sequence(), null));
        });
        final WindowOracle.Result oracle = WindowOracle.sliding(oracleEvents, size, slide, disorder, lateness);

        final Results results = new Results();
        final WindowAggregation<Counter> aggregation = deducting ? new Counter.Counting() : new CountingVariant(false, true);
        final WindowEngine<Counter> engine = WindowEngine.create(new WindowPolicy(WindowDefinition.sliding(size, slide),
                disorder, lateness), aggregation, results);
        final SchemaRecord record = new SchemaRecord(EventType.CLICK.schema().layout());
        for (final byte[] event : events) {
            engine.onEvent(record.wrap(new UnsafeBuffer(event), 0, event.length));
        }
        engine.onEndOfStream();

        final Map<String, Long> expected = new HashMap<>();
        oracle.windows().forEach((id, accepted) -> expected.put(id.key() + "@" + id.start(), (long) accepted.size()));
        assertThat(results.countByWindow).isEqualTo(expected);
        assertThat(results.late).isEqualTo(new TreeSet<>(oracle.lateSequences()));
        assertThat(results.sequenceErrors).isEmpty();
        assertThat(engine.keyCount()).as("state held after the end").isZero();
        if (lateness > 0) {
            assertThat(results.corrections).as("late data corrected some windows").isPositive();
        }
    }

    /** The final count per window, and checks of the update sequences. */
    private static final class Results implements WindowListener<Counter> {
        final Map<String, Long> countByWindow = new HashMap<>();
        final Map<String, Integer> lastSequence = new HashMap<>();
        final TreeSet<Long> late = new TreeSet<>();
        final List<String> sequenceErrors = new ArrayList<>();
        long corrections;

        @Override
        public void onWindow(final long key, final long start, final long end, final Counter value, final int sequence,
                             final boolean afterWatermark) {
            final String window = key + "@" + start;
            final int previous = lastSequence.getOrDefault(window, 0);
            if (sequence != previous + 1) {
                sequenceErrors.add(window + ": sequence " + sequence + " after " + previous);
            }
            if (sequence > 1) {
                corrections++;
            }
            lastSequence.put(window, sequence);
            countByWindow.put(window, value.value());
        }

        @Override
        public void onRetract(final long key, final long start) {
            throw new AssertionError("sliding windows never retract");
        }

        @Override
        public void onLate(final SchemaRecord event, final long watermark, final String reason) {
            late.add(event.sequence());
        }
    }
}
