package io.streamgrid.jobs.join;

import io.streamgrid.jobs.keyed.StateCodec;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/** A key's state in a stream join: the events of each side that may still meet a partner. */
final class JoinBuffers {
    final JoinSide left;
    final JoinSide right;

    JoinBuffers() {
        this(new JoinSide(), new JoinSide());
    }

    private JoinBuffers(final JoinSide left, final JoinSide right) {
        this.left = left;
        this.right = right;
    }

    boolean isEmpty() {
        return left.count() == 0 && right.count() == 0;
    }

    /** Format 1: a version byte, then each side's events (time, expiry, record bytes). */
    static final class Codec implements StateCodec<JoinBuffers> {
        private static final byte VERSION = 1;

        @Override
        public void write(final JoinBuffers state, final DataOutput out) throws IOException {
            out.writeByte(VERSION);
            state.left.write(out);
            state.right.write(out);
        }

        @Override
        public JoinBuffers read(final DataInput in) throws IOException {
            final byte version = in.readByte();
            if (version != VERSION) {
                throw new IOException("join state of format " + version + ", this version reads format " + VERSION);
            }
            return new JoinBuffers(JoinSide.read(in), JoinSide.read(in));
        }
    }
}
