package io.streamgrid.cli;

import com.hazelcast.core.DistributedObject;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.streamgrid.client.Delta;
import io.streamgrid.client.DeltaListener;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.client.Subscription;
import io.streamgrid.client.SubscriptionOptions;
import io.streamgrid.cq.Where;
import io.streamgrid.cq.WhereErrors;
import io.streamgrid.node.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * Looking at state from the command line: {@code get MAP KEY}, {@code query MAP}, {@code watch MAP}.
 * Values print by field name ({@link ValueText}); a map the cluster does not have is an error
 * naming the maps it has, so a typo does not look like an empty result.
 */
final class StateCommands {
    private StateCommands() {
    }

    /** What the three commands share: the connection and the map. */
    abstract static class MapCommand extends ConnectedCommand {
        @Parameters(index = "0", paramLabel = "MAP", description = "The map, e.g. state.ip-traffic.")
        String map;
    }

    /**
     * The keys to try for {@code key} given as {@code type}: {@code auto} tries the text, then,
     * for a whole number, the long and the int of that value (state maps are keyed by text, by
     * longs or by ints, and the command line cannot tell which).
     */
    static List<Object> keyCandidates(final String type, final String key) {
        try {
            return switch (type) {
                case "string" -> List.of(key);
                case "long" -> List.of(Long.parseLong(key));
                case "int" -> List.of(Integer.parseInt(key));
                case "auto" -> {
                    if (!key.matches("-?\\d{1,18}")) {
                        yield List.of(key);
                    }
                    final long number = Long.parseLong(key);
                    yield number == (int) number ? List.of(key, number, (int) number) : List.of(key, number);
                }
                default -> throw new ConfigException("--key-type " + type + " is not one of auto, string, long, int");
            };
        } catch (final NumberFormatException e) {
            throw new ConfigException("key '" + key + "' is not a number that fits --key-type " + type);
        }
    }

    @Command(name = "get", mixinStandardHelpOptions = true,
            description = {"Print one entry of a map: its value's fields by name, times as UTC instants, doubles rounded"
                    + " (--json: exact).", "KEY as query prints it, e.g. get state.ip-traffic 10.0.0.7@1767225600000"})
    static final class Get extends MapCommand implements Callable<Integer> {

        @Parameters(index = "1", paramLabel = "KEY", description = "The entry's key.")
        String key;

        @Option(names = "--key-type", defaultValue = "auto", paramLabel = "TYPE",
                description = "auto (the text, then a whole number as a long and an int), string, long or int (default: ${DEFAULT-VALUE}).")
        String keyType;

        @Option(names = "--json", description = "One JSON object instead of a field per line.")
        boolean json;

        @Override
        public Integer call() {
            final List<Object> candidates = keyCandidates(keyType, key);
            return withClient(client -> {
                final IMap<Object, Object> entries = existingMap(client, map);
                final PrintWriter out = spec.commandLine().getOut();
                for (final Object candidate : candidates) {
                    final Object value = entries.get(candidate);
                    if (value != null) {
                        if (json) {
                            out.println(ValueText.json(candidate, value));
                        } else {
                            ValueText.fields(value).forEach(out::println);
                            ValueText.legend(ValueText.fieldsOf(List.of(value))).forEach(out::println);
                        }
                        return 0;
                    }
                }
                spec.commandLine().getErr().println("streamgrid: no entry with key '" + key + "' in " + map
                        + (candidates.size() > 1 ? " (looked up as text and as a number)" : ""));
                return StreamGridCli.EXIT_FAILED;
            });
        }
    }

    @Command(name = "query", mixinStandardHelpOptions = true,
            description = "Print the entries of a map that match a predicate, as a table (or JSON lines), in key order.")
    static final class Query extends MapCommand implements Callable<Integer> {

        @Option(names = "--where", paramLabel = "TEXT", defaultValue = "",
                description = "A predicate on the values' fields, e.g. \"count > 100 AND ip LIKE '10.%'\" (default: every entry).")
        String where;

        @Option(names = "--limit", paramLabel = "N", defaultValue = "50", description = "Print at most N entries (default: ${DEFAULT-VALUE}).")
        int limit;

        @Option(names = "--json", description = "One JSON object per line: {\"key\": ..., \"value\": {...}}.")
        boolean json;

        @Override
        public Integer call() {
            if (limit < 1) {
                throw new ConfigException("--limit must be at least 1, was " + limit);
            }
            final Where predicate = parseWhere(where); // a syntax error is reported before connecting
            return withClient(client -> {
                final List<Map.Entry<Object, Object>> matching;
                try {
                    matching = new ArrayList<>(existingMap(client, map).entrySet(predicate));
                } catch (final RuntimeException e) {
                    throw wrongForTheValues(where, e);
                }
                matching.sort(Map.Entry.comparingByKey(ValueText.KEY_ORDER));
                final List<Map.Entry<Object, Object>> shown = matching.subList(0, Math.min(limit, matching.size()));
                final PrintWriter out = spec.commandLine().getOut();
                if (json) {
                    shown.forEach(e -> out.println(ValueText.json(e.getKey(), e.getValue())));
                } else {
                    ValueText.table(shown).forEach(out::println);
                    out.println(matching.size() > shown.size()
                            ? "(" + shown.size() + " of " + matching.size() + " matching entries shown; --limit to see more)"
                            : "(" + matching.size() + " matching " + (matching.size() == 1 ? "entry" : "entries") + ")");
                    ValueText.legend(ValueText.fieldsOf(shown.stream().map(Map.Entry::getValue).toList())).forEach(out::println);
                }
                return 0;
            });
        }
    }

