package io.streamgrid.jobs.keyed;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;

/**
 * Writes a key's state to a Jet snapshot and reads it back. Called only when a snapshot is taken
 * or restored, never per event. Most states need no codec of their own: {@link #derived} makes one
 * from the type. A hand-written one's format is yours; keep it readable by the next version of your
 * job (a leading version number is a good habit), since a job restarted after an upgrade restores
 * the old snapshot.
 *
 * @param <S> the state type
 */
public interface StateCodec<S> extends Serializable {
    void write(S state, DataOutput out) throws IOException;

    S read(DataInput in) throws IOException;

    /**
     * The codec of {@code type}, derived from its declaration: a record, or a class with a
     * no-argument constructor (any visibility), of primitives, strings, enums, arrays, lists, sets,
     * maps and nested such types. Versioned: a later version of the type may append fields, and
     * states written before read back with the new fields at their defaults. Write a codec of your
     * own for a special layout or the last bit of snapshot speed (see {@code perf/RESULTS.md},
     * {@code state-codecs}).
     *
     * @throws IllegalArgumentException naming the field whose type cannot be derived
     */
    static <S> StateCodec<S> derived(final Class<S> type) {
        return new DerivedStateCodec<>(type);
    }

    /** For a function that keeps no state per key (it never calls {@code setState}): writes and reads nothing. */
    static StateCodec<Void> none() {
        return new StateCodec<>() {
            @Override
            public void write(final Void state, final DataOutput out) {
            }

            @Override
            public Void read(final DataInput in) {
                return null;
            }
        };
    }

    /** State that is a {@code long[]} of a fixed length: counters, sums, times. */
    static StateCodec<long[]> longs(final int length) {
        return new StateCodec<>() {
            @Override
            public void write(final long[] state, final DataOutput out) throws IOException {
                for (final long value : state) {
                    out.writeLong(value);
                }
            }

            @Override
            public long[] read(final DataInput in) throws IOException {
                final long[] state = new long[length];
                for (int i = 0; i < length; i++) {
                    state[i] = in.readLong();
                }
                return state;
            }
        };
    }
}
