package io.streamgrid.sink.impl;

import io.streamgrid.sink.CqlType;
import io.streamgrid.sink.TableSpec;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An epoch's writes kept as bytes, against an oracle of row objects in a map (what the sink kept
 * before): the last write of a key wins, every partition is handed over once with all its rows, and
 * a transaction's bytes read back to the same rows.
 */
class EpochWritesTest {
    private static final TableSpec TABLE = new TableSpec("ks", "activity", List.of(
            new TableSpec.Column("region", CqlType.TEXT), new TableSpec.Column("day", CqlType.INT),
            new TableSpec.Column("user", CqlType.BIGINT), new TableSpec.Column("score", CqlType.DOUBLE),
            new TableSpec.Column("active", CqlType.BOOLEAN), new TableSpec.Column("note", CqlType.TEXT)),
            List.of("region", "day"), List.of("user"));
    private static final int PARTITION_KEY_LENGTH = 2;

    @Test
    void when_keysWrittenAndDeletedRepeatedly_then_theLastWriteOfEachKeyIsKeptOnce_andPartitionsAreHandedOverWhole() {
        final SplittableRandom random = new SplittableRandom(7);
        final EpochWrites writes = new EpochWrites(TABLE);
        final Map<List<Object>, RowWrite> oracle = new LinkedHashMap<>();
        for (int i = 0; i < 50_000; i++) {
            final String region = "region-" + random.nextInt(30);
            final int day = random.nextInt(20);
            final long user = random.nextLong(50);
            final RowWrite write = random.nextInt(10) == 0
                    ? RowWrite.deletion(new Object[] {region, day, user})
                    : RowWrite.upsert(new Object[] {region, day, user, random.nextInt(5) == 0 ? Double.NaN : random.nextDouble(),
                            random.nextBoolean(), random.nextInt(4) == 0 ? null : "note " + i});
            writes.add(write);
            oracle.put(List.of(region, day, user), write);
        }

        assertThat(writes.size()).isEqualTo(oracle.size());
        assertThat(rendered(writes.rows())).containsExactlyInAnyOrderElementsOf(rendered(oracle.values()));

        final Map<List<Object>, List<String>> expectedPartitions = new HashMap<>();
        for (final Map.Entry<List<Object>, RowWrite> entry : oracle.entrySet()) {
            expectedPartitions.computeIfAbsent(entry.getKey().subList(0, PARTITION_KEY_LENGTH), k -> new ArrayList<>())
                    .add(render(entry.getValue()));
        }
        final Set<List<Object>> seen = new HashSet<>();
        final int[] handed = new int[1];
        writes.forEachPartition(partition -> {
            final List<Object> partitionKey = List.of(partition.get(0).values()[0], partition.get(0).values()[1]);
            assertThat(seen.add(partitionKey)).as("partition %s handed over once", partitionKey).isTrue();
            assertThat(rendered(partition)).containsExactlyInAnyOrderElementsOf(expectedPartitions.get(partitionKey));
            handed[0] += partition.size();
        });
        assertThat(seen).isEqualTo(expectedPartitions.keySet());
        assertThat(handed[0]).isEqualTo(oracle.size());

        writes.clear();
        assertThat(writes.isEmpty()).isTrue();
        writes.add(RowWrite.deletion(new Object[] {"region-1", 1, 1L}));
        assertThat(rendered(writes.rows())).containsExactly("delete [region-1, 1, 1]");
    }

    /**
     * A hot key rewritten a million times in one epoch: before, every superseded record stayed in
     * the epoch's bytes until the commit (about 40 MB here); now the bytes are compacted once
     * superseded records outweigh the live ones, and what is kept stays the last write of each key.
     */
    @Test
    void when_aHotKeyIsRewrittenMillionsOfTimes_then_theEpochHoldsAboutItsLiveRowsOnly() {
        final EpochWrites writes = new EpochWrites(TABLE);
        final Map<List<Object>, RowWrite> oracle = new LinkedHashMap<>();
        for (int i = 0; i < 1_000_000; i++) {
            final long user = i % 1_000 == 0 ? i : 7; // a few cold keys among the hot one
            final RowWrite write = RowWrite.upsert(new Object[] {"hot", 1, user, (double) i, true, "note " + i});
            writes.add(write);
            oracle.put(List.of("hot", 1, user), write);
        }
        System.out.println("1,000,000 writes of " + oracle.size() + " keys: " + writes.bytesHeld() + " bytes held");
        assertThat(writes.bytesHeld()).as("bytes held").isLessThan(4 << 20);
        assertThat(writes.size()).isEqualTo(oracle.size());
        assertThat(rendered(writes.rows())).containsExactlyInAnyOrderElementsOf(rendered(oracle.values()));
        writes.add(RowWrite.deletion(new Object[] {"hot", 1, 7L}));
        assertThat(writes.size()).as("a delete after the compaction replaces the live record").isEqualTo(oracle.size());
    }

