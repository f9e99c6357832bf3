package io.streamgrid.cli;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * The frame of a {@code streamgrid demo NAME} command on member processes: its work directory
 * ({@code --work-dir}, emptied before the demo starts) and where it prints. A demo (a picocli
 * {@code @Command}) extends it and implements {@link #run}.
 */
public abstract class ClusterDemo implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    protected DemoWorkDir workDir;

    @Override
    public final Integer call() throws Exception {
        final PrintWriter out = spec.commandLine().getOut();
        workDir.emptied();
        return run(out);
    }

    /** Runs the demo, printing to {@code out}; returns the exit code: 0 only when every check passed. */
    protected abstract int run(PrintWriter out) throws Exception;
}
