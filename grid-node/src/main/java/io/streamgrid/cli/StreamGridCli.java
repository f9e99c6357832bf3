package io.streamgrid.cli;

import io.streamgrid.node.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.ServiceLoader;

/**
 * The {@code streamgrid} command. Exit codes: 0 done, 1 failed (the reason on one line), 2 a
 * user's mistake in the command line or configuration (one line naming it and the fix).
 * {@code --verbose} adds the stack trace, and the libraries' log records, which otherwise go to
 * {@code .streamgrid/logs/streamgrid.log} ({@link CliLogging}).
 */
@Command(name = "streamgrid",
        mixinStandardHelpOptions = true,
        versionProvider = StreamGridCli.Version.class,
        description = "StreamGrid: a low-latency in-memory data grid for stateful stream processing.",
        footer = {"", "Benchmarks: ./streamgrid bench [NAME...] [--quick] runs the perf module's side-by-side "
                + "benchmarks (./streamgrid bench --help)."},
        subcommands = {NodeCommand.class, ClusterCommand.class, IngestCommand.class, JobCommand.class, CassandraCommand.class, KafkaCommand.class,
                StateCommands.Get.class, StateCommands.Query.class, StateCommands.Watch.class, TopCommand.class, DimCommand.class,
                DemoCommand.class,
                CommandLine.HelpCommand.class})
public final class StreamGridCli {
    public static final int EXIT_FAILED = 1;
    public static final int EXIT_USAGE = 2;

    public static void main(final String[] args) {
        CliLogging.configure(args);
        System.exit(run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command line and returns its exit code; for tests and {@link #main}. */
    public static int run(final String[] args, final PrintWriter out, final PrintWriter err) {
        CliLogging.useOneLineFormat(); // in-process runs (tests) too
        final boolean verbose = Arrays.asList(args).contains("--verbose");
        final String[] effective = Arrays.stream(args).filter(a -> !a.equals("--verbose")).toArray(String[]::new);
        final CommandLine commandLine = withPlugins(new CommandLine(new StreamGridCli()));
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setParameterExceptionHandler((ex, arguments) -> {
            final String unknownCommand = unknownCommand(ex);
            err.println("streamgrid: " + (unknownCommand != null ? unknownCommand : oneLine(ex)) + " (see '"
                    + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help')");
            if (verbose) {
                ex.printStackTrace(err);
            }
            return EXIT_USAGE;
        });
        commandLine.setExecutionExceptionHandler((ex, cmd, parseResult) -> {
            final boolean usersMistake = ex instanceof ConfigException;
            err.println("streamgrid: " + (usersMistake ? "" : "failed: ") + oneLine(ex));
            if (verbose) {
                ex.printStackTrace(err);
            } else if (!usersMistake) {
                err.println("streamgrid: run again with --verbose for the stack trace (library logs: " + CliLogging.LOG_FILE + ")");
            }
            return usersMistake ? EXIT_USAGE : EXIT_FAILED;
        });
        return commandLine.execute(effective);
    }

    /** Adds the demos and commands of every {@link CliPlugin} on the class path. */
    private static CommandLine withPlugins(final CommandLine commandLine) {
        final CommandLine demo = commandLine.getSubcommands().get("demo");
        for (final CliPlugin plugin : ServiceLoader.load(CliPlugin.class)) {
            plugin.demos().forEach(command -> add(demo, command, plugin));
            plugin.commands().forEach(command -> add(commandLine, command, plugin));
        }
        return commandLine;
    }

    private static void add(final CommandLine parent, final Object command, final CliPlugin plugin) {
        final CommandLine sub = new CommandLine(command); // built once: picocli takes a CommandLine as it is
        final String name = sub.getCommandName();
        if (parent.getSubcommands().containsKey(name)) {
            throw new IllegalStateException("plugin " + plugin.getClass().getName() + " adds '" + name + "' under '"
                    + parent.getCommandName() + "', which is already " + parent.getSubcommands().get(name).getCommand().getClass().getName());
        }
        parent.addSubcommand(name, sub);
    }

    /**
     * "unknown command 'X'", the commands there are and a near miss, when {@code ex} is a word
     * where a command of a command with subcommands was expected; else null.
     */
    private static String unknownCommand(final CommandLine.ParameterException ex) {
        if (!(ex instanceof CommandLine.UnmatchedArgumentException unmatched) || unmatched.getUnmatched().isEmpty()) {
            return null;
        }
        final String word = unmatched.getUnmatched().get(0);
        final java.util.Map<String, CommandLine> commands = ex.getCommandLine().getSubcommands();
        if (commands.isEmpty() || word.startsWith("-")) {
            return null;
        }
        return "unknown command '" + word + "'" + NearMiss.of(word, commands.keySet()).map(m -> " (did you mean '" + m + "'?)").orElse("")
                + "; the commands of " + ex.getCommandLine().getCommandSpec().qualifiedName() + " are "
                + String.join(", ", new java.util.TreeSet<>(commands.keySet()));
    }

    private static String oneLine(final Throwable ex) {
        final String message = ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getMessage();
        return message.replaceAll("\\s*\\R\\s*", " ");
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            final String version = StreamGridCli.class.getPackage().getImplementationVersion();
            return new String[] {"streamgrid " + (version == null ? "(development build)" : version)
                    + " on Java " + System.getProperty("java.version")};
        }
    }
}
