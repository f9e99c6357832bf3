package io.streamgrid.cli;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.InputNotTextException;
import io.streamgrid.jobs.ingest.KafkaLogs;
import io.streamgrid.jobs.ingest.BuiltInLogs;
import io.streamgrid.jobs.ingest.JsonLinesLoader;
import io.streamgrid.jobs.ingest.KafkaLoadLedger;
import io.streamgrid.jobs.ingest.LoadLedger;
import io.streamgrid.jobs.ingest.LoadProgress;
import io.streamgrid.jobs.ingest.LoadReport;
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

/** {@code streamgrid ingest}: put events into the schema logs. */
@Command(name = "ingest", mixinStandardHelpOptions = true,
        description = "Append generated or loaded events to the log of their schema (built-in or configured).",
        subcommands = {GenerateCommand.class, IngestCommand.Load.class, IngestCommand.End.class})
final class IngestCommand {
    static final String BUILT_IN = "request, sensor, click, transaction";

    /** The logs of the built-in types: Kafka topics in Kafka mode, else under the configured ingest directory (created with ingest.partitions when new). */
    static BuiltInLogs builtInLogs(final ConfigTree tree) {
        try {
            final KafkaLogs kafka = JobCatalog.kafkaLogs(tree);
            return kafka != null ? new BuiltInLogs(kafka, tree.integer("ingest.partitions"))
                    : new BuiltInLogs(JobCatalog.ingestDir(tree), tree.integer("ingest.partitions"));
        } catch (final IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }

    /** The schema called {@code name}: a built-in type's, or one of the configuration's {@code schemas:} section. */
    static EventSchema schema(final ConfigTree tree, final String name) {
        final EventType builtIn = EventType.ofSchema(name);
        if (builtIn != null) {
            return builtIn.schema();
        }
        final List<EventSchema> schemas = SchemaSettings.parse(tree.mapping("schemas"));
        return schemas.stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow(() -> new ConfigException(
                "--schema " + name + ": no such schema: not a built-in type (" + BUILT_IN + ") nor in the configuration's schemas: section"
                        + (schemas.isEmpty() ? " (it declares none)" : " (it declares " + schemas.stream().map(EventSchema::name).toList() + ")")));
    }

    /** The log of {@code schema} — its Kafka topic in Kafka mode, else under the configured ingest directory — created with ingest.partitions if new. */
    static EventLog openSchemaLog(final ConfigTree tree, final EventSchema schema) {
        final KafkaLogs kafka = JobCatalog.kafkaLogs(tree);
        try {
            if (kafka != null) {
                return kafka.openOrCreate(schema, schema.name(), tree.integer("ingest.partitions"));
            }
            final Path dir = SchemaLog.directoryOf(JobCatalog.ingestDir(tree), schema.name());
            return SchemaLog.exists(dir) ? SchemaLog.openExisting(dir, schema) : SchemaLog.open(dir, schema, tree.integer("ingest.partitions"));
        } catch (final IllegalArgumentException | IllegalStateException e) {
            throw new ConfigException(e.getMessage() + "; nothing was appended", e);
        }
    }

    /** Where {@code log} is, for messages: its directory or its Kafka topic. */
    static String where(final EventLog log) {
        return log instanceof SchemaLog chronicle ? chronicle.directory().toString() : "topic " + log.name().substring("kafka:".length());
    }

    @Command(name = "load", mixinStandardHelpOptions = true,
            description = {"Append the events of a file; bad lines go to a rejected-records file.",
                    "Without --schema: JSON lines of the built-in types, each line's \"type\" naming one (" + BUILT_IN + ").",
                    "With --schema NAME: JSON lines or CSV (a header naming the fields) of that schema, built-in or configured."})
    static final class Load implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "FILE", description = "The events (formats: docs/WRITE-YOUR-OWN-JOB.md and docs/design/jet-jobs.md).")
        Path input;

        @Option(names = "--schema", paramLabel = "NAME", description = "Events of this schema (a built-in type or the configuration's).")
        String schemaName;

