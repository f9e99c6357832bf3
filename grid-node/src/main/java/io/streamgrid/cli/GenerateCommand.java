package io.streamgrid.cli;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.BuiltInLogs;
import io.streamgrid.jobs.ingest.EventGenerator;
import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.ingest.LoadLedger;
import io.streamgrid.jobs.ingest.LogTail;
import io.streamgrid.jobs.ingest.RecordGenerator;
import io.streamgrid.jobs.ingest.SchemaGenerator;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.node.ConfigException;
import io.streamgrid.node.impl.ConfigTree;
import io.streamgrid.node.impl.JobCatalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code streamgrid ingest generate}: seeded events of a built-in type or a configured schema, either
 * as history (event times from 2026-01-01, appended as fast as the log takes them) or {@code --live}
 * (event times on the clock, appended as the clock reaches them). Refuses, unless {@code --allow-late},
 * events every job would count as late: after the end of the stream, or before the log's latest event
 * time (what running it twice with one seed does).
 */
@Command(name = "generate", mixinStandardHelpOptions = true,
        description = {"Append deterministic generated events (seeded) to the log of their schema.",
                "History (default): event times from 2026-01-01T00:00Z, appended as fast as the log takes them.",
                "--live: event times on the clock, appended as the clock reaches them — a stream that moves",
                "  (run it in the background: ... --live --duration 10m &)."})
final class GenerateCommand implements java.util.concurrent.Callable<Integer> {
    /** The generator's parameter names, as its errors say them, and the options that set them. */
    private static final Map<String, String> OPTION_OF = Map.of("events", "--events", "eventsPerSecond", "--rate", "keys", "--keys",
            "zipfExponent", "--zipf", "maxDisorderMs", "--disorder-ms", "lateFraction", "--late-fraction",
            "maxLatenessMs", "--max-lateness-ms", "hotKeyFraction", "--hot-key-fraction");
    /** How long reading the end of a log may wait per partition (a Kafka reader fetches asynchronously). */
    private static final Duration TAIL_PATIENCE = Duration.ofSeconds(5);

    @Spec
    CommandSpec spec;

    @Option(names = {"--schema", "--type"}, paramLabel = "NAME", defaultValue = "request",
            description = "A built-in type (" + IngestCommand.BUILT_IN + ": realistic values) or a schema of the configuration "
                    + "(values derived from its fields) (default: ${DEFAULT-VALUE}).")
    String schemaName;

    @Option(names = "--events", description = "How many (default: 100000; with --live: until --duration ends or Ctrl-C).")
    Long events;

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

    @Option(names = "--end", description = "Append the end of the stream afterwards, so every window and timer fires.")
    boolean end;

    @Option(names = "--live", description = "Event times on the clock: each event appended when the clock reaches its time.")
    boolean live;

    @Option(names = "--duration", paramLabel = "TIME", converter = ClockDuration.class,
            description = "With --live: for this long (e.g. 90s, 10m, 2h): --rate × TIME events.")
    Duration duration;

    @Option(names = "--backfill", paramLabel = "TIME", converter = ClockDuration.class,
            description = "With --live: event times start this long before now, appended at once, so windows and baselines "
                    + "have history (e.g. 5m).")
    Duration backfill;

    @Option(names = "--allow-late", description = {"Append even events that every job counts as late: after the end of the",
            "stream, or earlier than the log's latest event (as running generate twice with one --seed does)."})
    boolean allowLate;

    @Mixin
    ConfigOptions options;

    @Mixin
    JarSchemas jarSchemas;

    @Override
    public Integer call() throws Exception {
        final ConfigTree tree = options.tree();
        final EventSchema schema = jarSchemas.schema(tree, schemaName.toLowerCase(Locale.ROOT));
        final EventType builtIn = EventType.ofSchema(schema.name());
        final GeneratorSpec generatorSpec = generatorSpec(builtIn);
        final PrintWriter out = spec.commandLine().getOut();
        if (JobCatalog.kafkaLogs(tree) != null) { // a Kafka load keeps its progress in its own transactions: no events to count, no lock
            generate(tree, schema, builtIn, generatorSpec, out);
            return 0;
        }
        // One writer of events at a time per ingest directory: a load's resume counts the events after its last record of progress.
        final AutoCloseable exclusive;
        try {
            exclusive = LoadLedger.exclusive(JobCatalog.ingestDir(tree));
        } catch (final IllegalStateException e) {
            throw new ConfigException(e.getMessage() + "; nothing was generated", e);
        }
        try (exclusive) {
            generate(tree, schema, builtIn, generatorSpec, out);
        }
        return 0;
    }

    /** The generator's spec from the options; a mistake in them is named by its option (exit 2). */
    private GeneratorSpec generatorSpec(final EventType builtIn) {
        if (!live && (duration != null || backfill != null)) {
            throw new ConfigException((duration != null ? "--duration" : "--backfill") + " goes with --live (events on the clock)");
        }
        if (events != null && duration != null) {
            throw new ConfigException("--events and --duration both say how many: give one");
        }
        try {
            final long count = events != null ? events
                    : duration != null ? Math.multiplyExact(rate, duration.toMillis()) / 1000
                    : live ? Long.MAX_VALUE : 100_000;
            GeneratorSpec generated = GeneratorSpec.of(builtIn, seed, count, keys).withRate(rate).withZipf(zipf)
                    .withDisorder(disorderMs, lateFraction, maxLatenessMs).withHotKeys(hotKeyFraction, 60_000);
            if (live) {
                generated = generated.withStart(System.currentTimeMillis() - (backfill == null ? 0 : backfill.toMillis()));
            }
            return generated;
        } catch (final IllegalArgumentException | ArithmeticException e) {
            throw new ConfigException(optionNamed(String.valueOf(e.getMessage())), e);
        }
    }

