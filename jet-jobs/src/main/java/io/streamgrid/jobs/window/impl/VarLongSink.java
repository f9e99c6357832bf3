package io.streamgrid.jobs.window.impl;

/**
 * An output that encodes a {@link io.streamgrid.jobs.window.VarLongs} value in one call (one
 * capacity check, then plain array stores) instead of a call per byte.
 */
public interface VarLongSink {
    /** Writes {@code value} in {@code VarLongs.writeUnsigned}'s format. */
    void writeVarLong(long value);
}
