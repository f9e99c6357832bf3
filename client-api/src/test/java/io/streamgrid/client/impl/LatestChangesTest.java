package io.streamgrid.client.impl;

import io.streamgrid.client.Delta;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LatestChangesTest {
    private static Delta change(final Delta.Kind kind, final String key, final long value, final int partition, final long sequence) {
        return new Delta(kind, key, value, partition, sequence);
    }

    @Test
    void when_aWaitingKeyChangesAgain_then_onlyItsLatestWaitsAtTheBackAndTheSkippedVersionIsCounted() {
        final LatestChanges latest = new LatestChanges();
        assertThat(latest.offer(change(Delta.Kind.ENTER, "a", 1, 0, 10))).as("was empty: wake the delivery thread").isTrue();
        assertThat(latest.offer(change(Delta.Kind.UPDATE, "b", 1, 0, 11))).isFalse();
        latest.offer(change(Delta.Kind.UPDATE, "a", 2, 0, 12));
        latest.offer(change(Delta.Kind.LEAVE, "c", 1, 1, 5));

        assertThat(latest.size()).isEqualTo(3);
        assertThat(latest.replaced()).isEqualTo(1);
        // Journal order per partition kept: b (11) before a (12) in partition 0.
        assertThat(latest.drain()).extracting(Delta::key, Delta::sequence)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("b", 11L), org.assertj.core.groups.Tuple.tuple("a", 12L),
                        org.assertj.core.groups.Tuple.tuple("c", 5L));
        assertThat(latest.size()).isZero();
        assertThat(latest.drain()).isEmpty();
    }

    @Test
    void when_aChangeIsHandedOutAgain_then_theNewerWaitingOneStaysWhereItIs() {
        final LatestChanges latest = new LatestChanges();
        latest.offer(change(Delta.Kind.UPDATE, "a", 3, 0, 20));
        latest.offer(change(Delta.Kind.UPDATE, "b", 1, 0, 21));
        latest.offer(change(Delta.Kind.UPDATE, "a", 2, 0, 19)); // a shared read's batch offered again
        latest.offer(change(Delta.Kind.UPDATE, "a", 3, 0, 20));

        assertThat(latest.replaced()).isZero();
        assertThat(List.copyOf(latest.drain())).extracting(Delta::key, Delta::value)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("a", 3L), org.assertj.core.groups.Tuple.tuple("b", 1L));
    }
}
