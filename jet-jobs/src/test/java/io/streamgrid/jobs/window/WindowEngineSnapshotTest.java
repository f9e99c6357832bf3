package io.streamgrid.jobs.window;

import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.EventGenerator;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.usecase.Counter;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A window engine snapshotted mid-stream and restored into a fresh engine must end in exactly the
 * state an uninterrupted engine reaches: same results, same late events — the property exactly-once
 * replay rests on.
 */
class WindowEngineSnapshotTest {

    @ParameterizedTest
    @ValueSource(strings = {"tumbling", "sliding", "session"})
    void when_restoredFromMidStreamSnapshot_then_sameResultsAsUninterrupted(final String kind) throws IOException {
        final WindowPolicy policy = switch (kind) {
            case "tumbling" -> new WindowPolicy(WindowDefinition.tumbling(60_000), 2_000, 30_000);
            case "sliding" -> new WindowPolicy(WindowDefinition.sliding(300_000, 60_000), 2_000, 30_000);
            default -> new WindowPolicy(WindowDefinition.session(90_000), 2_000, 30_000);
        };
        final List<byte[]> events = events(GeneratorSpec.of(EventType.CLICK, 21, 20_000, 200).withRate(5)
                .withDisorder(2_000, 0.05, 200_000));

        final Collector uninterrupted = new Collector();
        final WindowEngine<Counter> whole = WindowEngine.create(policy, new Counter.Counting(), uninterrupted);
        feed(whole, events, 0, events.size());
        whole.onEndOfStream();

        final Collector resumed = new Collector();
        final WindowEngine<Counter> first = WindowEngine.create(policy, new Counter.Counting(), resumed);
        feed(first, events, 0, events.size() / 2);
        final ByteArrayOutputStream snapshot = new ByteArrayOutputStream();
        first.writeState(new DataOutputStream(snapshot));
        final WindowEngine<Counter> second = WindowEngine.create(policy, new Counter.Counting(), resumed);
        second.readState(new DataInputStream(new ByteArrayInputStream(snapshot.toByteArray())));
        assertThat(second.watermark()).isEqualTo(first.watermark());
        assertThat(second.keyCount()).isEqualTo(first.keyCount());
        feed(second, events, events.size() / 2, events.size());
        second.onEndOfStream();

        assertThat(uninterrupted.late).isNotEmpty();
        assertThat(resumed.state).isEqualTo(uninterrupted.state);
        assertThat(resumed.late).isEqualTo(uninterrupted.late);
        assertThat(second.keyCount()).as("everything dropped after the end").isZero();
    }

    private static List<byte[]> events(final GeneratorSpec spec) {
        final List<byte[]> events = new ArrayList<>();
        new EventGenerator(spec).generate(r -> {
            final byte[] copy = new byte[r.length()];
            r.buffer().getBytes(r.offset(), copy);
            events.add(copy);
        });
        return events;
    }

    private static void feed(final WindowEngine<Counter> engine, final List<byte[]> events, final int from, final int to) {
        final SchemaRecord record = new SchemaRecord(EventType.CLICK.schema().layout());
        for (int i = from; i < to; i++) {
            engine.onEvent(record.wrap(new UnsafeBuffer(events.get(i)), 0, events.get(i).length));
        }
    }

    /** The final state a sink would hold: (key@start) → count, with retractions applied. */
    private static final class Collector implements WindowListener<Counter> {
        final Map<String, Long> state = new TreeMap<>();
        final List<Long> late = new ArrayList<>();

        @Override
        public void onWindow(final long key, final long start, final long end, final Counter value, final int seq,
                             final boolean afterWatermark) {
            state.put(key + "@" + start + "-" + end, value.value());
        }

        @Override
        public void onRetract(final long key, final long start) {
            state.keySet().removeIf(k -> k.startsWith(key + "@" + start + "-"));
        }

        @Override
        public void onLate(final SchemaRecord event, final long watermark, final String reason) {
            late.add(event.sequence());
        }
    }
}