    /** "eventsPerSecond must be positive" as the user wrote it: "--rate must be positive". */
    static String optionNamed(final String message) {
        final int space = message.indexOf(' ');
        final String option = space > 0 ? OPTION_OF.get(message.substring(0, space)) : null;
        return option == null ? message : option + message.substring(space);
    }

    private void generate(final ConfigTree tree, final EventSchema schema, final EventType builtIn, final GeneratorSpec generatorSpec,
                          final PrintWriter out) {
        if (builtIn != null) {
            try (BuiltInLogs logs = IngestCommand.builtInLogs(tree)) {
                append(logs.log(builtIn), new EventGenerator(generatorSpec), generatorSpec, out);
            }
        } else {
            try (EventLog log = IngestCommand.openSchemaLog(tree, schema)) {
                append(log, new SchemaGenerator(schema, generatorSpec), generatorSpec, out);
            }
        }
    }

    private void append(final EventLog log, final RecordGenerator generator, final GeneratorSpec generatorSpec, final PrintWriter out) {
        if (!allowLate) {
            refuseLateEvents(log, generatorSpec);
        }
        if (!live) {
            finish(log, generator.appendTo(log, 100_000, out::println), generatorSpec, out);
            return;
        }
        out.println("appending " + log.schema().name() + " events at " + rate + "/s as the clock reaches their times"
                + (backfill != null ? " (the first " + backfill.toSeconds() + " s of event time at once)" : "")
                + (generatorSpec.events() == Long.MAX_VALUE ? ", until stopped (Ctrl-C)"
                : ", until " + Instant.ofEpochMilli(generatorSpec.arrival(generatorSpec.events() - 1))));
        out.flush();
        // Ctrl-C or SIGTERM (kill %1) stops the run between two events: the hook holds the process until what was
        // appended is flushed and counted in the closing line.
        final AtomicBoolean stop = new AtomicBoolean();
        final CountDownLatch finished = new CountDownLatch(1);
        final Thread onSignal = new Thread(() -> {
            stop.set(true);
            try {
                finished.await(10, TimeUnit.SECONDS);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "generate-stop");
        Runtime.getRuntime().addShutdownHook(onSignal);
        try {
            final long appended = generator.appendLive(log, System::currentTimeMillis, stop::get, line -> {
                out.println(line);
                out.flush();
            });
            finish(log, appended, generatorSpec, out);
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(onSignal);
            } catch (final IllegalStateException shuttingDown) {
                // the hook is running: it ends now that the latch is down
            }
        }
    }

    /** Ends the stream if asked, flushes, and says what was appended. */
    private void finish(final EventLog log, final long appended, final GeneratorSpec generatorSpec, final PrintWriter out) {
        if (end) {
            log.appendEndOfStream();
        }
        log.flush(); // Kafka: every event acknowledged (or this fails) before "appended" is printed
        out.println("appended " + appended + " " + log.schema().name() + " events to " + IngestCommand.where(log)
                + (live && appended > 0 ? ", event times " + Instant.ofEpochMilli(generatorSpec.arrival(0)) + " to "
                + Instant.ofEpochMilli(generatorSpec.arrival(appended - 1)) : "")
                + (end ? ", then the end of the stream" : ""));
        out.flush();
    }

    /** Refuses (exit 2, nothing appended) events every job would count as late, saying why and what to do instead. */
    private void refuseLateEvents(final EventLog log, final GeneratorSpec generatorSpec) {
        final LogTail tail;
        try {
            tail = LogTail.of(log, TAIL_PATIENCE);
        } catch (final IllegalStateException e) {
            throw new ConfigException("could not read the end of " + IngestCommand.where(log) + " to check for an ended stream: "
                    + e.getMessage() + "; nothing was appended (--allow-late appends without the check)", e);
        }
        if (tail.ended()) {
            throw new ConfigException("the stream of " + log.schema().name() + " in " + IngestCommand.where(log) + " was ended (--end or "
                    + "ingest end): every job counts events appended after its end as late, so these would change no window; "
                    + "nothing was appended. For a stream that goes on, leave out --end (or use a new ingest.dir); "
                    + "--allow-late appends anyway");
        }
        final long first = generatorSpec.arrival(0);
        if (tail.latestEventTime() != Long.MIN_VALUE && first < tail.latestEventTime()) {
            throw new ConfigException("these events' times would start at " + Instant.ofEpochMilli(first) + ", before the latest event in "
                    + IngestCommand.where(log) + " (" + Instant.ofEpochMilli(tail.latestEventTime()) + "): jobs would count most of them "
                    + "as late (generating twice with one --seed repeats the same times); nothing was appended. --live generates "
                    + "events at the clock's time; --allow-late appends anyway");
        }
    }

    /** A length of clock time as people write it: 500ms, 90s, 10m, 2h. */
    static final class ClockDuration implements ITypeConverter<Duration> {
        private static final Pattern FORM = Pattern.compile("(\\d+)\\s*(ms|s|m|h)");

        @Override
        public Duration convert(final String text) {
            final Matcher m = FORM.matcher(text.trim().toLowerCase(Locale.ROOT));
            if (!m.matches()) {
                throw new picocli.CommandLine.TypeConversionException("'" + text + "' is not a time: write it as 500ms, 90s, 10m or 2h");
            }
            final long n = Long.parseLong(m.group(1));
            return switch (m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                default -> Duration.ofHours(n);
            };
        }
    }
}
