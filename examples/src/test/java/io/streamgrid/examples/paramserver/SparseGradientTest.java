package io.streamgrid.examples.paramserver;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SparseGradientTest {
    @Test
    void when_aGradientIsEncodedAndDecoded_then_everySlotAndDoubleComesBackExactly() {
        final int[] slots = {0, 1, 65_535, 300, 7};
        final double[] values = {-0.0, Double.MIN_VALUE, -123.456e-300, 1e300, 0.1 + 0.2};
        final String text = SparseGradient.encode(slots, values, 1, 4);
        final List<Object[]> back = new ArrayList<>();
        SparseGradient.decode(text, (slot, value) -> back.add(new Object[]{slot, value}));

        assertThat(back).hasSize(4);
        for (int i = 0; i < 4; i++) {
            assertThat(back.get(i)[0]).isEqualTo(slots[i + 1]);
            assertThat(Double.doubleToRawLongBits((Double) back.get(i)[1])).isEqualTo(Double.doubleToRawLongBits(values[i + 1]));
        }
        assertThat(text.length()).isLessThanOrEqualTo(SparseGradient.MAX_CHARACTERS);
        assertThat(SparseGradient.encode(new int[SparseGradient.MAX_ENTRIES], new double[SparseGradient.MAX_ENTRIES], 0,
                SparseGradient.MAX_ENTRIES)).hasSizeLessThanOrEqualTo(SparseGradient.MAX_CHARACTERS);
    }

    @Test
    void when_tooManyEntriesOrABrokenTextAreGiven_then_theyAreRefusedSayingWhy() {
        assertThatThrownBy(() -> SparseGradient.encode(new int[31], new double[31], 0, 31))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("31 gradient entries; at most 30");
        assertThatThrownBy(() -> SparseGradient.decode("AAAA", (slot, value) -> { }))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not (slot, value) pairs");
    }

    @Test
    void when_aModelIsDescribedWrongly_then_itIsRefusedNamingTheValues() {
        assertThatThrownBy(() -> new ParameterModel("m", 1_000, 2_000, 1, 0.1, Staleness.IGNORED, 1, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("were m, 1000, 2000");
        assertThatThrownBy(() -> new ParameterModel("m", 1_000, 10, 1, 0, Staleness.IGNORED, 1, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a positive learning rate");
        assertThatThrownBy(() -> new ParameterModel("m", 200_000, 1, 1, 0.1, Staleness.IGNORED, 1, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("use at least 4 shards");
        assertThat(new ParameterModel("m", 1_000, 8, 1, 0.1, Staleness.IGNORED, 1, 1).shardWidth()).isEqualTo(125);
    }
}