        @Option(names = "--format", paramLabel = "json|csv|accesslog", description = {"With --schema: the file's format (default: csv for *.csv, else json);",
                "accesslog: a web server's access log (Common or Combined Log Format), the schema's fields named as its parts."})
        String format;

        @Option(names = "--rejected", paramLabel = "FILE", description = {"Where rejected lines go, written only when a line is"
                + " rejected (default: NAME.rejected in the working directory, NAME the input's file name; never beside the input)."})
        Path rejected;

        @Option(names = "--end", description = "Append the end of the stream afterwards, so that every window and timer fires.")
        boolean end;

        @Option(names = "--force", description = {"Load the file from its first line even if it was loaded before.",
                "Without it, a file loaded completely is refused, and a load that was interrupted (killed, crashed)",
                "resumes where it stopped: every line is appended once however often the command is run."})
        boolean force;

        @Mixin
        ConfigOptions options;

        @Mixin
        JarSchemas jarSchemas;

        @Override
        public Integer call() throws IOException {
            if (!Files.isReadable(input)) {
                throw new ConfigException("cannot read " + input + ": check the path and its permissions");
            }
            final Path rejectedFile = (rejected != null ? rejected : Path.of(input.getFileName() + ".rejected")).toAbsolutePath();
            final PrintWriter out = spec.commandLine().getOut();
            final ConfigTree tree = options.tree();
            final KafkaLogs kafka = JobCatalog.kafkaLogs(tree);
            if (schemaName == null) {
                jarSchemas.refuseWithoutSchema();
                if (format != null) {
                    throw new ConfigException("--format goes with --schema: a file of several built-in types loads from JSON lines only");
                }
                try (BuiltInLogs logs = builtInLogs(tree);
                     LoadProgress ledger = openLedger(kafka, kafka != null ? null : logs.ingestDir(), kafka != null ? List.of() : logs.all(), out)) {
                    final LoadReport report;
                    try {
                        report = new JsonLinesLoader().load(input, logs, rejectedFile, ledger, out::println);
                    } catch (final InputNotTextException e) {
                        throw new ConfigException(e.getMessage(), e);
                    }
                    out.println(report + " into the logs of the built-in types in " + logs.describe() + resumed(ledger));
                    if (end) {
                        out.println("appended the end of the stream to every partition of the logs of " + logs.appendEndOfStream());
                    }
                }
                return 0;
            }
            final EventSchema schema = jarSchemas.schema(tree, schemaName);
            final SchemaLoader.Format fileFormat = format == null ? SchemaLoader.Format.of(input) : parseFormat(format);
            try (EventLog log = openSchemaLog(tree, schema);
                 LoadProgress ledger = openLedger(kafka, kafka != null ? null : JobCatalog.ingestDir(tree), List.of(log), out)) {
                final LoadReport report;
                try {
                    report = new SchemaLoader(schema).load(input, fileFormat, log, rejectedFile, ledger, out::println);
                } catch (final IllegalArgumentException e) {
                    throw new ConfigException(e.getMessage() + "; nothing was loaded", e);
                } catch (final InputNotTextException e) {
                    throw new ConfigException(e.getMessage(), e);
                }
                out.println(report + " into the log of schema " + schema.name() + " (" + where(log) + ")" + resumed(ledger));
                if (end) {
                    log.appendEndOfStream();
                    out.println("appended the end of the stream to every partition");
                }
            }
            return 0;
        }

