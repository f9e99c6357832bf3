package io.streamgrid.examples.federated;

import org.junit.jupiter.api.Test;

import java.security.KeyPair;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The masks' arithmetic alone, five devices in one thread: what cancels, what the corrections remove, what stays hidden. */
class SecureAggregationTest {
    private static final long[] COHORT = {2, 3, 5, 7, 11};
    private static final String MODEL = "m";
    private static final long ROUND = 4;

    private final KeyPair[] keys = new KeyPair[COHORT.length];
    private final String[] publicKeys = new String[COHORT.length];
    private final long[][] updates = new long[COHORT.length][];
    private final byte[][] seeds = new byte[COHORT.length][];

    SecureAggregationTest() {
        for (int i = 0; i < COHORT.length; i++) {
            keys[i] = SecureAggregation.newKeyPair();
            publicKeys[i] = SecureAggregation.text(keys[i].getPublic());
            updates[i] = SecureAggregation.encode(new double[]{0.25 * i, -0.5, i == 3 ? 1e-3 : 0}, 10 + i);
            seeds[i] = new byte[16];
            seeds[i][0] = (byte) i;
        }
    }

    private long[] masked(final int i) {
        return SecureAggregation.mask(updates[i], COHORT[i], keys[i].getPrivate(), COHORT, publicKeys, MODEL, ROUND, seeds[i]);
    }

    @Test
    void when_devicesDrop_then_theSurvivorsMaskedUpdatesLessTheirCorrectionsSumExactly() {
        final int[] survivors = {0, 2, 3};
        final long[] dropped = {COHORT[1], COHORT[4]};
        final String[] droppedKeys = {publicKeys[1], publicKeys[4]};
        final long[] sum = new long[4];
        final long[] truth = new long[4];
        for (final int i : survivors) {
            final long[] y = masked(i);
            assertThat(y).as("device %d's masked update", COHORT[i]).isNotEqualTo(updates[i]);
            final long[] correction = SecureAggregation.correction(4, COHORT[i], keys[i].getPrivate(), dropped, droppedKeys, MODEL, ROUND,
                    seeds[i]);
            final long[] lessOwn = y.clone();
            SecureAggregation.add(lessOwn, correction, -1);
            assertThat(lessOwn).as("device %d's update less its own correction: still masked by the other survivors", COHORT[i])
                    .isNotEqualTo(updates[i]);
            SecureAggregation.add(sum, lessOwn, 1);
            SecureAggregation.add(truth, updates[i], 1);
        }
        assertThat(sum).containsExactly(truth);
        assertThat(truth[3]).as("samples").isEqualTo(10 + 12 + 13);
        assertThat(SecureAggregation.mean(sum)[0]).isCloseTo((10 * 0 + 12 * 0.5 + 13 * 0.75) / 35, org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void when_noDeviceDrops_then_thePairwiseMasksCancelAndOnlyTheSelfMasksRemain() {
        final long[] sum = new long[4];
        final long[] selfMasks = new long[4];
        for (int i = 0; i < COHORT.length; i++) {
            SecureAggregation.add(sum, masked(i), 1);
            SecureAggregation.add(sum, updates[i], -1);
            SecureAggregation.add(selfMasks, SecureAggregation.correction(4, COHORT[i], keys[i].getPrivate(), new long[0], new String[0],
                    MODEL, ROUND, seeds[i]), 1);
        }
        assertThat(sum).containsExactly(selfMasks);
        final long[] otherRound = SecureAggregation.mask(updates[0], COHORT[0], keys[0].getPrivate(), COHORT, publicKeys, MODEL, ROUND + 1,
                seeds[0]);
        assertThat(otherRound).as("masks differ by round").isNotEqualTo(masked(0));
    }

    @Test
    void when_aKeyOrVectorIsMalformed_then_itSaysSo() {
        assertThatThrownBy(() -> SecureAggregation.publicKey("not-a-key")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not an X25519 public key");
        assertThatThrownBy(() -> Vectors.decodeLongs(Vectors.encode(new long[]{1, 2}), 3)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is not 3 values");
        assertThat(Vectors.decodeLongs(Vectors.encode(new long[]{Long.MIN_VALUE, -1, 7}), 3)).containsExactly(Long.MIN_VALUE, -1, 7);
        assertThat(Arrays.stream(SecureAggregation.encode(new double[]{0.5}, 3)).boxed().toList()).containsExactly(3L << 23, 3L);
    }
}
