package io.streamgrid.jobs.keyed;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;

/**
 * Writes a key's state to a Jet snapshot and reads it back. Called only when a snapshot is taken
 * or restored, never per event. The format is yours; keep it readable by the next version of your
 * job (a leading version number is a good habit), since a job restarted after an upgrade restores
 * the old snapshot.
 *
 * @param <S> the state type
 */
public interface StateCodec<S> extends Serializable {
    void write(S state, DataOutput out) throws IOException;

    S read(DataInput in) throws IOException;

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
