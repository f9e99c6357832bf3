package io.streamgrid.sink.impl;

import io.streamgrid.sink.CqlType;
import io.streamgrid.sink.TableSpec;
import org.junit.jupiter.api.Test;

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

    @Test
    void when_readBackFromTransactionBytes_then_theSameRows_andTheCopyRefusesMoreWrites() {
        final EpochWrites writes = new EpochWrites(TABLE);
        writes.add(RowWrite.upsert(new Object[] {"eu", 1, 10L, 0.5, true, "first"}));
        writes.add(RowWrite.upsert(new Object[] {"eu", 1, 10L, -0.0, false, null}));
        writes.add(RowWrite.deletion(new Object[] {"eu", 2, 11L}));
        writes.add(RowWrite.upsert(new Object[] {"üñï", Integer.MIN_VALUE, Long.MAX_VALUE, Double.MAX_VALUE, true, "x".repeat(70_000)}));

        final byte[] live = new byte[writes.liveLength()];
        writes.copyLiveBytes(live, 0);
        final EpochWrites copy = EpochWrites.copyOf(TABLE, live, 0, live.length);

        assertThat(copy.size()).isEqualTo(3);
        assertThat(rendered(copy.rows())).containsExactlyInAnyOrderElementsOf(rendered(writes.rows()));
        assertThat(rendered(copy.rows())).contains(render(RowWrite.upsert(new Object[] {"eu", 1, 10L, -0.0, false, null})));
        assertThatThrownBy(() -> copy.add(RowWrite.deletion(new Object[] {"eu", 1, 10L})))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void when_transactionRoundTripsThroughTheSnapshotForm_then_headerAndRowsAreKept_andAnotherFormatIsRefused() {
        final EpochWrites writes = new EpochWrites(TABLE);
        writes.add(RowWrite.upsert(new Object[] {"eu", 1, 10L, 0.5, true, "n"}));
        final byte[] encoded = RowCodec.encode(new RowCodec.Txn("job-sink-0-3", 0, 3, 42_000L, writes));

        final RowCodec.Txn decoded = RowCodec.decode(encoded, TABLE);

        assertThat(decoded.id()).isEqualTo("job-sink-0-3");
        assertThat(decoded.epoch()).isEqualTo(3);
        assertThat(decoded.timestampMicros()).isEqualTo(42_000L);
        assertThat(rendered(decoded.rows().rows())).containsExactly(render(writes.rows().get(0)));
        encoded[3] = 3; // the format number's last byte: a transaction written by the previous build
        assertThatThrownBy(() -> RowCodec.decode(encoded, TABLE))
                .hasMessageContaining("format 3");
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
