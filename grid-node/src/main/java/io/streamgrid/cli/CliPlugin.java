package io.streamgrid.cli;

import java.util.List;

/**
 * What a jar on the CLI's class path adds to {@code streamgrid}, found through
 * {@link java.util.ServiceLoader} (a {@code META-INF/services/io.streamgrid.cli.CliPlugin} entry): demos
 * under {@code streamgrid demo} and top-level commands. The examples module adds its demos and
 * {@code streamgrid model} this way, so the CLI has no compile-time dependency on any example.
 *
 * <p>Each object is a picocli command (a class annotated with {@code @Command}); its name must not be
 * one the CLI already has — a clash fails every command line at start, naming both. Jobs are found
 * the same way, as {@link io.streamgrid.jobs.keyed.StreamGridJob} services ({@code job submit NAME}).
 */
public interface CliPlugin {
    /** Commands added under {@code streamgrid demo}; none by default. */
    default List<Object> demos() {
        return List.of();
    }

    /** Commands added at the top level, beside {@code job} and {@code ingest}; none by default. */
    default List<Object> commands() {
        return List.of();
    }
}
