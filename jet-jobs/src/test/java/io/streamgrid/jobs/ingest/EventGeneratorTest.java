package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.event.EventType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class EventGeneratorTest {
    @Test
    void when_sameSpecTwice_then_sameEvents() {
        final GeneratorSpec spec = GeneratorSpec.of(EventType.SENSOR, 5, 2_000, 30).withZipf(1.1).withDisorder(500, 0.05, 10_000);

        assertThat(events(spec)).isEqualTo(events(spec));
        assertThat(events(spec)).isNotEqualTo(events(new GeneratorSpec(spec.type(), 6, spec.events(), spec.eventsPerSecond(),
                spec.keys(), spec.zipfExponent(), spec.maxDisorderMs(), spec.lateFraction(), spec.maxLatenessMs(),
                spec.startTimeMs(), spec.hotKeyFraction(), spec.hotKeyPeriodMs())));
    }

    @Test
    void when_disorderAndLatenessSet_then_timestampsStayInTheirBounds() {
        final GeneratorSpec spec = GeneratorSpec.of(EventType.CLICK, 9, 20_000, 100).withRate(1_000).withDisorder(200, 0.1, 5_000);
        final List<String> events = events(spec);
        int late = 0;
        for (int i = 0; i < events.size(); i++) {
            final long arrival = spec.startTimeMs() + i * 1000L / spec.eventsPerSecond();
            final long behind = arrival - Long.parseLong(events.get(i).split(",")[1]);
            assertThat(behind).isBetween(0L, 200L + 5_000L);
            if (behind > 200) {
                late++;
            }
        }
        assertThat(late).isBetween(1_700, 2_300); // 10 % of 20,000, give or take
    }

    @Test
    void when_zipfSkewed_then_firstKeyIsMostFrequent() {
        final List<String> events = events(GeneratorSpec.of(EventType.TRANSACTION, 3, 10_000, 100).withZipf(1.2));
        final long first = events.stream().filter(e -> e.startsWith("0,")).count();
        final long last = events.stream().filter(e -> e.startsWith("99,")).count();
        assertThat(first).isGreaterThan(10 * Math.max(1, last));
    }

    private static List<String> events(final GeneratorSpec spec) {
        final List<String> out = new ArrayList<>();
        new EventGenerator(spec).generate(r -> out.add(r.keyLong() + "," + r.eventTime() + "," + r.sequence()));
        return out;
    }
}