    @Command(name = "watch", mixinStandardHelpOptions = true,
            description = "Follow a map as a continuous query: the matching entries, then each change (ENTER, UPDATE, LEAVE) "
                    + "as it happens, in write order per key, until Ctrl-C.")
    static final class Watch extends MapCommand implements Callable<Integer> {

        @Option(names = "--where", paramLabel = "TEXT", defaultValue = "", description = "A predicate on the values' fields (default: every entry).")
        String where;

        @Option(names = "--changes", paramLabel = "N", defaultValue = "0",
                description = "Stop after N changes (default: run until Ctrl-C).")
        long changes;

        @Option(names = "--json", description = "One JSON object per line: {\"change\": ..., \"key\": ..., \"value\": {...}}.")
        boolean json;

        @Option(names = "--conflated", description = {"The latest value of each key rather than every change: a terminal that cannot",
                "keep up with the writes shows fewer, newer changes instead of falling behind."})
        boolean conflated;

        @Override
        public Integer call() throws InterruptedException {
            parseWhere(where); // a syntax error is reported before connecting
            final PrintWriter out = spec.commandLine().getOut();
            final CountDownLatch done = new CountDownLatch(1);
            final Throwable[] failure = {null};
            try (StreamGridClient client = ClientConnector.connectStreamGrid(options.tree(), members.addresses)) {
                existingMap(client.hazelcast(), map);
                final long[] seen = {0};
                final DeltaListener listener = new DeltaListener() {
                    @Override
                    public void onSnapshot(final Map<Object, Object> entries) {
                        entries.entrySet().stream().sorted(Map.Entry.comparingByKey(ValueText.KEY_ORDER))
                                .forEach(e -> out.println(line("SNAPSHOT", e.getKey(), e.getValue())));
                        out.println(json ? "{\"snapshot\":" + entries.size() + "}"
                                : "-- " + entries.size() + " matching " + (entries.size() == 1 ? "entry" : "entries")
                                + "; changes follow as they happen" + (changes > 0 ? " (until " + changes + ")" : " (Ctrl-C to stop)"));
                        if (!json) {
                            ValueText.legend(ValueText.fieldsOf(entries.values())).forEach(out::println);
                        }
                    }

                    @Override
                    public void onDelta(final Delta delta) {
                        // Changes come in batches: those after the N-th of --changes N are not printed.
                        if (changes > 0 && seen[0] >= changes) {
                            return;
                        }
                        out.println(line(delta.kind().name(), delta.key(), delta.value()));
                        if (changes > 0 && ++seen[0] >= changes) {
                            done.countDown();
                        }
                    }

                    @Override
                    public void onResync(final java.util.Set<Integer> partitions, final String reason) {
                        out.println(json ? "{\"resync\":" + partitions.size() + "}"
                                : "-- resynchronised " + partitions.size() + " partition(s): " + reason);
                    }

                    @Override
                    public void onFailure(final Throwable cause) {
                        failure[0] = cause;
                        done.countDown();
                    }
                };
                final Subscription subscription;
                try {
                    subscription = client.subscribe(map, where, listener, conflated ? SubscriptionOptions.conflated() : SubscriptionOptions.defaults());
                } catch (final RuntimeException e) {
                    throw wrongForTheValues(where, e);
                }
                try (subscription) {
                    done.await();
                    if (failure[0] != null) {
                        final RuntimeException reported = wrongForTheValues(where, failure[0]);
                        if (reported instanceof ConfigException) {
                            throw reported;
                        }
                        spec.commandLine().getErr().println("streamgrid: the watch stopped: " + failure[0].getMessage());
                    }
                    return subscription.state() == Subscription.State.FAILED ? StreamGridCli.EXIT_FAILED : 0;
                }
            }
        }

        private String line(final String change, final Object key, final Object value) {
            return json ? ValueText.json(change, key, value) : change + "  " + ValueText.row(key, value);
        }
    }

    /** The map named {@code name}, which the cluster must have; otherwise an error naming the maps it has. */
    static IMap<Object, Object> existingMap(final HazelcastInstance client, final String name) {
        final TreeSet<String> maps = new TreeSet<>();
        for (final DistributedObject object : client.getDistributedObjects()) {
            if (object instanceof IMap<?, ?>) {
                maps.add(object.getName());
            }
        }
        if (!maps.contains(name)) {
            // Jet's and Hazelcast's own ("__"), and StreamGrid's ("streamgrid.": subscriptions, publishers, log positions)
            maps.removeIf(internal -> internal.startsWith("__") || internal.startsWith("streamgrid."));
            throw new ConfigException("the cluster has no map named '" + name + "' (yet: a job creates a map when it first "
                    + "writes to it); its maps: " + (maps.isEmpty() ? "none" : String.join(", ", maps)));
        }
        return client.getMap(name);
    }

    /** {@code text} as a predicate; a syntax error in it is the user's mistake (exit 2). */
    private static Where parseWhere(final String text) {
        try {
            return Where.parse(text);
        } catch (final IllegalArgumentException e) {
            throw new ConfigException("--where: " + e.getMessage(), e);
        }
    }

    /**
     * What to throw for {@code error} from a query or subscription with predicate {@code where}: a
     * {@link ConfigException} (exit 2) when the predicate is wrong for the map's values (a field they
     * lack), else the error as it is.
     */
    private static RuntimeException wrongForTheValues(final String where, final Throwable error) {
        final Throwable wrong = WhereErrors.find(error);
        if (wrong != null) {
            return new ConfigException("--where \"" + where + "\": " + WhereErrors.describe(wrong), error);
        }
        return error instanceof RuntimeException runtime ? runtime : new IllegalStateException(error.getMessage(), error);
    }
}
