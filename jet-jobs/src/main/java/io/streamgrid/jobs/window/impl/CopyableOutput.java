package io.streamgrid.jobs.window.impl;

/**
 * An output whose bytes written so far can be copied out: lets a window engine keep the encoding of
 * state it will write again unchanged at the next snapshot.
 */
public interface CopyableOutput {
    /** Bytes written so far. */
    int length();

    /** A copy of the bytes written from {@code from} (inclusive) to {@code to} (exclusive). */
    byte[] copy(int from, int to);
}
