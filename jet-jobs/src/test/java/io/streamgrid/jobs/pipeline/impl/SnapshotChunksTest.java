package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.sink.SnapshotEntries;
import io.streamgrid.jobs.JobTestSupport;
import com.hazelcast.core.HazelcastInstance;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SnapshotChunksTest {

    /** The chunk size of these tests: a few bytes, so that every state is cut into several. */
    private static final int CHUNK = 256;

    private record Entry(long key, byte[] chunk) {
    }

    /** Cuts {@code state} as {@link PartitionTasksP#saveToSnapshot} does. */
    private static List<Entry> cut(final int partition, final byte[] state) {
        final int count = SnapshotChunks.count(state.length, CHUNK);
        final List<Entry> entries = new ArrayList<>();
        for (int index = 0; index < count; index++) {
            final int from = index * CHUNK;
            entries.add(new Entry(SnapshotChunks.key(partition, index, count),
                    Arrays.copyOfRange(state, from, Math.min(state.length, from + CHUNK))));
        }
        return entries;
    }

    private static byte[] randomState(final Random random, final int length) {
        final byte[] state = new byte[length];
        random.nextBytes(state);
        return state;
    }

    @Test
    void when_chunksOfSeveralPartitionsComeInAnyOrder_then_eachStateIsWholeOnceItsLastChunkCame() {
        final Random random = new Random(11);
        final byte[] large = randomState(random, 5 * CHUNK + 17);
        final byte[] exact = randomState(random, 2 * CHUNK);
        final byte[] empty = new byte[0];
        final List<Entry> entries = new ArrayList<>(cut(3, large));
        entries.addAll(cut(70_000, exact));
        entries.addAll(cut(0, empty));
        assertThat(entries).hasSize(6 + 2 + 1);
        Collections.shuffle(entries, random);

        final SnapshotChunks chunks = new SnapshotChunks();
        final List<Integer> completed = new ArrayList<>();
        for (final Entry entry : entries) {
            final byte[] whole = chunks.add(entry.key(), entry.chunk());
            final int partition = SnapshotChunks.partitionOf(entry.key());
            if (whole != null) {
                completed.add(partition);
                assertThat(whole).isEqualTo(partition == 3 ? large : partition == 70_000 ? exact : empty);
            }
        }
        assertThat(completed).containsExactlyInAnyOrder(3, 70_000, 0);
        assertThat(chunks.incomplete()).isEmpty();
    }

    @Test
    void when_aChunkIsMissingOrTwice_then_itIsNamedNotRestoredShort() {
        final List<Entry> entries = cut(5, randomState(new Random(3), 3 * CHUNK));
        final SnapshotChunks chunks = new SnapshotChunks();
        assertThat(chunks.add(entries.get(0).key(), entries.get(0).chunk())).isNull();
        assertThat(chunks.add(entries.get(2).key(), entries.get(2).chunk())).isNull();
        assertThat(chunks.incomplete()).containsExactly(5);
        assertThatThrownBy(() -> chunks.add(entries.get(2).key(), entries.get(2).chunk()))
                .hasMessageContaining("partition 5 has chunk 2 twice");
        assertThatThrownBy(() -> chunks.add(SnapshotChunks.key(5, 0, 4), new byte[1]))
                .hasMessageContaining("3 and 4 chunks");
    }

    /**
     * The job tests of this module (restores of window and keyed states, each compared with an
     * oracle) cover states cut into several chunks only because their members are set to small
     * snapshot entries ({@link JobTestSupport#SNAPSHOT_ENTRY_BYTES}): this fails if that setting is lost.
     */
    @Test
    void when_testsOfThisModuleRun_then_theirMembersCutSnapshotsIntoSmallEntries() {
        final HazelcastInstance member = JobTestSupport.embeddedMember();
        try {
            assertThat(SnapshotEntries.maxBytes(member)).isEqualTo(JobTestSupport.SNAPSHOT_ENTRY_BYTES).isEqualTo(CHUNK);
        } finally {
            member.shutdown();
        }
    }

    @Test
    void when_theSettingIsWrong_then_itIsRefusedNamingIt() {
        assertThat(SnapshotEntries.parse(null)).isEqualTo(SnapshotEntries.defaultMaxBytes());
        assertThat(SnapshotEntries.parse("0")).isEqualTo(SnapshotEntries.defaultMaxBytes());
        assertThat(SnapshotEntries.parse("4096")).isEqualTo(4096);
        assertThatThrownBy(() -> SnapshotEntries.parse("12")).hasMessageContaining(SnapshotEntries.PROPERTY + " is 12: give 64 to");
        assertThatThrownBy(() -> SnapshotEntries.parse("big")).hasMessageContaining("give a whole number of bytes");
    }

    @Test
    void when_keyIsPacked_then_partitionIndexAndCountComeBack() {
        final long key = SnapshotChunks.key(8_000_000, 1_000_000, 1_048_575);
        assertThat(SnapshotChunks.partitionOf(key)).isEqualTo(8_000_000);
        assertThat(SnapshotChunks.indexOf(key)).isEqualTo(1_000_000);
        assertThat(SnapshotChunks.countOf(key)).isEqualTo(1_048_575);
        assertThatThrownBy(() -> SnapshotChunks.key(1, 4, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SnapshotChunks.key(-1, 0, 1)).isInstanceOf(IllegalArgumentException.class);
    }
}
