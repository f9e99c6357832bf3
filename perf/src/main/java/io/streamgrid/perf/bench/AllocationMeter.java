package io.streamgrid.perf.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.Arrays;
import java.util.List;

/**
 * Bytes allocated by threads of this JVM (HotSpot's per-thread counters): read before and after a
 * run, the difference divided by the events gives bytes per event. Threads that end in between are
 * not counted, so a figure is a lower bound; Jet's worker threads live throughout.
 */
final class AllocationMeter {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    /**
     * What Hazelcast names Jet's threads: cooperative workers ("hz.NAME.jet.cooperative.thread-N")
     * and the threads of non-cooperative processors such as a source builder's ("hz.NAME.jet.blocking.thread-N").
     */
    private static final List<String> JET_THREADS = List.of(".jet.cooperative.thread-", ".jet.blocking.thread-");

    private AllocationMeter() {
    }

    /** By every live thread: the job's work plus whatever else the JVM (member, benchmark) did meanwhile. */
    static long allocatedBytes() {
        return allocatedBytesBy(THREADS.getAllThreadIds());
    }

    /**
     * By Jet's threads only (cooperative workers and non-cooperative processors' threads), where
     * every stage of a StreamGrid job and of a plain Jet pipeline runs: the jobs' own allocation,
     * without the member's housekeeping. Fails when the JVM has no such thread (no Jet member here,
     * or Hazelcast renamed them).
     */
    static long allocatedBytesByJetThreads() {
        final long[] ids = Arrays.stream(THREADS.getThreadInfo(THREADS.getAllThreadIds()))
                .filter(info -> info != null && JET_THREADS.stream().anyMatch(info.getThreadName()::contains))
                .mapToLong(ThreadInfo::getThreadId).toArray();
        if (ids.length == 0) {
            throw new IllegalStateException("no Jet thread (name containing one of " + JET_THREADS + ") in this JVM");
        }
        return allocatedBytesBy(ids);
    }

    /** The sum of the threads' counters; a thread that ended meanwhile reads -1 and counts nothing. */
    private static long allocatedBytesBy(final long[] threadIds) {
        return Arrays.stream(THREADS.getThreadAllocatedBytes(threadIds)).filter(b -> b > 0).sum();
    }
}
