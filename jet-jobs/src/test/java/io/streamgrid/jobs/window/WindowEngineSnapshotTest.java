package io.streamgrid.jobs.window;

import io.streamgrid.jobs.window.impl.WindowListener;
import io.streamgrid.jobs.window.impl.WindowEngine;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.EventGenerator;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.window.impl.CopyableOutput;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
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
        final List<byte[]> events = disorderedClicks();
        final Collector uninterrupted = uninterrupted(policy, events);

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

    /**
     * The sliding engine keeps each sealed slice's encoding between snapshots written to a
     * {@link CopyableOutput} and copies it into the next: every such snapshot of one engine, taken
     * every hundredth of a stream with late events, must equal the same state encoded afresh (through a
     * plain output), and restoring it must end where the uninterrupted engine ends.
     */
    @Test
    void when_slidingEngineSnapshottedRepeatedlyWithLateEvents_then_eachSnapshotEqualsAFreshEncodingAndRestores()
            throws IOException {
        final WindowPolicy policy = new WindowPolicy(WindowDefinition.sliding(300_000, 60_000), 2_000, 30_000);
        final List<byte[]> events = disorderedClicks();
        final Collector uninterrupted = uninterrupted(policy, events);

        final Collector running = new Collector();
        final WindowEngine<Counter> snapshotted = WindowEngine.create(policy, new Counter.Counting(), running);
        // A snapshot every 40 s of event time, while a slice lives 330 s: each kept encoding is copied
        // into several later snapshots, and late events (up to 200 s) change slices already kept.
        final int parts = 100;
        long copiedBytes = 0;
        for (int part = 1; part < parts; part++) {
            final int upTo = events.size() * part / parts;
            feed(snapshotted, events, events.size() * (part - 1) / parts, upTo);
            final CopyingOutput kept = new CopyingOutput();
            snapshotted.writeState(kept);
            final ByteArrayOutputStream fresh = new ByteArrayOutputStream();
            snapshotted.writeState(new DataOutputStream(fresh));
            assertThat(kept.toByteArray()).as("snapshot %d of %d", part, parts - 1).isEqualTo(fresh.toByteArray());
            copiedBytes += kept.copied;

            assertRestoresToUninterrupted(policy, kept.toByteArray(), events, upTo, running, uninterrupted, part);
        }
        assertThat(copiedBytes).as("bytes of slices kept for a later snapshot").isPositive();
        assertThat(uninterrupted.late).isNotEmpty();
    }

    /**
     * When event time moves further than a window between two snapshots (a job replaying a backlog),
     * every slice a snapshot holds is new since the previous one. The engine then encodes each slice
     * as the window moves over it, not at the snapshot: the snapshots must still equal a fresh
     * encoding and restore exactly, while the accumulators written during the snapshots themselves
     * are a small part of those a fresh encoding writes.
     */
    @Test
    void when_eventTimeOutrunsTheWindowBetweenSnapshots_then_slicesAreEncodedAheadAndSnapshotsStayExact()
            throws IOException {
        // A 20 s window sliding by 1 s, 5 s of lateness; a snapshot every 40 s of event time.
        final WindowPolicy policy = new WindowPolicy(WindowDefinition.sliding(20_000, 1_000), 2_000, 5_000);
        final List<byte[]> events = disorderedClicks();
        final Collector uninterrupted = uninterrupted(policy, events);

        final Collector running = new Collector();
        final CountingVariant counting = new CountingVariant(true, true);
        final WindowEngine<Counter> snapshotted = WindowEngine.create(policy, counting, running);
        final int parts = 100;
        long writtenAtSnapshots = 0;
        long writtenFresh = 0;
        for (int part = 1; part < parts; part++) {
            final int upTo = events.size() * part / parts;
            feed(snapshotted, events, events.size() * (part - 1) / parts, upTo);
            final long beforeKept = counting.writes;
            final CopyingOutput kept = new CopyingOutput();
            snapshotted.writeState(kept);
            writtenAtSnapshots += counting.writes - beforeKept;
            final long beforeFresh = counting.writes;
            final ByteArrayOutputStream fresh = new ByteArrayOutputStream();
            snapshotted.writeState(new DataOutputStream(fresh));
            writtenFresh += counting.writes - beforeFresh;
            assertThat(kept.toByteArray()).as("snapshot %d of %d", part, parts - 1).isEqualTo(fresh.toByteArray());

            assertRestoresToUninterrupted(policy, kept.toByteArray(), events, upTo, running, uninterrupted, part);
        }
        System.out.printf("accumulators written during %d snapshots: %d; a fresh encoding of each writes %d%n",
                parts - 1, writtenAtSnapshots, writtenFresh);
        assertThat(writtenFresh).isPositive();
        assertThat(writtenAtSnapshots).as("accumulators encoded at the snapshots rather than ahead of them")
                .isLessThan(writtenFresh / 3);
        assertThat(uninterrupted.late).isNotEmpty();
    }

    /**
     * When a slice holds most of a partition's keys (a busy partition, a short slide: the exactly-once
     * benchmark's shape), its keys are written as a bitmap over the engine's key numbers: a snapshot
     * then takes under 1.5 bytes per (key, slice) entry with one-byte counts. Keys written one by
     * one, as differences in the slice map's order, took about 3. The entries are counted from the
     * events, independently of the engine.
     */
    @Test
    void when_slicesHoldMostKeys_then_aSnapshotTakesUnderOneAndAHalfBytesPerEntryAndRestores() throws IOException {
        // 2,000 keys, 40,000 events a second for 5 s, 100 ms slices of a 10 s window: nothing expires,
        // and a slice holds about 4,000 events over some 1,700 keys.
        final WindowPolicy policy = new WindowPolicy(WindowDefinition.sliding(10_000, 100), 0, 0);
        final List<byte[]> events = events(GeneratorSpec.of(EventType.CLICK, 7, 200_000, 2_000).withRate(40_000));
        final Set<String> entries = new HashSet<>();
        final SchemaRecord record = new SchemaRecord(EventType.CLICK.schema().layout());
        for (final byte[] event : events) {
            record.wrap(new UnsafeBuffer(event), 0, event.length);
            entries.add(record.keyLong() + "@" + Math.floorDiv(record.eventTime(), 100));
        }
        final Collector running = new Collector();
        final WindowEngine<Counter> engine = WindowEngine.create(policy, new Counter.Counting(), running);
        feed(engine, events, 0, events.size());
        final ByteArrayOutputStream snapshot = new ByteArrayOutputStream();
        engine.writeState(new DataOutputStream(snapshot));

        final double bytesPerEntry = (double) snapshot.size() / entries.size();
        System.out.printf("snapshot of %,d slice entries: %,d bytes, %.2f a entry%n", entries.size(), snapshot.size(),
                bytesPerEntry);
        assertThat(entries.size()).as("(key, slice) entries").isGreaterThan(80_000);
        assertThat(bytesPerEntry).as("snapshot bytes per (key, slice) entry").isLessThan(1.5);
        assertRestoresToUninterrupted(policy, snapshot.toByteArray(), events, events.size(), running,
                uninterrupted(policy, events), 1);
    }

    /**
     * Restores {@code snapshot}, taken after the first {@code upTo} events, into a fresh engine whose
     * sink starts as {@code running} was then, feeds it the rest: it must end as the uninterrupted engine.
     */
    private static void assertRestoresToUninterrupted(final WindowPolicy policy, final byte[] snapshot,
                                                      final List<byte[]> events, final int upTo, final Collector running,
                                                      final Collector uninterrupted, final int part) throws IOException {
        final Collector resumed = running.copy();
        final WindowEngine<Counter> restored = WindowEngine.create(policy, new Counter.Counting(), resumed);
        restored.readState(new DataInputStream(new ByteArrayInputStream(snapshot)));
        feed(restored, events, upTo, events.size());
        restored.onEndOfStream();
        assertThat(resumed.state).as("restored from snapshot %d", part).isEqualTo(uninterrupted.state);
        assertThat(resumed.late).as("restored from snapshot %d", part).isEqualTo(uninterrupted.late);
    }

    /** A plain output whose bytes can be copied, as the job's snapshot output's can. */
    private static final class CopyingOutput extends DataOutputStream implements CopyableOutput {
        long copied;

        CopyingOutput() {
            super(new ByteArrayOutputStream());
        }

        @Override
        public int length() {
            return size();
        }

        @Override
        public byte[] copy(final int from, final int to) {
            copied += to - from;
            return Arrays.copyOfRange(toByteArray(), from, to);
        }

        byte[] toByteArray() {
            return ((ByteArrayOutputStream) out).toByteArray();
        }
    }

    /** 20,000 clicks at 5 a second over 200 keys, up to 2 s out of order, 5 % late by up to 200 s. */
    private static List<byte[]> disorderedClicks() {
        return events(GeneratorSpec.of(EventType.CLICK, 21, 20_000, 200).withRate(5).withDisorder(2_000, 0.05, 200_000));
    }

    /** What one engine fed every event without a break leaves in a sink. */
    private static Collector uninterrupted(final WindowPolicy policy, final List<byte[]> events) {
        final Collector uninterrupted = new Collector();
        final WindowEngine<Counter> whole = WindowEngine.create(policy, new Counter.Counting(), uninterrupted);
        feed(whole, events, 0, events.size());
        whole.onEndOfStream();
        return uninterrupted;
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

        Collector copy() {
            final Collector copy = new Collector();
            copy.state.putAll(state);
            copy.late.addAll(late);
            return copy;
        }

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
