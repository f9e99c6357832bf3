package io.streamgrid.jobs.event;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class EventRecordTest {
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[EventRecord.LENGTH * 2]);
    private final EventRecord writer = new EventRecord().wrapForWrite(buffer, EventRecord.LENGTH);
    private final EventRecord reader = new EventRecord().wrap(buffer, EventRecord.LENGTH);

    @Test
    void when_requestWritten_then_everyFieldReadsBack() {
        writer.request(1_000L, 7, 0x0A000001, 0xC0A80003, 512, 404);

        assertThat(reader.type()).isEqualTo(EventType.REQUEST);
        assertThat(reader.key()).isEqualTo(0x0A000001L);
        assertThat(EventRecord.ipToString(reader.key())).isEqualTo("10.0.0.1");
        assertThat(reader.timestamp()).isEqualTo(1_000L);
        assertThat(reader.sequence()).isEqualTo(7);
        assertThat(reader.requestDestination()).isEqualTo(0xC0A80003);
        assertThat(reader.requestBytes()).isEqualTo(512);
        assertThat(reader.requestStatus()).isEqualTo((short) 404);
        assertThat(reader.validate()).isNull();
    }

    @Test
    void when_highIpWritten_then_keyIsUnsigned() {
        writer.request(1, 1, 0xC0A80001, 0, 1, 200);

        assertThat(reader.key()).isEqualTo(0xC0A80001L).isPositive();
        assertThat(EventRecord.ipToString(reader.key())).isEqualTo("192.168.0.1");
        assertThat(EventRecord.parseIp("192.168.0.1")).isEqualTo(0xC0A80001L);
    }

    @Test
    void when_otherTypesWritten_then_fieldsReadBack() {
        writer.sensor(5, 1, 17, SensorKind.TEMPERATURE, 61.5);
        assertThat(reader.type()).isEqualTo(EventType.SENSOR);
        assertThat(reader.key()).isEqualTo(17);
        assertThat(reader.sensorKind()).isEqualTo(SensorKind.TEMPERATURE);
        assertThat(reader.sensorValue()).isEqualTo(61.5);

        writer.click(6, 2, 42, 1001, 3, EventRecord.ACTION_PURCHASE);
        assertThat(reader.type()).isEqualTo(EventType.CLICK);
        assertThat(reader.clickItem()).isEqualTo(1001);
        assertThat(reader.clickCategory()).isEqualTo(3);
        assertThat(reader.clickAction()).isEqualTo(EventRecord.ACTION_PURCHASE);

        writer.transaction(7, 3, 42, 1999);
        assertThat(reader.type()).isEqualTo(EventType.TRANSACTION);
        assertThat(reader.transactionAmountCents()).isEqualTo(1999);
    }

    @Test
    void when_recordIsBad_then_validateSaysWhy() {
        writer.request(1, 1, 1, 1, 1, 200);
        buffer.putByte(EventRecord.LENGTH, (byte) 99);
        assertThat(reader.validate()).isEqualTo("unknown event type code 99");

        writer.request(1, 1, 1, 1, 1, 999);
        assertThat(reader.validate()).contains("HTTP status out of range: 999");

        writer.sensor(1, 1, 1, SensorKind.PRESSURE, Double.NaN);
        assertThat(reader.validate()).contains("not finite");

        writer.request(-5, 1, 1, 1, 1, 200);
        assertThat(reader.validate()).contains("negative event timestamp -5");
    }

    @Test
    void when_textIsNoIp_then_parseIpIsNull() {
        assertThat(EventRecord.parseIp("10.0.0")).isNull();
        assertThat(EventRecord.parseIp("10.0.0.256")).isNull();
        assertThat(EventRecord.parseIp("a.b.c.d")).isNull();
    }
}
