package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchemaGeneratorTest {
    private static final EventSchema TRADE = EventSchema.builder("trade").stringKey("account", 12).eventTime("ts")
            .string("symbol", 6).float64("price").int64("quantity").int32("venue").bool("aggressive")
            .enumOf("side", "BUY", "SELL").timestamp("settles").build();

    private static List<String> generate(final GeneratorSpec spec) {
        final List<String> events = new ArrayList<>();
        new SchemaGenerator(TRADE, spec).generate(record -> {
            assertThat(record.validate()).isNull();
            events.add(record.sequence() + " " + record.getString(0) + " " + record.eventTime() + " " + record.getString(2) + " "
                    + record.getDouble(3) + " " + record.getLong(4) + " " + record.getInt(5) + " " + record.getBoolean(6) + " "
                    + record.getEnum(7) + " " + record.getTimestamp(8));
        });
        return events;
    }

    @Test
    void when_generatedTwiceFromOneSpec_then_sameValidEventsWithinTheSpecsBounds() {
        final GeneratorSpec spec = GeneratorSpec.forSchema(5, 20_000, 300).withRate(1_000).withZipf(0.8)
                .withDisorder(2_000, 0.05, 60_000);

        final List<String> first = generate(spec);
        final List<String> second = generate(spec);

        assertThat(first).hasSize(20_000).isEqualTo(second);
        final Set<String> keys = new HashSet<>();
        int late = 0;
        for (int i = 0; i < first.size(); i++) {
            final String[] fields = first.get(i).split(" ");
            keys.add(fields[1]);
            final long arrival = spec.startTimeMs() + i;
            final long time = Long.parseLong(fields[2]);
            assertThat(time).isLessThanOrEqualTo(arrival).isGreaterThanOrEqualTo(arrival - 2_000 - 60_000);
            late += time < arrival - 2_000 ? 1 : 0;
            assertThat(fields[9]).as("other timestamps follow the event time").isEqualTo(fields[2]);
        }
        assertThat(keys).allMatch(k -> k.startsWith("account-")).hasSizeBetween(200, 300);
        assertThat(late).as("about 5 % late").isBetween(800, 1_200);
    }

    @Test
    void when_stringKeyFieldIsTooShortForTheKeys_then_refusedNamingIt() {
        final EventSchema tiny = EventSchema.builder("tiny").stringKey("id", 2).eventTime("ts").build();
        assertThatThrownBy(() -> new SchemaGenerator(tiny, GeneratorSpec.forSchema(1, 10, 1_000)))
                .hasMessage("string key field id of schema tiny holds at most 2 bytes, too few for 1000 distinct keys");
        final List<String> keys = new ArrayList<>();
        new SchemaGenerator(tiny, GeneratorSpec.forSchema(1, 50, 100)).generate((SchemaRecord r) -> keys.add(r.getString(0)));
        assertThat(keys).as("digits only when the prefix does not fit").allMatch(k -> k.matches("\\d{1,2}"));
    }
}
