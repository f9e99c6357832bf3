package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.Field;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.schema.json.FlatJson;
import io.streamgrid.jobs.schema.json.RecordEncoder;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Loads events of one {@link EventSchema} from a file into its {@link SchemaLog}: JSON lines (one
 * flat object per line, keys the schema's field names) or CSV (a header line naming the fields,
 * then one event per line; fields in double quotes may hold commas, {@code ""} is a quote).
 *
 * <p>Values: int and long whole numbers; double any finite number; boolean true or false;
 * timestamp milliseconds since the epoch or an ISO-8601 instant ({@code 2026-01-01T09:30:00Z}); enum
 * one of the field's symbols; string at most the field's byte length in UTF-8. A field left out
 * takes its default; without one the line is rejected. {@code seq} (when the schema has no field
 * of that name) is the source sequence number, the line number when absent.
 *
 * <p>A line that is not a valid event is written to the rejected-records file as
 * {@code line N: reason: text}, counted, and the load goes on: a bad line never stops it and is
 * never silently dropped. A CSV header naming a column the schema does not have stops the load
 * before anything is appended.
 */
public final class SchemaLoader {
    /** The input's format. */
    public enum Format {
        JSON, CSV,
        /** A web server's access log, Common or Combined Log Format: the schema's fields take its values by name (see {@link #ACCESS_LOG_FIELDS}). */
        ACCESSLOG;

