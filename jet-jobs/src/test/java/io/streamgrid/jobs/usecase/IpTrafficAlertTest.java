package io.streamgrid.jobs.usecase;

import io.streamgrid.jobs.window.VarLongs;
import java.io.UncheckedIOException;
import java.io.IOException;
import io.streamgrid.jobs.window.Counter;
import io.streamgrid.jobs.pipeline.ResultHandler;
import io.streamgrid.jobs.pipeline.StateWriter;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class IpTrafficAlertTest {
    private static final long IP = 0x0A000007L;
    private final IpTrafficJob job = new IpTrafficJob(new WindowPolicy(WindowDefinition.tumbling(60_000), 0, 0), 3.0, 100, 3);
    private final Map<String, Object> alerts = new LinkedHashMap<>();
    private final Map<String, Object> windows = new LinkedHashMap<>();
    private final StateWriter out = new StateWriter() {
        @Override
        public void put(final String map, final Object key, final Object value) {
            (map.equals(IpTrafficJob.ALERTS_MAP) ? alerts : windows).put((String) key, value);
        }

        @Override
        public void remove(final String map, final Object key) {
            throw new AssertionError("ip-traffic never removes");
        }
    };

    @Test
    void when_countJumpsAboveFactorTimesBaseline_then_alertWithBaseline() {
        final ResultHandler<Counter> handler = job.newResultHandler();
        for (int minute = 0; minute < 5; minute++) {
            handler.onWindow(IP, minute * 60_000L, (minute + 1) * 60_000L, count(100 + minute), 1, false, out);
        }
        assertThat(alerts).isEmpty();

        handler.onWindow(IP, 300_000, 360_000, count(400), 1, false, out);

        final TrafficAlert alert = (TrafficAlert) alerts.get(IpTrafficJob.windowKey(IP, 300_000));
        assertThat(alert.ip()).isEqualTo("10.0.0.7");
        assertThat(alert.count()).isEqualTo(400);
        assertThat(alert.baselineMean()).isEqualTo(102.0);
        assertThat(alert.baselineStdDev()).isCloseTo(1.58, org.assertj.core.data.Offset.offset(0.01));
        assertThat(windows).hasSize(6);
    }

    @Test
    void when_belowFloorOrTooLittleHistory_then_noAlert() {
        final ResultHandler<Counter> handler = job.newResultHandler();
        handler.onWindow(IP, 0, 60_000, count(10), 1, false, out);
        handler.onWindow(IP, 60_000, 120_000, count(500), 1, false, out); // 50× but only one window of history
        for (int minute = 2; minute < 6; minute++) {
            handler.onWindow(IP, minute * 60_000L, (minute + 1) * 60_000L, count(5), 1, false, out);
        }
        handler.onWindow(IP, 360_000, 420_000, count(90), 1, false, out); // far above baseline, below floor 100

        assertThat(alerts).isEmpty();
    }

    @Test
    void when_correctionArrives_then_windowUpdatedButNoAlertAndBaselineUnchanged() throws Exception {
        final ResultHandler<Counter> handler = job.newResultHandler();
        for (int minute = 0; minute < 3; minute++) {
            handler.onWindow(IP, minute * 60_000L, (minute + 1) * 60_000L, count(100), 1, false, out);
        }
        handler.onWindow(IP, 0, 60_000, count(1_000), 2, true, out);
        assertThat(((IpWindowCount) windows.get(IpTrafficJob.windowKey(IP, 0))).count()).isEqualTo(1_000);
        assertThat(((IpWindowCount) windows.get(IpTrafficJob.windowKey(IP, 0))).corrected()).isTrue();
        assertThat(alerts).isEmpty();

        // The baseline survives a snapshot: a restored handler alerts on the same spike.
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        handler.writeState(new DataOutputStream(bytes));
        final ResultHandler<Counter> restored = job.newResultHandler();
        restored.readState(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        restored.onWindow(IP, 180_000, 240_000, count(301), 1, false, out);
        assertThat(((TrafficAlert) alerts.get(IpTrafficJob.windowKey(IP, 180_000))).baselineMean()).isEqualTo(100.0);
    }

    @Test
    void when_ipSilentLongerThanExpiry_then_itsBaselineIsDroppedAndItStartsAfresh() throws Exception {
        final IpTrafficJob expiring = new IpTrafficJob(job.policy(), 3.0, 100, 3, 600_000);
        final ResultHandler<Counter> handler = expiring.newResultHandler();
        for (int minute = 0; minute < 5; minute++) {
            handler.onWindow(IP, minute * 60_000L, (minute + 1) * 60_000L, count(100), 1, false, out);
            handler.onWindow(IP + 1, minute * 60_000L, (minute + 1) * 60_000L, count(100), 1, false, out);
        }
        // IP + 1 keeps going; IP falls silent after the window starting at 240,000.
        for (int minute = 5; minute < 16; minute++) {
            handler.onWindow(IP + 1, minute * 60_000L, (minute + 1) * 60_000L, count(100), 1, false, out);
            handler.onWatermark((minute + 1) * 60_000L, out);
        }
        assertThat(((IpTrafficJob.Handler) handler).baselines()).as("IP's baseline dropped, IP+1's kept").isEqualTo(1);

        // Survives a snapshot: the restored handler holds the same baselines.
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        handler.writeState(new DataOutputStream(bytes));
        final ResultHandler<Counter> restored = expiring.newResultHandler();
        restored.readState(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertThat(((IpTrafficJob.Handler) restored).baselines()).isEqualTo(1);

        // Back with a spike: no history any more, so no alert (the old baseline would have raised one).
        restored.onWindow(IP, 960_000, 1_020_000, count(1_000), 1, false, out);
        assertThat(alerts).isEmpty();
    }

    /** A count of {@code value}, made as a restore makes one: through the counting aggregation's codec. */
    private static Counter count(final long value) {
        try {
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            VarLongs.writeSigned(new DataOutputStream(bytes), value);
            return new Counter.Counting().read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
