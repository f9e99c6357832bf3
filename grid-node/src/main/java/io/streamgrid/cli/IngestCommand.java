package io.streamgrid.cli;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.EventGenerator;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.ingest.IngestLog;
import io.streamgrid.jobs.ingest.JsonLinesLoader;
import io.streamgrid.jobs.ingest.LoadReport;
import io.streamgrid.jobs.ingest.SchemaGenerator;
import io.streamgrid.jobs.ingest.SchemaLoader;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.node.impl.SchemaSettings;
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
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code streamgrid ingest}: put events into the ingest log. */
@Command(name = "ingest", mixinStandardHelpOptions = true, description = "Append generated or loaded events to the ingest log.",
        subcommands = {IngestCommand.Generate.class, IngestCommand.Load.class, IngestCommand.End.class})
final class IngestCommand {

    static IngestLog openLog(final ConfigTree tree) {
        final Path dir = JobCatalog.ingestDir(tree);
        try {
            return IngestLog.open(dir, tree.integer("ingest.partitions"));
        } catch (final IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }

    /** The schema called {@code name} in the configuration's {@code schemas:} section. */
    static EventSchema schema(final ConfigTree tree, final String name) {
        final List<EventSchema> schemas = SchemaSettings.parse(tree.mapping("schemas"));
        return schemas.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow(() -> new ConfigException(
                "--schema " + name + ": no such schema in the configuration's schemas: section"
                        + (schemas.isEmpty() ? " (it declares none)" : " (it declares " + schemas.stream().map(EventSchema::name).toList() + ")")));
    }

    /** The log of {@code schema} under the configured ingest directory, created with ingest.partitions if new. */
    static SchemaLog openSchemaLog(final ConfigTree tree, final EventSchema schema) {
        final Path dir = SchemaLog.directoryOf(JobCatalog.ingestDir(tree), schema.name());
        try {
            return SchemaLog.exists(dir) ? SchemaLog.openExisting(dir, schema) : SchemaLog.open(dir, schema, tree.integer("ingest.partitions"));
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

        @Option(names = "--schema", paramLabel = "NAME", description = "Events of this schema (the configuration's schemas: "
                + "section) into its own log, instead of a built-in type.")
        String schemaName;

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
            if (schemaName != null) {
                return generateSchema();
            }
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

        private int generateSchema() {
            if (spec.commandLine().getParseResult().hasMatchedOption("--type")) {
                throw new ConfigException("--type and --schema exclude each other: --type is a built-in event type");
            }
            final ConfigTree tree = options.tree();
            final EventSchema schema = schema(tree, schemaName);
            final SchemaGenerator generator;
            try {
                generator = new SchemaGenerator(schema, GeneratorSpec.forSchema(seed, events, keys).withRate(rate).withZipf(zipf)
                        .withDisorder(disorderMs, lateFraction, maxLatenessMs).withHotKeys(hotKeyFraction, 60_000));
            } catch (final IllegalArgumentException e) {
                throw new ConfigException(e.getMessage(), e);
            }
            final PrintWriter out = spec.commandLine().getOut();
            try (SchemaLog log = openSchemaLog(tree, schema)) {
                generator.appendTo(log, 100_000, out::println);
                if (end) {
                    log.appendEndOfStream();
                }
                out.println("appended " + events + " " + schema.name() + " events to " + log.directory()
                        + (end ? ", then the end of the stream" : ""));
            }
            return 0;
        }
    }

    @Command(name = "load", mixinStandardHelpOptions = true,
            description = {"Append the events of a file; bad lines go to a rejected-records file.",
                    "Without --schema: JSON lines of the built-in types (request, sensor, click, transaction).",
                    "With --schema NAME: JSON lines or CSV (a header naming the fields) of a schema of the configuration."})
    static final class Load implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "FILE", description = "The events (formats: docs/WRITE-YOUR-OWN-JOB.md and docs/ARCHITECTURE.md).")
        Path input;

        @Option(names = "--schema", paramLabel = "NAME", description = "Events of this schema (the configuration's schemas: section).")
        String schemaName;

        @Option(names = "--format", paramLabel = "json|csv", description = "With --schema: the file's format (default: csv for *.csv, else json).")
        String format;

        @Option(names = "--rejected", paramLabel = "FILE", description = "Where rejected lines go (default: FILE.rejected).")
        Path rejected;

        @Option(names = "--end", description = "Append the end of the stream afterwards, so that every window and timer fires.")
        boolean end;

        @Mixin
        ConfigOptions options;

        @Override
        public Integer call() throws IOException {
            if (!Files.isReadable(input)) {
                throw new ConfigException("cannot read " + input + ": check the path and its permissions");
            }
            final Path rejectedFile = rejected != null ? rejected : Path.of(input + ".rejected");
            final PrintWriter out = spec.commandLine().getOut();
            final ConfigTree tree = options.tree();
            if (schemaName == null) {
                if (format != null) {
                    throw new ConfigException("--format goes with --schema: the built-in types load from JSON lines only");
                }
                try (IngestLog log = openLog(tree)) {
                    final LoadReport report = new JsonLinesLoader().load(input, log, rejectedFile, out::println);
                    out.println(report);
                    if (end) {
                        log.appendEndOfStream(report.lines());
                        out.println("appended END_OF_STREAM to every partition of " + log.directory());
                    }
                }
                return 0;
            }
            final EventSchema schema = schema(tree, schemaName);
            final SchemaLoader.Format fileFormat = format == null ? SchemaLoader.Format.of(input) : parseFormat(format);
            try (SchemaLog log = openSchemaLog(tree, schema)) {
                final LoadReport report;
                try {
                    report = new SchemaLoader(schema).load(input, fileFormat, log, rejectedFile, out::println);
                } catch (final IllegalArgumentException e) {
                    throw new ConfigException(e.getMessage() + "; nothing was loaded", e);
                }
                out.println(report + " into the log of schema " + schema.name() + " (" + log.directory() + ")");
                if (end) {
                    log.appendEndOfStream();
                    out.println("appended the end of the stream to every partition");
                }
            }
            return 0;
        }

        private static SchemaLoader.Format parseFormat(final String text) {
            try {
                return SchemaLoader.Format.valueOf(text.toUpperCase(Locale.ROOT));
            } catch (final IllegalArgumentException e) {
                throw new ConfigException("--format " + text + ": use json or csv", e);
            }
        }
    }

    @Command(name = "end", mixinStandardHelpOptions = true,
            description = "Append the end of the stream to every partition: jobs emit their last windows and fire every "
                    + "timer. Events appended afterwards are late.")
    static final class End implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--schema", paramLabel = "NAME", description = "The log of this schema (default: the built-in types' log).")
        String schemaName;

        @Mixin
        ConfigOptions options;

        @Override
        public Integer call() {
            final ConfigTree tree = options.tree();
            if (schemaName == null) {
                try (IngestLog log = openLog(tree)) {
                    log.appendEndOfStream(0);
                    spec.commandLine().getOut().println("appended END_OF_STREAM to every partition of " + log.directory());
                }
                return 0;
            }
            final EventSchema schema = schema(tree, schemaName);
            final Path dir = SchemaLog.directoryOf(JobCatalog.ingestDir(tree), schema.name());
            if (!SchemaLog.exists(dir)) {
                throw new ConfigException("there is no log of schema " + schema.name() + " in " + dir + " to end");
            }
            try (SchemaLog log = openSchemaLog(tree, schema)) {
                log.appendEndOfStream();
                spec.commandLine().getOut().println("appended the end of the stream to every partition of " + log.directory());
            }
            return 0;
        }
    }
}
