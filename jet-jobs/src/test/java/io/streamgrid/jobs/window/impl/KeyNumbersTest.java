package io.streamgrid.jobs.window.impl;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KeyNumbersTest {

    @Test
    void when_aNumberIsFreed_then_itIsGivenOutBeforeANewOne() throws IOException {
        final KeyNumbers numbers = new KeyNumbers();
        assertThat(numbers.take(100)).isZero();
        assertThat(numbers.take(-7)).isEqualTo(1);
        assertThat(numbers.take(5)).isEqualTo(2);
        numbers.free(1);

        assertThat(numbers.take(42)).isEqualTo(1);
        assertThat(numbers.key(1)).isEqualTo(42);
        assertThat(numbers.take(43)).as("no freed number left: a new one").isEqualTo(3);
    }

    @Test
    void when_writtenAndReadBack_then_sameKeysUnderSameNumbersAndTheFreedOnesGivenOutLowestFirst() throws IOException {
        final KeyNumbers numbers = new KeyNumbers();
        for (long key = 0; key < 200; key++) {
            numbers.take(key * 1_000_003);
        }
        numbers.free(150);
        numbers.free(3);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        numbers.writeTo(new DataOutputStream(bytes));

        final KeyNumbers read = new KeyNumbers();
        read.take(9); // replaced by what is read
        final Map<Integer, Long> seen = new LinkedHashMap<>();
        read.readFrom(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), seen::put);

        assertThat(seen).hasSize(198).doesNotContainKeys(3, 150);
        seen.forEach((number, key) -> assertThat(key).isEqualTo(number * 1_000_003L));
        assertThat(read.key(199)).isEqualTo(199 * 1_000_003L);
        assertThat(read.take(1)).isEqualTo(3);
        assertThat(read.take(2)).isEqualTo(150);
        assertThat(read.take(3)).isEqualTo(200);
    }

    @Test
    void when_aFreedNumberIsLookedUp_then_itFailsAsADamagedSnapshot() {
        final KeyNumbers numbers = new KeyNumbers();
        numbers.take(1);
        numbers.free(0);

        assertThatThrownBy(() -> numbers.key(0)).isInstanceOf(IOException.class).hasMessageContaining("damaged snapshot");
        assertThatThrownBy(() -> numbers.key(64)).isInstanceOf(IOException.class);
    }
}
