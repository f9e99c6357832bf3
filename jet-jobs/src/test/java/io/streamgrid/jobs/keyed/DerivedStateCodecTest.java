package io.streamgrid.jobs.keyed;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link StateCodec#derived}: states of records and plain classes back equal, across a serialized codec and an appended field. */
class DerivedStateCodecTest {
    enum Side { BUY, SELL }

    record Fill(long price, int quantity, Side side, String venue) {
    }

    record Book(String account, List<Fill> fills, Map<String, Long> positions, Set<Side> sides, long[] marks, Fill last,
                Double limit, Fill[] recent) {
    }

    /** A mutable state as jobs keep them: arrays filled in place, a final list, a nested record. */
    static final class Profile {
        private final double[] affinity;
        private long[] recent = new long[3];
        private int count;
        private boolean active;
        private final List<Fill> pending = new ArrayList<>();
        private transient int cached = 7;

        private Profile() {
            this(4);
        }

        Profile(final int categories) {
            affinity = new double[categories];
        }
    }

    record PointV1(long x, long y) {
    }

    record PointV2(long x, long y, String label, List<Long> trail, int weight) {
    }

    @Test
    void when_aRecordTreeIsWritten_then_itReadsBackEqual() throws Exception {
        final Map<String, Long> positions = new LinkedHashMap<>();
        positions.put("AAPL", 120L);
        positions.put("MSFT", -40L);
        final Book book = new Book("acct-7", List.of(new Fill(101, 5, Side.BUY, "X"), new Fill(99, 2, Side.SELL, null)), positions,
                Set.of(Side.SELL), new long[]{3, 1, 4}, null, 2.5, new Fill[]{new Fill(1, 1, Side.BUY, "Y"), null});
        final Book back = roundTrip(StateCodec.derived(Book.class), book);

        assertThat(back.account()).isEqualTo("acct-7");
        assertThat(back.fills()).isEqualTo(book.fills());
        assertThat(back.positions()).containsExactly(Map.entry("AAPL", 120L), Map.entry("MSFT", -40L));
        assertThat(back.sides()).containsExactly(Side.SELL);
        assertThat(back.marks()).containsExactly(3, 1, 4);
        assertThat(back.last()).isNull();
        assertThat(back.limit()).isEqualTo(2.5);
        assertThat(back.recent()).containsExactly(new Fill(1, 1, Side.BUY, "Y"), null);
    }

    @Test
    void when_aMutableClassIsWritten_then_itsFieldsReadBackAndTransientOnesKeepTheConstructors() throws Exception {
        final Profile profile = new Profile(3);
        profile.affinity[2] = 0.75;
        profile.recent = new long[]{9, 8};
        profile.count = 2;
        profile.active = true;
        profile.pending.add(new Fill(5, 6, Side.SELL, "Z"));
        profile.cached = 99;
        final Profile back = roundTrip(StateCodec.derived(Profile.class), profile);

        assertThat(back.affinity).containsExactly(0, 0, 0.75);
        assertThat(back.recent).containsExactly(9, 8);
        assertThat(back.count).isEqualTo(2);
        assertThat(back.active).isTrue();
        assertThat(back.pending).containsExactly(new Fill(5, 6, Side.SELL, "Z"));
        assertThat(back.cached).as("transient: not written, the constructor's value").isEqualTo(7);
    }

    @Test
    void when_aFieldWasAppendedSinceTheSnapshot_then_theOldStateReadsBackWithDefaults() throws Exception {
        final byte[] v1 = bytes(StateCodec.derived(PointV1.class), new PointV1(3, 4));
        // PointV2 is PointV1 with three fields appended: read as a later version of the job would.
        final PointV2 upgraded = StateCodec.derived(PointV2.class).read(new DataInputStream(new ByteArrayInputStream(v1)));
        assertThat(upgraded).isEqualTo(new PointV2(3, 4, null, List.of(), 0));

        final byte[] v2 = bytes(StateCodec.derived(PointV2.class), new PointV2(1, 2, "a", List.of(5L), 9));
        assertThatThrownBy(() -> StateCodec.derived(PointV1.class).read(new DataInputStream(new ByteArrayInputStream(v2))))
                .isInstanceOf(IOException.class).hasMessageContaining("with 5 fields; this version has 2");
    }

    @Test
    void when_aTypeCannotBeDerived_then_theCodecIsRefusedNamingTheField() {
        record Holder(long id, Object payload) {
        }
        record Raw(List<?> items) {
        }
        assertThatThrownBy(() -> StateCodec.derived(Holder.class)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Holder.payload").hasMessageContaining("java.lang.Object");
        assertThatThrownBy(() -> StateCodec.derived(Raw.class)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Raw.items");
        assertThatThrownBy(() -> StateCodec.derived(OwnMap.class)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("OwnMap.counts").hasMessageContaining("declare it List, Set or Map");
        assertThatThrownBy(() -> StateCodec.derived(NoDefaultConstructor.class)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no no-argument constructor");
    }

    /** A map type of its own, with other type parameters than Map's. */
    static final class LongKeyed<V> extends java.util.HashMap<Long, V> {
    }

    record OwnMap(LongKeyed<double[]> counts) {
    }

    static final class NoDefaultConstructor {
        private final long value;

        NoDefaultConstructor(final long value) {
            this.value = value;
        }
    }

    private static <S> S roundTrip(final StateCodec<S> codec, final S state) throws Exception {
        final StateCodec<S> onAMember = serialized(codec); // the codec travels to the members with the job
        return onAMember.read(new DataInputStream(new ByteArrayInputStream(bytes(codec, state))));
    }

    private static <S> byte[] bytes(final StateCodec<S> codec, final S state) throws IOException {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        codec.write(state, new DataOutputStream(bytes));
        return bytes.toByteArray();
    }

    @SuppressWarnings("unchecked")
    private static <T> T serialized(final T object) throws Exception {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(object);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }
}
