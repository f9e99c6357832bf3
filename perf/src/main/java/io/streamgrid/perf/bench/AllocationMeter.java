package io.streamgrid.perf.bench;

import java.lang.management.ManagementFactory;
import java.util.Arrays;

/**
 * Bytes allocated by all live threads of this JVM (HotSpot's per-thread counters): read before and
 * after a run, the difference divided by the events gives bytes per event. Threads that end in
 * between are not counted, so the figure is a lower bound; Jet's worker threads live throughout.
 */
final class AllocationMeter {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private AllocationMeter() {
    }

    static long allocatedBytes() {
        final long[] ids = THREADS.getAllThreadIds();
        return Arrays.stream(THREADS.getThreadAllocatedBytes(ids)).filter(b -> b > 0).sum();
    }
}
