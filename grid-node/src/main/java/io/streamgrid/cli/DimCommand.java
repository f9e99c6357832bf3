package io.streamgrid.cli;

import com.hazelcast.map.IMap;
import io.streamgrid.jobs.ingest.InputNotTextException;
import io.streamgrid.jobs.ingest.LoadReport;
import io.streamgrid.jobs.ingest.SchemaLoader;
import io.streamgrid.jobs.keyed.Lookup;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.FieldType;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.node.ConfigException;
import org.agrona.concurrent.UnsafeBuffer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code streamgrid dim}: the dimension maps ({@code dim.*}) that jobs look events up in, filled
 * from a file of records of a schema and read back by field name. Each value is the record's bytes
 * ({@link SchemaRecord#toBytes()}), which a job's lookup declared with the same schema reads with
 * field handles ({@code KeyedJob.Builder.lookup(map, keyField, valueSchema, onMissing)}).
 */
@Command(name = "dim", mixinStandardHelpOptions = true, subcommands = {DimCommand.Load.class, DimCommand.Get.class},
        description = "Dimension maps (dim.*) that jobs look events up in: load them from a file, read an entry.")
final class DimCommand {
    /** Rows put together in one call. */
    private static final int BATCH = 1_000;

    private DimCommand() {
    }

    /** The jobs' own rule for a dimension map's name ({@link Lookup#checkDimensionMap}), as a usage error. */
    static void checkDimensionMap(final String map) {
        try {
            Lookup.checkDimensionMap(map);
        } catch (final IllegalArgumentException e) {
            throw new ConfigException("--map " + map + ": " + e.getMessage() + ", e.g. dim.users", e);
        }
    }

    @Command(name = "load", mixinStandardHelpOptions = true,
            description = {"Put every row of a file into a dimension map, keyed by the schema's key field: JSON lines, or CSV",
                    "with a header naming the fields. A row whose key is already there replaces its value, so running the",
                    "load again changes nothing. Rows that are not valid records of the schema go to the rejected file."})
    static final class Load extends ConnectedCommand implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "FILE", description = "The rows.")
        Path input;

        @Option(names = "--map", required = true, paramLabel = "MAP", description = "The dimension map, e.g. dim.users.")
        String map;

        @Option(names = "--schema", required = true, paramLabel = "NAME",
                description = "The rows' schema: the configuration's, or your job's with --jar and --class.")
        String schemaName;

        @Option(names = "--format", paramLabel = "json|csv", description = "The file's format (default: csv for *.csv, else json).")
        String format;

        @Option(names = "--as-of-event-time", description = {"Each row a version of its key, valid from its event time:",
                "keyed <key>@<event time>, for a job's lookupAsOfEventTime."})
        boolean versions;

        @Option(names = "--rejected", paramLabel = "FILE",
                description = "Where rejected rows go, written only when one is (default: NAME.rejected in the working directory).")
        Path rejected;

        @Mixin
        JarSchemas jarSchemas;

        @Override
        public Integer call() {
            checkDimensionMap(map);
            if (!Files.isReadable(input)) {
                throw new ConfigException("cannot read " + input + ": check the path and its permissions");
            }
            final EventSchema schema = jarSchemas.schema(options.tree(), schemaName);
            final SchemaLoader.Format fileFormat = format == null ? SchemaLoader.Format.of(input) : IngestCommand.Load.parseFormat(format);
            final Path rejectedFile = (rejected != null ? rejected : Path.of(input.getFileName() + ".rejected")).toAbsolutePath();
            final PrintWriter out = spec.commandLine().getOut();
            return withClient(client -> {
                final IMap<Object, byte[]> target = client.getMap(map);
                final Map<Object, byte[]> batch = new HashMap<>();
                final LoadReport report;
                try {
                    report = new SchemaLoader(schema).load(input, fileFormat, rejectedFile, out::println, record -> {
                        batch.put(keyOf(record), record.toBytes());
                        if (batch.size() == BATCH) {
                            target.putAll(batch);
                            batch.clear();
                        }
                    });
                } catch (final IllegalArgumentException e) {
                    throw new ConfigException(e.getMessage() + "; nothing was loaded", e);
                } catch (final InputNotTextException e) {
                    throw new ConfigException(e.getMessage() + "; the rows before it were loaded", e);
                } catch (final IOException e) {
                    throw new UncheckedIOException(e);
                }
                target.putAll(batch);
                out.println(report.lines() + " lines, " + report.loaded() + " rows put into " + map + ", " + report.rejected() + " rejected"
                        + (report.rejected() > 0 ? " (see " + report.rejectedFile() + ")" : "") + "; " + map + " holds "
                        + target.size() + " entries");
                return 0;
            });
        }

        private Object keyOf(final SchemaRecord record) {
            final int key = record.layout().keyIndex();
            final Object value = record.layout().type(key) == FieldType.STRING ? record.getString(key) : (Object) record.getLong(key);
            return versions ? Lookup.versionKey(value, record.eventTime()) : value;
        }
    }

    @Command(name = "get", mixinStandardHelpOptions = true,
            description = "Print one entry of a dimension map of records, field by field.")
    static final class Get extends ConnectedCommand implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "MAP", description = "The dimension map, e.g. dim.users.")
        String map;

        @Parameters(index = "1", paramLabel = "KEY", description = "The key: text, or a whole number for a long key; KEY@TIME for a version.")
        String key;

        @Option(names = "--schema", required = true, paramLabel = "NAME",
                description = "The values' schema: the configuration's, or your job's with --jar and --class.")
        String schemaName;

        @Mixin
        JarSchemas jarSchemas;

        @Override
        public Integer call() {
            checkDimensionMap(map);
            final EventSchema schema = jarSchemas.schema(options.tree(), schemaName);
            final Object typedKey = schema.field(schema.keyField()).type() == FieldType.STRING || key.contains("@")
                    ? key : StateCommands.keyCandidates("long", key).get(0);
            return withClient(client -> {
                final Object value = client.getMap(map).get(typedKey);
                final PrintWriter out = spec.commandLine().getOut();
                if (value == null) {
                    spec.commandLine().getErr().println("streamgrid: no entry with key '" + key + "' in " + map);
                    return StreamGridCli.EXIT_FAILED;
                }
                if (!(value instanceof byte[] bytes)) {
                    throw new ConfigException(map + " holds a " + value.getClass().getSimpleName() + " under '" + key
                            + "', not a record: read it with streamgrid get");
                }
                final SchemaRecord record = new SchemaRecord(schema.layout()).wrap(new UnsafeBuffer(bytes), 0, bytes.length);
                final String problem = record.validate();
                if (problem != null) {
                    throw new ConfigException("the value of '" + key + "' in " + map + " is not a record of schema " + schema.name()
                            + ": " + problem);
                }
                final int width = schema.fields().stream().mapToInt(f -> f.name().length()).max().orElse(0);
                for (int i = 0; i < schema.fields().size(); i++) {
                    final String name = schema.fields().get(i).name();
                    out.println(name + " ".repeat(width - name.length() + 2) + valueText(record, i));
                }
                return 0;
            });
        }

        private static String valueText(final SchemaRecord record, final int field) {
            return record.layout().type(field) == FieldType.TIMESTAMP ? Instant.ofEpochMilli(record.getTimestamp(field)).toString()
                    : String.valueOf(record.value(field));
        }
    }
}