        /** CSV for a {@code .csv} file, else JSON lines. */
        public static Format of(final Path file) {
            return file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".csv") ? CSV : JSON;
        }
    }

    private static final String SEQUENCE = "seq";

    private final EventSchema schema;
    private final RecordEncoder encoder;

    public SchemaLoader(final EventSchema schema) {
        this.schema = schema;
        this.encoder = new RecordEncoder(schema);
    }

    /**
     * Loads {@code input} into {@code log}; rejected lines go to {@code rejectedFile} (created even
     * when empty, replaced if it exists). Reports progress every 100,000 lines.
     *
     * @throws IOException              when the input cannot be read or the rejected file written
     * @throws IllegalArgumentException when a CSV header names a column the schema lacks or is empty
     */
    public LoadReport load(final Path input, final Format format, final SchemaLog log, final Path rejectedFile,
                           final Consumer<String> progress) throws IOException {
        try (LoadLedger ledger = LoadLedger.open(log.directory().toAbsolutePath().getParent(), input, List.of(log), true)) {
            return load(input, format, log, rejectedFile, ledger, progress);
        }
    }

    /**
     * As {@link #load(Path, Format, SchemaLog, Path, Consumer)}, through {@code ledger} (opened for
     * {@code log}): lines an interrupted load of the same file appended are not appended again.
     */
    public LoadReport load(final Path input, final Format format, final EventLog log, final Path rejectedFile,
                           final LoadProgress ledger, final Consumer<String> progress) throws IOException {
        return load(input, format, rejectedFile, ledger, progress, record -> ledger.append(log, record));
    }

    /**
     * Reads {@code input}'s events into {@code sink} (each record valid during the call), the whole
     * file every time, rejected lines as for a log: for targets where loading a line twice changes
     * nothing, such as a dimension map's puts by key. A {@link IllegalArgumentException} from
     * {@code sink} rejects the line.
     */
    public LoadReport load(final Path input, final Format format, final Path rejectedFile, final Consumer<String> progress,
                           final Consumer<SchemaRecord> sink) throws IOException {
        return load(input, format, rejectedFile, new WholeFile(), progress, sink);
    }

    private LoadReport load(final Path input, final Format format, final Path rejectedFile, final LoadProgress ledger,
                            final Consumer<String> progress, final Consumer<SchemaRecord> sink) throws IOException {
        if (format == Format.ACCESSLOG) {
            checkAccessLogFields(input);
            final List<String> kept = schema.fields().stream().map(Field::name).toList();
            return LineLoad.load(input, rejectedFile, progress, null, ledger, (line, lineNumber) -> {
                final Map<String, Object> values = AccessLogLine.parse(line);
                values.keySet().retainAll(kept); // the log's other parts (ident, protocol, ...) are not the schema's
                sink.accept(encoder.encode(values, lineNumber));
            });
        }
        final List<String> header = new ArrayList<>();
        return LineLoad.load(input, rejectedFile, progress, format == Format.CSV ? first -> header.addAll(checkHeader(first, input)) : null,
                ledger, (line, lineNumber) -> sink.accept(encoder.encode(header.isEmpty() ? FlatJson.parse(line) : csvValues(header, line),
                        lineNumber)));
    }

    /** A load that keeps no record of its progress: every run reads the whole file. */
    private static final class WholeFile implements LoadProgress {
        @Override
        public long resumeAfterLine() {
            return 0;
        }

        @Override
        public boolean finished() {
            return false;
        }

        @Override
        public String finishedDescription() {
            return "";
        }

        @Override
        public long skippedAsAlreadyAppended() {
            return 0;
        }

        @Override
        public boolean append(final EventLog log, final SchemaRecord record) {
            throw new UnsupportedOperationException("a whole-file load hands its records to its sink");
        }

        @Override
        public void lineDone(final long lineNumber) {
        }

        @Override
        public void finish(final long lines) {
        }

        @Override
        public void close() {
        }
    }

    /** The field names an access log provides; a schema loaded from one uses some of them. */
    public static final List<String> ACCESS_LOG_FIELDS = AccessLogLine.FIELDS;

    /** Every field of the schema must be one an access log has, or have a default: else no line could load. */
    private void checkAccessLogFields(final Path input) {
        for (final Field field : schema.fields()) {
            if (!AccessLogLine.FIELDS.contains(field.name()) && field.defaultValue() == null) {
                throw new IllegalArgumentException(input + ": schema " + schema.name() + " has field '" + field.name()
                        + "', which an access log does not provide (it has " + AccessLogLine.FIELDS + ") and which has no default");
            }
        }
    }

    private List<String> checkHeader(final String first, final Path input) {
        if (first == null || first.isBlank()) {
            throw new IllegalArgumentException(input + " has no CSV header line: the first line must name the columns, e.g. "
                    + String.join(",", schema.fields().stream().map(Field::name).toList()));
        }
        final List<String> header = Csv.split(first);
        for (final String column : header) {
            if (!column.equals(SEQUENCE) && schema.fields().stream().noneMatch(f -> f.name().equals(column))) {
                throw new IllegalArgumentException(input + ": CSV column '" + column + "' is not a field of schema " + schema.name()
                        + " " + schema.fields().stream().map(Field::name).toList());
            }
        }
        return header;
    }

    private static Map<String, Object> csvValues(final List<String> header, final String line) {
        final List<String> cells = Csv.split(line);
        if (cells.size() != header.size()) {
            throw new IllegalArgumentException(cells.size() + " columns, the header has " + header.size());
        }
        final Map<String, Object> values = new HashMap<>();
        for (int i = 0; i < cells.size(); i++) {
            if (!cells.get(i).isEmpty()) {
                values.put(header.get(i), cells.get(i)); // empty: left out (its default, if any)
            }
        }
        return values;
    }

    /**
     * Encodes one event given as a JSON value in a log ({@link KafkaLog}: a record of another
     * language's Kafka client), {@code values} as {@link FlatJson} parses them, into the record this
     * loader reuses; {@code sequence} unless the value carries {@code seq}. Valid until the next call.
     *
     * @throws IllegalArgumentException naming the field, as {@link RecordEncoder#encodePublished}
     */
    public SchemaRecord encodeEvent(final Map<String, Object> values, final long sequence) {
        return encoder.encode(values, sequence);
    }

    /** Splits one CSV line: comma-separated, double quotes around fields holding commas or quotes, "" for a quote. */
    static final class Csv {
        private Csv() {
        }

        static List<String> split(final String line) {
            final List<String> cells = new ArrayList<>();
            final StringBuilder cell = new StringBuilder();
            boolean quoted = false;
            boolean wasQuoted = false;
            for (int i = 0; i < line.length(); i++) {
                final char c = line.charAt(i);
                if (quoted) {
                    if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                        cell.append('"');
                        i++;
                    } else if (c == '"') {
                        quoted = false;
                    } else {
                        cell.append(c);
                    }
                } else if (c == '"' && cell.isEmpty() && !wasQuoted) {
                    quoted = true;
                    wasQuoted = true;
                } else if (c == ',') {
                    cells.add(wasQuoted ? cell.toString() : cell.toString().trim());
                    cell.setLength(0);
                    wasQuoted = false;
                } else if (wasQuoted && !Character.isWhitespace(c)) {
                    throw new IllegalArgumentException("text after the closing quote of column " + (cells.size() + 1));
                } else {
                    cell.append(c);
                }
            }
            if (quoted) {
                throw new IllegalArgumentException("unterminated quote in column " + (cells.size() + 1));
            }
            cells.add(wasQuoted ? cell.toString() : cell.toString().trim());
            return cells;
        }
    }
}
