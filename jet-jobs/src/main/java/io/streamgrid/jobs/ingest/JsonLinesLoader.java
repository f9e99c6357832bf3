package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.json.FlatJson;
import io.streamgrid.jobs.event.BuiltInEvents;
import io.streamgrid.jobs.event.ClickAction;
import io.streamgrid.jobs.event.SensorKind;
import io.streamgrid.jobs.schema.SchemaRecord;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Loads events of the built-in types from a JSON-lines file into their logs ({@link BuiltInLogs}),
 * one flat object per line, its {@code type} naming the built-in type:
 *
 * <pre>
 * {"type":"request","ts":1767225600000,"ip":"10.0.0.1","destination":"192.168.0.3","bytes":512,"status":200}
 * {"type":"sensor","ts":1767225600000,"machine":17,"kind":"temperature","value":61.5}
 * {"type":"click","ts":1767225600000,"user":42,"item":1001,"category":3,"action":"click"}
 * {"type":"transaction","ts":1767225600000,"user":42,"amount_cents":1999}
 * </pre>
 *
 * <p>Addresses are dotted quads here (the {@code request} schema holds them as numbers). Other
 * files of these types — CSV, or numeric addresses — load like any schema's with
 * {@code ingest load FILE --schema request}. {@code ts} is the event time in ms since the epoch; {@code seq} (optional) the source sequence
 * number, the line number when absent. Blank lines are skipped. A line that is not a valid event is
 * written to the rejected-records file as {@code line N: reason: text}, counted, and the load goes
 * on: a bad line never stops it and is never silently dropped.
 */
public final class JsonLinesLoader {
    private final BuiltInEvents events = new BuiltInEvents();

    /**
     * Loads {@code input} into {@code log}; rejected lines go to {@code rejectedFile} (created even
     * when empty, replaced if it exists). Reports progress every 100,000 lines.
     *
     * @throws IOException when the input cannot be read or the rejected file cannot be written
     */
    public LoadReport load(final Path input, final BuiltInLogs logs, final Path rejectedFile, final Consumer<String> progress)
            throws IOException {
        try (LoadLedger ledger = LoadLedger.open(logs.ingestDir(), input, logs.all(), true)) {
            return load(input, logs, rejectedFile, ledger, progress);
        }
    }

    /**
     * As {@link #load(Path, BuiltInLogs, Path, Consumer)}, through {@code ledger} (opened for
     * {@link BuiltInLogs#all()}): lines an interrupted load of the same file appended are not appended again.
     */
    public LoadReport load(final Path input, final BuiltInLogs logs, final Path rejectedFile, final LoadProgress ledger,
                           final Consumer<String> progress)
            throws IOException {
        return LineLoad.load(input, rejectedFile, progress, null, ledger, (line, lineNumber) -> {
            final SchemaRecord record = encode(FlatJson.parse(line), lineNumber);
            ledger.append(logs.logOf(record), record);
        });
    }

    private SchemaRecord encode(final Map<String, Object> fields, final long lineNumber) {
        final String type = text(fields, "type").toLowerCase(Locale.ROOT);
        final long timestamp = whole(fields, "ts");
        if (timestamp < 0) {
            throw new IllegalArgumentException("'ts' is negative: " + timestamp);
        }
        final long sequence = fields.containsKey("seq") ? whole(fields, "seq") : lineNumber;
        return switch (type) {
            case "request" -> events.request(timestamp, sequence, ip(fields, "ip"), ip(fields, "destination"),
                    (int) range(fields, "bytes", 0, Integer.MAX_VALUE), (int) range(fields, "status", 100, 599));
            case "sensor" -> events.sensor(timestamp, sequence, whole(fields, "machine"), kind(fields), decimal(fields, "value"));
            case "click" -> events.click(timestamp, sequence, whole(fields, "user"), whole(fields, "item"),
                    (int) range(fields, "category", 0, Integer.MAX_VALUE), action(fields));
            case "transaction" -> events.transaction(timestamp, sequence, whole(fields, "user"), whole(fields, "amount_cents"));
            default -> throw new IllegalArgumentException("unknown type '" + type + "' (request, sensor, click, transaction)");
        };
    }

    private static Object field(final Map<String, Object> fields, final String name) {
        final Object value = fields.get(name);
        if (value == null) {
            throw new IllegalArgumentException("missing field '" + name + "'");
        }
        return value;
    }

    private static String text(final Map<String, Object> fields, final String name) {
        final Object value = field(fields, name);
        if (!(value instanceof String s)) {
            throw new IllegalArgumentException("'" + name + "' must be a string, found " + value);
        }
        return s;
    }

    private static long whole(final Map<String, Object> fields, final String name) {
        final Object value = field(fields, name);
        if (!(value instanceof Long l)) {
            throw new IllegalArgumentException("'" + name + "' must be a whole number, found " + value);
        }
        return l;
    }

    private static long range(final Map<String, Object> fields, final String name, final long min, final long max) {
        final long value = whole(fields, name);
        if (value < min || value > max) {
            throw new IllegalArgumentException("'" + name + "' is " + value + ", must be " + min + " to " + max);
        }
        return value;
    }

    private static double decimal(final Map<String, Object> fields, final String name) {
        final Object value = field(fields, name);
        if (!(value instanceof Number n) || !Double.isFinite(n.doubleValue())) {
            throw new IllegalArgumentException("'" + name + "' must be a finite number, found " + value);
        }
        return n.doubleValue();
    }

    private static long ip(final Map<String, Object> fields, final String name) {
        final String text = text(fields, name);
        final Long ip = BuiltInEvents.parseIp(text);
        if (ip == null) {
            throw new IllegalArgumentException("'" + name + "' is not an IPv4 address: " + text);
        }
        return ip;
    }

    private static SensorKind kind(final Map<String, Object> fields) {
        final String kind = text(fields, "kind");
        try {
            return SensorKind.valueOf(kind.toUpperCase(Locale.ROOT));
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown sensor kind '" + kind + "' (vibration, temperature, pressure)");
        }
    }

    private static ClickAction action(final Map<String, Object> fields) {
        final String action = text(fields, "action");
        try {
            return ClickAction.valueOf(action.toUpperCase(Locale.ROOT));
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown action '" + action + "' (view, click, purchase)");
        }
    }

}
