package io.streamgrid.perf.bench;

import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.MemberProcess;

import java.util.Optional;

/** CPU time processes have used so far, in nanoseconds: benchmarks report where the 2 cores went between two readings. */
public final class ProcessCpu {
    private ProcessCpu() {
    }

    /** All member processes of {@code cluster}. */
    static long members(final LocalCluster cluster) {
        long total = 0;
        for (final MemberProcess member : cluster.members()) {
            total += of(member.pid(), "member " + member);
        }
        return total;
    }

    /** This JVM (the benchmark: its writers, clients, embedded members). */
    public static long own() {
        return nanos(Optional.of(ProcessHandle.current()), "the benchmark JVM");
    }

    /** Starts reading this JVM's CPU and that of a child process beside it (a Cassandra server) over a run. */
    static Beside beside(final long pid, final String what) {
        return new Beside(pid, what, own(), of(pid, what));
    }

    /** CPU seconds this JVM and the process {@code pid} have used since {@link #beside}. */
    record Beside(long pid, String what, long ownAtStart, long otherAtStart) {
        double ownSeconds() {
            return (own() - ownAtStart) / 1e9;
        }

        double otherSeconds() {
            return (of(pid, what) - otherAtStart) / 1e9;
        }
    }

    /** The process {@code pid}, named {@code what} in the error when the OS gives no figure. */
    public static long of(final long pid, final String what) {
        return nanos(ProcessHandle.of(pid), what + " (pid " + pid + ")");
    }

    private static long nanos(final Optional<ProcessHandle> process, final String what) {
        return process.flatMap(handle -> handle.info().totalCpuDuration())
                .orElseThrow(() -> new IllegalStateException("no CPU time for " + what)).toNanos();
    }
}
