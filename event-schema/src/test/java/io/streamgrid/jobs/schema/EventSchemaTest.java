package io.streamgrid.jobs.schema;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventSchemaTest {
    private static EventSchema.Builder v1(final int version) {
        return EventSchema.builder("reading").version(version).longKey("machine").eventTime("ts").float64("value").string("unit", 8);
    }

    @Test
    void when_schemaIsMalformed_then_refusedNamingTheProblem() {
        assertThatThrownBy(() -> EventSchema.builder("reading").longKey("machine").float64("value").build())
                .hasMessageContaining("event-time field");
        assertThatThrownBy(() -> EventSchema.builder("reading").eventTime("ts").float64("key").build())
                .hasMessageContaining("key field");
        assertThatThrownBy(() -> new EventSchema("reading", 1, "value", "ts",
                java.util.List.of(Field.float64("value"), Field.timestamp("ts"))))
                .hasMessageContaining("key field value must be long or string, is double");
        assertThatThrownBy(() -> v1(1).int32("value").build()).hasMessageContaining("declares field value twice");
        assertThatThrownBy(() -> v1(1).string("note", 0).build()).hasMessageContaining("max-length of 1 to 4096");
        assertThatThrownBy(() -> v1(1).enumOf("state", "ON", "ON").build()).hasMessageContaining("distinct symbols");
        assertThatThrownBy(() -> EventSchema.builder("Bad Name").longKey("k").eventTime("ts").build())
                .hasMessageContaining("schema name 'Bad Name'");
        assertThatThrownBy(() -> Field.int32("x").withDefault("seven")).hasMessageContaining("default of field x: needs an int");
    }

    @Test
    void when_fieldsAreOnlyAppendedWithDefaults_then_compatible() {
        assertThatCode(() -> v1(2).field(Field.bool("calibrated").withDefault(false)).build().checkSuccessorOf(v1(1).build()))
                .doesNotThrowAnyException();
        assertThatCode(() -> v1(1).build().checkSuccessorOf(v1(1).build())).as("the same schema again").doesNotThrowAnyException();
    }

    @Test
    void when_changeWouldMisreadOldRecords_then_refusedNamingTheField() {
        final EventSchema old = v1(1).build();
        assertThatThrownBy(() -> EventSchema.builder("reading").version(2).longKey("machine").eventTime("ts").string("unit", 8)
                .build().checkSuccessorOf(old))
                .isInstanceOf(IncompatibleSchemaException.class).hasMessageContaining("field value was removed");
        assertThatThrownBy(() -> EventSchema.builder("reading").version(2).longKey("machine").eventTime("ts").string("unit", 8)
                .float64("value").build().checkSuccessorOf(old))
                .hasMessageContaining("field value moved");
        assertThatThrownBy(() -> EventSchema.builder("reading").version(2).longKey("machine").eventTime("ts").int64("value")
                .string("unit", 8).build().checkSuccessorOf(old))
                .hasMessageContaining("field value changed from double to long");
        assertThatThrownBy(() -> EventSchema.builder("reading").version(2).longKey("machine").eventTime("ts").float64("value")
                .string("unit", 16).build().checkSuccessorOf(old))
                .hasMessageContaining("field unit changed from string(8) to string(16)");
        assertThatThrownBy(() -> v1(2).bool("calibrated").build().checkSuccessorOf(old))
                .hasMessageContaining("field calibrated was added without a default");
        // The same version changed: what changed is named; a higher version is advised only when it would be enough.
        assertThatThrownBy(() -> v1(1).field(Field.bool("calibrated").withDefault(false)).build().checkSuccessorOf(old))
                .hasMessage("schema reading version 1 adds field calibrated to version 1 already in use: give it version 2");
        assertThatThrownBy(() -> v1(1).bool("calibrated").build().checkSuccessorOf(old))
                .hasMessageContaining("field calibrated was added without a default").hasMessageNotContaining("version 2");
        assertThatThrownBy(() -> EventSchema.builder("reading").longKey("machine").eventTime("ts").float64("value")
                .string("unit", 16).build().checkSuccessorOf(old))
                .hasMessageContaining("field unit changed from string(8) to string(16)").hasMessageNotContaining("higher version");
    }
}
