package io.streamgrid.cli;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.EventGenerator;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.ingest.IngestLog;
import io.streamgrid.jobs.ingest.JsonLinesLoader;
import io.streamgrid.node.ConfigException;
import io.streamgrid.node.impl.ConfigTree;
import io.streamgrid.node.impl.JobCatalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code streamgrid ingest}: put events into the ingest log. */
@Command(name = "ingest", mixinStandardHelpOptions = true, description = "Append generated or loaded events to the ingest log.",
        subcommands = {IngestCommand.Generate.class, IngestCommand.Load.class})
final class IngestCommand {

    static IngestLog openLog(final ConfigTree tree) {
        final Path dir = JobCatalog.ingestDir(tree);
        try {
            return IngestLog.open(dir, tree.integer("ingest.partitions"));
        } catch (final IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }

    @Command(name = "generate", mixinStandardHelpOptions = true,
            description = "Append deterministic generated events (seeded) to the ingest log.")
    static final class Generate implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--type", defaultValue = "request", description = "request, sensor, click or transaction (default: ${DEFAULT-VALUE}).")
        String type;

        @Option(names = "--events", defaultValue = "100000", description = "How many (default: ${DEFAULT-VALUE}).")
        long events;

        @Option(names = "--rate", defaultValue = "1000", description = "Events per second of event time (default: ${DEFAULT-VALUE}).")
        long rate;

        @Option(names = "--keys", defaultValue = "1000", description = "Distinct keys (default: ${DEFAULT-VALUE}).")
        int keys;

        @Option(names = "--seed", defaultValue = "1", description = "Random seed (default: ${DEFAULT-VALUE}).")
        long seed;

        @Option(names = "--zipf", defaultValue = "0.8", description = "Key skew exponent, 0 = uniform (default: ${DEFAULT-VALUE}).")
        double zipf;

        @Option(names = "--disorder-ms", defaultValue = "2000", description = "Maximum out-of-order jitter (default: ${DEFAULT-VALUE}).")
        long disorderMs;

        @Option(names = "--late-fraction", defaultValue = "0.01", description = "Share of late events (default: ${DEFAULT-VALUE}).")
        double lateFraction;

        @Option(names = "--max-lateness-ms", defaultValue = "120000", description = "How late, at most (default: ${DEFAULT-VALUE}).")
        long maxLatenessMs;

        @Option(names = "--hot-key-fraction", defaultValue = "0", description = "Share of events sent to a spiking key (default: ${DEFAULT-VALUE}).")
        double hotKeyFraction;

        @Option(names = "--end", description = "Append END_OF_STREAM afterwards, so every window closes.")
        boolean end;

        @Mixin
        ConfigOptions options;

        @Override
        public Integer call() {
            final EventType eventType;
            try {
                eventType = EventType.valueOf(type.toUpperCase(Locale.ROOT));
            } catch (final IllegalArgumentException e) {
                throw new ConfigException("--type " + type + " is not an event type: use request, sensor, click or transaction");
            }
            final GeneratorSpec generatorSpec;
            try {
                generatorSpec = GeneratorSpec.of(eventType, seed, events, keys).withRate(rate).withZipf(zipf)
                        .withDisorder(disorderMs, lateFraction, maxLatenessMs).withHotKeys(hotKeyFraction, 60_000);
            } catch (final IllegalArgumentException e) {
                throw new ConfigException(e.getMessage(), e);
            }
            final PrintWriter out = spec.commandLine().getOut();
            try (IngestLog log = openLog(options.tree())) {
                new EventGenerator(generatorSpec).appendTo(log, 100_000, out::println);
                if (end) {
                    log.appendEndOfStream(events);
                }
                out.println("appended " + events + " " + type + " events to " + log.directory() + (end ? ", then END_OF_STREAM" : ""));
            }
            return 0;
        }
    }

    @Command(name = "load", mixinStandardHelpOptions = true,
            description = "Append the events of a JSON-lines file; bad lines go to a rejected-records file.")
    static final class Load implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "FILE", description = "JSON lines, one event per line (format: docs/ARCHITECTURE.md).")
        Path input;

        @Option(names = "--rejected", paramLabel = "FILE", description = "Where rejected lines go (default: FILE.rejected).")
        Path rejected;

        @Mixin
        ConfigOptions options;

        @Override
        public Integer call() throws IOException {
            if (!Files.isReadable(input)) {
                throw new ConfigException("cannot read " + input + ": check the path and its permissions");
            }
            final Path rejectedFile = rejected != null ? rejected : Path.of(input + ".rejected");
            final PrintWriter out = spec.commandLine().getOut();
            try (IngestLog log = openLog(options.tree())) {
                final JsonLinesLoader.Report report = new JsonLinesLoader().load(input, log, rejectedFile, out::println);
                out.println(report);
            }
            return 0;
        }
    }
}