    @Test
    void when_cutIntoPartsAndReadBack_then_theSameRowsEachPartWithinItsBound_andTheCopyRefusesMoreWrites() {
        final EpochWrites writes = new EpochWrites(TABLE);
        writes.add(RowWrite.upsert(new Object[] {"eu", 1, 10L, 0.5, true, "first"}));
        writes.add(RowWrite.upsert(new Object[] {"eu", 1, 10L, -0.0, false, null}));
        writes.add(RowWrite.deletion(new Object[] {"eu", 2, 11L}));
        for (long user = 0; user < 40; user++) {
            writes.add(RowWrite.upsert(new Object[] {"us", 3, user, 1.0 * user, true, "note " + user}));
        }
        writes.add(RowWrite.upsert(new Object[] {"üñï", Integer.MIN_VALUE, Long.MAX_VALUE, Double.MAX_VALUE, true, "x".repeat(70_000)}));

        final int headroom = 20;
        final List<byte[]> parts = writes.liveBytesInParts(headroom, 300);
        final EpochWrites copy = EpochWrites.restoring(TABLE);
        for (final byte[] part : parts) {
            if (part.length > 300) {
                assertThat(part.length).as("only the one 70,000-character row outgrows a part, alone").isGreaterThan(70_000);
            }
            copy.appendRestored(part, headroom, part.length - headroom);
        }

        assertThat(parts).as("42 rows of 30-60 bytes in parts of 280").hasSizeGreaterThan(5);
        assertThat(copy.size()).isEqualTo(43);
        assertThat(rendered(copy.rows())).containsExactlyInAnyOrderElementsOf(rendered(writes.rows()));
        assertThat(rendered(copy.rows())).contains(render(RowWrite.upsert(new Object[] {"eu", 1, 10L, -0.0, false, null})));
        assertThatThrownBy(() -> copy.add(RowWrite.deletion(new Object[] {"eu", 1, 10L})))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> writes.appendRestored(parts.get(0), headroom, 1)).isInstanceOf(IllegalStateException.class);
        assertThat(new EpochWrites(TABLE).liveBytesInParts(headroom, 300)).as("no rows: one part, its header only")
                .hasSize(1).allSatisfy(part -> assertThat(part).hasSize(headroom));
    }

    @Test
    void when_transactionRoundTripsThroughItsSnapshotParts_then_headerAndRowsAreKept_andAMissingPartOrAnotherFormatIsRefused() {
        final EpochWrites writes = new EpochWrites(TABLE);
        for (long user = 0; user < 30; user++) {
            writes.add(RowWrite.upsert(new Object[] {"eu", 1, user, 0.5, true, "n" + user}));
        }
        final RowCodec.Txn txn = new RowCodec.Txn("job-sink-0-3", 0, 3, 42_000L, writes);
        final List<byte[]> parts = RowCodec.encode(txn, 200);
        assertThat(parts).hasSizeGreaterThan(3).allSatisfy(part -> assertThat(part.length).isLessThanOrEqualTo(200));

        RowCodec.Restoring restoring = null;
        for (int i = parts.size() - 1; i >= 0; i--) { // a restore hands parts over in any order
            final RowCodec.Part part = RowCodec.decode(parts.get(i));
            assertThat(part.index()).isEqualTo(i);
            if (restoring == null) {
                restoring = new RowCodec.Restoring(part, TABLE);
            }
            restoring.add(part, parts.get(i));
        }
        final RowCodec.Txn decoded = restoring.whole();
        assertThat(decoded.id()).isEqualTo("job-sink-0-3");
        assertThat(decoded.epoch()).isEqualTo(3);
        assertThat(decoded.timestampMicros()).isEqualTo(42_000L);
        assertThat(rendered(decoded.rows().rows())).containsExactlyInAnyOrderElementsOf(rendered(writes.rows()));

        final RowCodec.Part first = RowCodec.decode(parts.get(0));
        final RowCodec.Restoring short1 = new RowCodec.Restoring(first, TABLE);
        short1.add(first, parts.get(0));
        assertThatThrownBy(short1::whole).hasMessageContaining("job-sink-0-3").hasMessageContaining("1 of its " + parts.size() + " parts");
        assertThatThrownBy(() -> short1.add(first, parts.get(0))).hasMessageContaining("part 0 twice");

        final byte[] older = parts.get(0).clone();
        older[3] = 3; // the format number's last byte: a transaction written two builds ago
        assertThatThrownBy(() -> RowCodec.decode(older)).hasMessageContaining("format 3");
    }

    /** The previous build wrote a transaction as one entry (format 4): a job resumed from such a snapshot commits it whole. */
    @Test
    void when_transactionWasSavedWholeByThePreviousBuild_then_itIsReadAsOnePart() throws Exception {
        final EpochWrites writes = new EpochWrites(TABLE);
        for (long user = 0; user < 30; user++) {
            writes.add(RowWrite.upsert(new Object[] {"eu", 1, user, 0.5, true, "n" + user}));
        }
        final byte[] rows = writes.liveBytesInParts(0, Integer.MAX_VALUE).get(0);
        final ByteArrayOutputStream entry = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(entry)) {
            out.writeInt(4);
            out.writeUTF("job-sink-1-7");
            out.writeInt(1);
            out.writeLong(7);
            out.writeLong(77_000L);
            out.writeInt(rows.length);
            out.write(rows);
        }
        final byte[] data = entry.toByteArray();

        final RowCodec.Part part = RowCodec.decode(data);
        final RowCodec.Restoring restoring = new RowCodec.Restoring(part, TABLE);
        restoring.add(part, data);
        final RowCodec.Txn txn = restoring.whole();
        assertThat(List.of(txn.id(), txn.processorIndex(), txn.epoch(), txn.timestampMicros()))
                .containsExactly("job-sink-1-7", 1, 7L, 77_000L);
        assertThat(rendered(txn.rows().rows())).containsExactlyInAnyOrderElementsOf(rendered(writes.rows()));
        assertThatThrownBy(() -> RowCodec.decode(Arrays.copyOf(data, data.length - 1)))
                .hasMessageContaining("corrupt");
    }

    private static List<String> rendered(final Iterable<RowWrite> rows) {
        final List<String> out = new ArrayList<>();
        rows.forEach(row -> out.add(render(row)));
        return out;
    }

    private static String render(final RowWrite row) {
        return (row.delete() ? "delete " : "upsert ") + Arrays.toString(row.values());
    }
}
