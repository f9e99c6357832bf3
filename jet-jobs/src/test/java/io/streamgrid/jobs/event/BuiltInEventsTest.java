package io.streamgrid.jobs.event;

import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class BuiltInEventsTest {
    private final BuiltInEvents events = new BuiltInEvents();

    private static int field(final SchemaRecord record, final String name) {
        return record.layout().indexOf(name);
    }

    @Test
    void when_requestWritten_then_everyFieldOfItsSchemaReadsBack() {
        final SchemaRecord r = events.request(1_000L, 7, 0x0A000001L, 0xC0A80003L, 512, 404);

        assertThat(r.layout().schema()).isEqualTo(EventType.REQUEST.schema());
        assertThat(r.keyLong()).isEqualTo(0x0A000001L);
        assertThat(BuiltInEvents.ipToString(r.keyLong())).isEqualTo("10.0.0.1");
        assertThat(r.eventTime()).isEqualTo(1_000L);
        assertThat(r.sequence()).isEqualTo(7);
        assertThat(r.getLong(field(r, "destination"))).isEqualTo(0xC0A80003L);
        assertThat(r.getInt(field(r, "bytes"))).isEqualTo(512);
        assertThat(r.getInt(field(r, "status"))).isEqualTo(404);
        assertThat(r.validate()).isNull();
    }

    @Test
    void when_highIpWritten_then_keyIsUnsigned() {
        final SchemaRecord r = events.request(1, 1, 0xC0A80001L, 0, 1, 200);

        assertThat(r.keyLong()).isEqualTo(0xC0A80001L).isPositive();
        assertThat(BuiltInEvents.ipToString(r.keyLong())).isEqualTo("192.168.0.1");
        assertThat(BuiltInEvents.parseIp("192.168.0.1")).isEqualTo(0xC0A80001L);
    }

    @Test
    void when_otherTypesWritten_then_fieldsReadBackByName() {
        SchemaRecord r = events.sensor(5, 1, 17, SensorKind.TEMPERATURE, 61.5);
        assertThat(r.keyLong()).isEqualTo(17);
        assertThat(r.getEnum(field(r, "kind"))).isEqualTo("temperature");
        assertThat(r.getDouble(field(r, "value"))).isEqualTo(61.5);

        r = events.click(6, 2, 42, 1001, 3, ClickAction.PURCHASE);
        assertThat(r.getLong(field(r, "item"))).isEqualTo(1001);
        assertThat(r.getInt(field(r, "category"))).isEqualTo(3);
        assertThat(r.getEnum(field(r, "action"))).isEqualTo("purchase");

        r = events.transaction(7, 3, 42, 1999);
        assertThat(r.getLong(field(r, "amount_cents"))).isEqualTo(1999);
        assertThat(r.validate()).isNull();
    }

    @Test
    void when_builtInTypesListed_then_eachIsASchemaFoundByItsName() {
        for (final EventType type : EventType.values()) {
            final SchemaLayout layout = type.schema().layout();
            assertThat(EventType.ofSchema(type.schema().name())).isEqualTo(type);
            assertThat(layout.field(layout.keyIndex()).name()).isIn("ip", "machine", "user");
            assertThat(type.schema().eventTimeField()).isEqualTo("ts");
        }
        assertThat(EventType.ofSchema("trade")).isNull();
    }

    @Test
    void when_textIsNoIp_then_parseIpIsNull() {
        assertThat(BuiltInEvents.parseIp("10.0.0")).isNull();
        assertThat(BuiltInEvents.parseIp("10.0.0.256")).isNull();
        assertThat(BuiltInEvents.parseIp("a.b.c.d")).isNull();
    }
}