        /**
         * The file's record of progress — in Kafka ({@code kafka} not null) or in {@code ingestDir}
         * for {@code logs}; refuses a file loaded completely before (unless --force) and says when it resumes.
         */
        private LoadProgress openLedger(final KafkaLogs kafka, final Path ingestDir, final List<EventLog> logs, final PrintWriter out)
                throws IOException {
            final LoadProgress ledger;
            try {
                ledger = kafka != null ? KafkaLoadLedger.open(kafka, input, force) : LoadLedger.open(ingestDir, input, logs, force);
            } catch (final IllegalStateException e) {
                throw new ConfigException(e.getMessage() + "; nothing was loaded", e);
            }
            if (ledger.finished()) {
                ledger.close();
                throw new ConfigException(input + " was loaded completely before (" + ledger.finishedDescription()
                        + "): nothing was loaded again; --force loads it once more (every line a second time)");
            }
            if (ledger.resumeAfterLine() > 0) {
                out.println("an earlier load of " + input + " stopped after line " + ledger.resumeAfterLine()
                        + ": resuming there (lines it appended are not appended again)");
            }
            return ledger;
        }

        private static String resumed(final LoadProgress ledger) {
            return ledger.resumeAfterLine() > 0 || ledger.skippedAsAlreadyAppended() > 0
                    ? "; resumed after line " + ledger.resumeAfterLine() + ", " + ledger.skippedAsAlreadyAppended()
                    + " events of the interrupted batch found in the log and not appended again"
                    : "";
        }

        static SchemaLoader.Format parseFormat(final String text) {
            try {
                return SchemaLoader.Format.valueOf(text.toUpperCase(Locale.ROOT));
            } catch (final IllegalArgumentException e) {
                throw new ConfigException("--format " + text + ": use json, csv or accesslog", e);
            }
        }
    }

    @Command(name = "end", mixinStandardHelpOptions = true,
            description = "Append the end of the stream to every partition of a log: jobs emit their last windows and fire "
                    + "every timer. Events appended afterwards are late.")
    static final class End implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--schema", paramLabel = "NAME",
                description = "The log of this schema (default: every built-in type's log that exists).")
        String schemaName;

        @Mixin
        ConfigOptions options;

        @Mixin
        JarSchemas jarSchemas;

        @Override
        public Integer call() {
            final ConfigTree tree = options.tree();
            final PrintWriter out = spec.commandLine().getOut();
            if (schemaName == null) {
                jarSchemas.refuseWithoutSchema();
                try (BuiltInLogs logs = builtInLogs(tree)) {
                    final List<EventType> ended;
                    try {
                        ended = logs.appendEndOfStream();
                    } catch (final IllegalStateException e) {
                        throw new ConfigException(e.getMessage(), e);
                    }
                    if (ended.isEmpty()) {
                        throw new ConfigException("there is no log of a built-in type in " + logs.describe()
                                + " to end: name the log with --schema NAME");
                    }
                    out.println("appended the end of the stream to every partition of the logs of " + ended + " in "
                            + logs.describe());
                }
                return 0;
            }
            final KafkaLogs kafka = JobCatalog.kafkaLogs(tree);
            if (kafka != null) {
                return endTopic(kafka, tree, out);
            }
            final EventSchema schema = jarSchemas.schema(tree, schemaName);
            final Path dir = SchemaLog.directoryOf(JobCatalog.ingestDir(tree), schema.name());
            if (!SchemaLog.exists(dir)) {
                throw new ConfigException("there is no log of schema " + schema.name() + " in " + dir + " to end");
            }
            try (EventLog log = openSchemaLog(tree, schema)) {
                log.appendEndOfStream();
                out.println("appended the end of the stream to every partition of " + where(log));
            }
            return 0;
        }

        /** Kafka mode: the end-of-stream records go to every partition of the schema's topic, flushed before this returns. */
        private Integer endTopic(final KafkaLogs kafka, final ConfigTree tree, final PrintWriter out) {
            final EventSchema schema = jarSchemas.schema(tree, schemaName);
            final EventLog log;
            try {
                log = kafka.open(schema, schema.name());
            } catch (final IllegalStateException e) {
                throw new ConfigException(e.getMessage() + "; nothing was appended", e);
            }
            try (log) {
                log.appendEndOfStream();
                log.flush();
                out.println("appended the end of the stream to every partition of topic " + kafka.topic(schema.name()) + " ("
                        + log.partitions() + " partitions)");
            }
            return 0;
        }
    }
}
