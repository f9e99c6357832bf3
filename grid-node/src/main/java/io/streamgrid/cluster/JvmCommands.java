package io.streamgrid.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Command lines of StreamGrid JVMs: the shared JVM flags (etc/jvm.options, packed in the grid-node
 * jar) written out as an @argfile, and the {@code java} command that runs the CLI or another main
 * class with them. {@link LocalCluster} starts its members so; tests that start processes their own
 * way (inside a network namespace, say) use the same.
 */
public final class JvmCommands {
    /** Where the shared JVM flags are packed in the grid-node jar (from etc/jvm.options). */
    public static final String JVM_OPTIONS_RESOURCE = "streamgrid/jvm.options";
    /** The flags of long-lived members only (etc/member-jvm.options), packed beside them. */
    private static final String MEMBER_JVM_OPTIONS_RESOURCE = "streamgrid/member-jvm.options";
    private static final String MAIN_CLASS = "io.streamgrid.cli.StreamGridCli";

    private JvmCommands() {
    }

    /** Writes the JVM flags every StreamGrid JVM needs into {@code dir}/jvm.options (an @argfile); returns its path. */
    public static Path writeJvmOptions(final Path dir) {
        return copyResource(JVM_OPTIONS_RESOURCE, dir.resolve("jvm.options"));
    }

    /** Writes the flags of long-lived members (etc/member-jvm.options) into {@code file}; returns its path. */
    static Path writeMemberJvmOptions(final Path file) {
        return copyResource(MEMBER_JVM_OPTIONS_RESOURCE, file);
    }

    private static Path copyResource(final String resource, final Path file) {
        try {
            Files.createDirectories(file.getParent());
            try (InputStream in = JvmCommands.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("bug: " + resource + " is not on the class path");
                }
                Files.write(file, in.readAllBytes());
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot prepare work directory " + file.getParent(), e);
        }
        return file;
    }

    /**
     * The command that runs the {@code streamgrid} CLI in a JVM of its own — {@code jvmOptions}
     * from {@link #writeJvmOptions}, this JVM's class path — for tests that start processes their
     * own way (inside a network namespace, say). {@code marker} (may be null) goes first.
     */
    public static List<String> cliCommand(final Path jvmOptions, final String heap, final String classPath,
                                          final String marker, final List<String> args) {
        return javaCommand(jvmOptions, heap, classPath, marker, MAIN_CLASS, args);
    }

    /** As {@link #cliCommand}, for any main class on the class path. */
    public static List<String> javaCommand(final Path jvmOptions, final String heap, final String classPath,
                                           final String marker, final String mainClass, final List<String> args) {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (marker != null) {
            // First on the command line, so that a reader of a truncated command line still sees it.
            command.add(marker);
        }
        command.add("@" + jvmOptions);
        command.add("-Xmx" + heap);
        command.add("-Xms" + heap);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.addAll(args);
        return command;
    }
}
