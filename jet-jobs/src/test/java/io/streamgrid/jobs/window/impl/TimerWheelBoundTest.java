package io.streamgrid.jobs.window.impl;

import io.streamgrid.jobs.event.BuiltInEvents;
import io.streamgrid.jobs.event.ClickAction;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.window.Counter;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.impl.WindowListener;
import io.streamgrid.jobs.window.WindowPolicy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The timer wheel holds what is due, not a history of every event: registrations and spare sets stay bounded. */
class TimerWheelBoundTest {
    private final BuiltInEvents record = new BuiltInEvents();
    private final List<String> emitted = new ArrayList<>();
    private final WindowListener<Counter> listener = new WindowListener<>() {
        @Override
        public void onWindow(final long key, final long start, final long end, final Counter value, final int updateSequence,
                             final boolean afterWatermark) {
            emitted.add(key + "@" + start + "=" + value.value() + "#" + updateSequence);
        }

        @Override
        public void onRetract(final long key, final long start) {
            emitted.add("retract " + key + "@" + start);
        }

        @Override
        public void onLate(final SchemaRecord event, final long watermark, final String reason) {
            emitted.add("late " + event.sequence());
        }
    };

    private void click(final SessionWindowEngine<Counter> engine, final long user, final long timestamp, final long sequence) {
        engine.onEvent(record.click(timestamp, sequence, user, 1, 1, ClickAction.CLICK));
    }

    @Test
    void when_oneLongSessionKeepsGrowing_then_itsKeyHoldsOneRegistration() {
        final SessionWindowEngine<Counter> engine = new SessionWindowEngine<>((WindowDefinition.Session) WindowDefinition.session(30_000),
                new WindowPolicy(WindowDefinition.session(30_000), 1_000, 60_000), new Counter.Counting(), listener);

        for (int i = 0; i < 10_000; i++) {
            click(engine, 42, 1_000_000 + i * 10L, i);
        }

        assertThat(engine.wheelRegistrations()).as("registrations after 10,000 events extending one session").isLessThanOrEqualTo(2);
        engine.onEndOfStream();
        assertThat(emitted).containsExactly("42@1000000=10000#1");
        assertThat(engine.keyCount()).isZero();
    }

    @Test
    void when_manyKeysEachWithManySessions_then_registrationsStayAtMostOnePerKeyPlusStale() {
        final SessionWindowEngine<Counter> engine = new SessionWindowEngine<>((WindowDefinition.Session) WindowDefinition.session(1_000),
                new WindowPolicy(WindowDefinition.session(1_000), 0, 5_000), new Counter.Counting(), listener);
        long sequence = 0;
        for (long t = 0; t < 200_000; t += 100) {
            for (long user = 0; user < 20; user++) {
                click(engine, user, t + user, sequence++);
            }
            assertThat(engine.wheelRegistrations()).as("at time " + t).isLessThanOrEqualTo(2 * 20);
        }
        engine.onEndOfStream();
        assertThat(engine.keyCount()).isZero();
    }

    @Test
    void when_manyDistinctDueTimesPass_then_spareKeySetsAreCapped() {
        final SessionWindowEngine<Counter> engine = new SessionWindowEngine<>((WindowDefinition.Session) WindowDefinition.session(10),
                new WindowPolicy(WindowDefinition.session(10), 100_000, 0), new Counter.Counting(), listener);
        for (int user = 0; user < 5_000; user++) {
            click(engine, user, user * 7L, user); // 5,000 keys due at 5,000 different times, none passed yet
        }
        engine.onEndOfStream();

        assertThat(emitted).hasSize(5_000);
        assertThat(engine.spareKeySetCount()).isLessThanOrEqualTo(AbstractWindowEngine.MAX_SPARE_KEY_SETS);
    }
}
