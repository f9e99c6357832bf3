package io.streamgrid.examples.paramserver;

/** A worker's progress as of its last push: examples learnt from (steps) and updates pushed. */
public record WorkerProgress(long worker, long steps, long updatesPushed) {
}
