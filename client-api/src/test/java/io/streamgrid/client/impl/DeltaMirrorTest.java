package io.streamgrid.client.impl;

import io.streamgrid.client.Delta;
import io.streamgrid.cq.Where;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The folding of changes into what a subscription's listener knows, and catching up after a snapshot query. */
class DeltaMirrorTest {
    record Quote(String symbol, double price) {
    }

    private static final Where ABOVE_100 = Where.parse("price > 100");
    private static final Quote A = new Quote("A", 101);
    private static final Quote A2 = new Quote("A", 102);
    private static final Quote A3 = new Quote("A", 103);
    private static final Quote B = new Quote("B", 150);
    private static final Quote CHEAP = new Quote("C", 5);

    private final Map<Object, Object> state = new HashMap<>();
    private final DeltaMirror mirror = new DeltaMirror(state, ABOVE_100, 2);
    private final List<Delta> told = new ArrayList<>();

    /** Keys are Integers; partition = key mod 2. */
    private static int partitionOf(final Object key) {
        return (Integer) key % 2;
    }

    @Test
    void when_changesAreFolded_then_onlyWhatChangesTheListenersViewIsTold() {
        assertThat(mirror.apply(new Delta(Delta.Kind.UPDATE, 1, A, 1, 5)).kind()).as("an unknown key enters").isEqualTo(Delta.Kind.ENTER);
        assertThat(mirror.apply(new Delta(Delta.Kind.UPDATE, 1, A, 1, 6))).as("the same value again").isNull();
        assertThat(mirror.apply(new Delta(Delta.Kind.UPDATE, 1, A2, 1, 6))).as("a sequence already applied").isNull();
        assertThat(mirror.apply(new Delta(Delta.Kind.ENTER, 1, A2, 1, 7)).kind()).as("a known key updates").isEqualTo(Delta.Kind.UPDATE);
        assertThat(mirror.apply(new Delta(Delta.Kind.LEAVE, 3, B, 1, 8))).as("an unknown key cannot leave").isNull();
        final Delta leave = mirror.apply(new Delta(Delta.Kind.LEAVE, 1, CHEAP, 1, 9));
        assertThat(leave.kind()).isEqualTo(Delta.Kind.LEAVE);
        assertThat(leave.value()).as("a leave carries the value the listener knew").isEqualTo(A2);
        assertThat(state).isEmpty();
        assertThat(mirror.apply(new Delta(Delta.Kind.ENTER, 2, B, 0, 1))).as("sequences are per partition").isNotNull();
    }

    @Test
    void when_aJournalChangeCrossesThePredicate_then_itEntersOrLeaves() {
        assertThat(mirror.toDelta(new DeltaMirror.Change(1, CHEAP, A, 1, 1)).kind()).isEqualTo(Delta.Kind.ENTER);
        assertThat(mirror.toDelta(new DeltaMirror.Change(1, A, A2, 1, 2)).kind()).isEqualTo(Delta.Kind.UPDATE);
        final Delta leave = mirror.toDelta(new DeltaMirror.Change(1, A2, CHEAP, 1, 3));
        assertThat(leave.kind()).isEqualTo(Delta.Kind.LEAVE);
        assertThat(leave.value()).isEqualTo(A2);
        assertThat(mirror.toDelta(new DeltaMirror.Change(1, CHEAP, null, 1, 4))).as("outside before and after").isNull();
    }

    /**
     * The query saw key 1 at A (a change to A at sequence 5, between the tails) and key 2 at B; the
     * journal also holds key 1's later change to A2 (sequence 6) and key 3 entering (sequence 7).
     * Told after the snapshot: only what follows the queried state — never key 1's change to A again.
     */
    @Test
    void when_catchingUpAtTheStart_then_theSnapshotComesFirstAndOnlyChangesAfterTheQueriedStateFollow() {
        final Map<Object, Object> current = Map.of(1, A, 2, B);
        final List<DeltaMirror.Change> window = List.of(
                new DeltaMirror.Change(1, CHEAP, A, 1, 5),
                new DeltaMirror.Change(1, A, A2, 1, 6),
                new DeltaMirror.Change(3, null, B, 1, 7));
        final List<Map<Object, Object>> atSnapshot = new ArrayList<>();

        mirror.catchUp(Set.of(0, 1), current, window, new long[] {0, 4}, new long[] {0, 7}, DeltaMirrorTest::partitionOf, true,
                () -> atSnapshot.add(Map.copyOf(state)), told::add);

        assertThat(atSnapshot).containsExactly(current);
        assertThat(told).extracting(Delta::kind, Delta::key, Delta::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple(Delta.Kind.UPDATE, 1, A2),
                        org.assertj.core.groups.Tuple.tuple(Delta.Kind.ENTER, 3, B));
        assertThat(state).isEqualTo(Map.of(1, A2, 2, B, 3, B));
        assertThat(mirror.apply(new Delta(Delta.Kind.UPDATE, 1, A3, 1, 7))).as("the window's tail is applied").isNull();
        assertThat(mirror.apply(new Delta(Delta.Kind.UPDATE, 1, A3, 1, 8))).as("what follows it is").isNotNull();
    }

    /**
     * A resync of partition 1 only: key 3 (partition 1) is gone from the query and leaves, key 1 has
     * a new value, key 2 (partition 0) is not touched; the journal of partition 1 began again at a
     * lower sequence (a new cluster), and its changes after the query still apply.
     */
    @Test
    void when_aPartitionIsResynchronised_then_itsKeysAreBroughtToTheQueryAndOthersAreLeftAlone() {
        mirror.apply(new Delta(Delta.Kind.ENTER, 1, A, 1, 100));
        mirror.apply(new Delta(Delta.Kind.ENTER, 3, B, 1, 101));
        mirror.apply(new Delta(Delta.Kind.ENTER, 2, B, 0, 50));

        mirror.catchUp(Set.of(1), Map.of(1, A2), List.of(new DeltaMirror.Change(5, null, A3, 1, 3)), new long[] {0, 2},
                new long[] {0, 3}, DeltaMirrorTest::partitionOf, false, () -> {
                    throw new AssertionError("a resync is no snapshot");
                }, told::add);

        assertThat(told).extracting(Delta::kind, Delta::key)
                .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(Delta.Kind.LEAVE, 3),
                        org.assertj.core.groups.Tuple.tuple(Delta.Kind.UPDATE, 1),
                        org.assertj.core.groups.Tuple.tuple(Delta.Kind.ENTER, 5));
        assertThat(told.get(told.size() - 1).key()).as("the window's changes come after the query's").isEqualTo(5);
        assertThat(state).isEqualTo(Map.of(1, A2, 2, B, 5, A3));
        assertThat(mirror.apply(new Delta(Delta.Kind.UPDATE, 2, A, 0, 50))).as("partition 0 kept its position").isNull();
    }

    @Test
    void when_theMirrorIsNotEmptyAtTheStart_then_itIsRefused() {
        assertThatThrownBy(() -> new DeltaMirror(new HashMap<>(Map.of(1, A)), ABOVE_100, 2)).hasMessageContaining("empty mirror");
    }
}
