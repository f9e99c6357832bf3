package io.streamgrid.jobs.keyed;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/** Writes and reads one value of a declared type, for {@link DerivedStateCodec}. */
interface ValueCodec {
    void write(Object value, DataOutput out) throws IOException;

    Object read(DataInput in) throws IOException;
}
