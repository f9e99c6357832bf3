package io.streamgrid.perf;

import io.streamgrid.perf.report.BenchResult;
import io.streamgrid.perf.report.PercentileChart;
import io.streamgrid.perf.report.ResultsPage;
import io.streamgrid.perf.report.ResultsStore;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ./streamgrid bench [NAME...] [--quick]}: runs benchmarks one after the other, writes each
 * result to {@code perf/results/NAME.json} with its chart, and regenerates {@code perf/RESULTS.md}
 * from every result file there. A benchmark that fails is reported and the others still run; the
 * exit code is then 1.
 */
@Command(name = "streamgrid bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs StreamGrid's side-by-side benchmarks (ours vs plain Hazelcast / raw libraries and peers, same run).",
            "Results: perf/results/NAME.json and NAME-latency.png; summary: perf/RESULTS.md (generated)."},
        footer = {"", "Memory: this JVM takes a 4 GB heap (STREAMGRID_BENCH_HEAP=2g to change it);",
            "the member, Cassandra and Kafka JVMs some benchmarks start take their own.",
            "Exit: 0 all ran, 1 a benchmark failed, 2 usage error."})
public final class BenchMain implements Callable<Integer> {
    /** Held so the levels stick: Chronicle's and Hazelcast's INFO chatter would bury the progress lines. */
    private static final List<java.util.logging.Logger> QUIETED = List.of(
            java.util.logging.Logger.getLogger("net.openhft"), java.util.logging.Logger.getLogger("com.hazelcast"));

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "NAME", arity = "0..*", description = "Benchmarks to run (default: all built). --list names them.")
    private List<String> names = new ArrayList<>();

    @Option(names = "--quick", description = "Short runs: all of them in about 25 minutes (a full run about 73), wider ranges.")
    private boolean quick;

    @Option(names = "--query", paramLabel = "QUERY", description = "nexmark: run only this query (Q0, Q1, Q2, …).")
    private String query;

    @Option(names = "--list", description = "List the benchmarks and exit.")
    private boolean list;

    @Option(names = "--render-only", description = "Only regenerate RESULTS.md and the charts from the result files.")
    private boolean renderOnly;

    @Option(names = "--perf-dir", paramLabel = "DIR",
            description = "Where RESULTS.md and results/ go (default: the perf module of this checkout).")
    private Path perfDir;

    public static void main(final String[] args) {
        System.setProperty("java.awt.headless", "true");
        QUIETED.forEach(logger -> logger.setLevel(java.util.logging.Level.WARNING));
        System.exit(commandLine().execute(args));
    }

    /** The command with its error handling: a usage mistake is one line on standard error and exit 2. */
    static CommandLine commandLine() {
        final CommandLine commandLine = new CommandLine(new BenchMain());
        commandLine.setParameterExceptionHandler((e, a) -> {
            commandLine.getErr().println("bench: " + e.getMessage() + " (see ./streamgrid bench --help)");
            return 2;
        });
        return commandLine;
    }

    @Override
    public Integer call() {
        final List<Benchmark> catalogue = Benchmarks.all();
        if (list) {
            final PrintWriter out = spec.commandLine().getOut();
            final int width = catalogue.stream().mapToInt(b -> b.name().length()).max().orElse(0);
            catalogue.forEach(b -> out.printf("%-" + width + "s  %s%n", b.name(), b.title()));
            out.flush();
            return 0;
        }
        final Path perf = perfDir != null ? perfDir : defaultPerfDir();
        final ResultsStore store = new ResultsStore(perf.resolve("results"));
        if (renderOnly) {
            render(perf, store);
            return 0;
        }
        final List<Benchmark> selected = new ArrayList<>();
        for (final String name : names) {
            final java.util.Optional<Benchmark> found = catalogue.stream().filter(b -> b.name().equals(name)).findFirst();
            if (found.isEmpty()) {
                spec.commandLine().getErr().println("bench: unknown benchmark '" + name + "'; known: "
                        + catalogue.stream().map(Benchmark::name).toList() + " (see ./streamgrid bench --list)");
                return 2;
            }
            selected.add(found.get());
        }
        if (selected.isEmpty()) {
            selected.addAll(catalogue);
        }
        int failed = 0;
        final BenchTimes times = new BenchTimes(perf.resolve("target").resolve("bench-times.properties"));
        final List<String> order = selected.stream().map(Benchmark::name).toList();
        for (int i = 0; i < selected.size(); i++) {
            if (!runOne(selected.get(i), perf, store, times, order, i)) {
                failed++;
            }
        }
        render(perf, store);
        System.out.println("bench: " + (selected.size() - failed) + " of " + selected.size() + " ran; see "
                + perf.resolve("RESULTS.md"));
        return failed == 0 ? 0 : 1;
    }

    /**
     * Runs benchmark {@code index} of {@code order}; each progress line says which one, how long it
     * has run and, from this machine's last runs, about how long the rest will take.
     */
    private boolean runOne(final Benchmark benchmark, final Path perf, final ResultsStore store, final BenchTimes times,
                           final List<String> order, final int index) {
        final long start = System.nanoTime();
        final BenchContext context = new BenchContext(quick, freshWorkDir(perf, benchmark.name()), line -> {
            final double elapsed = (System.nanoTime() - start) / 1e9;
            System.out.printf(Locale.ROOT, "[%s %d/%d +%.1fs%s] %s%n", benchmark.name(), index + 1, order.size(), elapsed,
                    times.timeLeft(order, index, elapsed, quick), line);
        }, java.util.Optional.ofNullable(query), store.directory());
        context.progress("start (" + (quick ? "quick" : "full") + "): " + benchmark.title());
        try {
            final BenchResult result = benchmark.run(context);
            times.record(benchmark.name(), quick, (System.nanoTime() - start) / 1e9);
            final Path file = store.write(result);
            if (!result.latencies().isEmpty()) {
                PercentileChart.draw(result.title(), result.latencies(),
                        store.directory().resolve(ResultsPage.chartFileName(result.name())));
            }
            context.progress("done: " + file);
            result.goals().forEach(g -> context.progress(g.verdict() + ": " + g.goal() + " — " + g.detail()));
            return true;
        } catch (final Exception | Error e) {
            System.err.println("bench: " + benchmark.name() + " failed: " + e);
            e.printStackTrace();
            return false;
        }
    }

    private static void render(final Path perf, final ResultsStore store) {
        final List<BenchResult> results = store.readAll();
        for (final BenchResult result : results) {
            if (!result.latencies().isEmpty()) {
                PercentileChart.draw(result.title(), result.latencies(),
                        store.directory().resolve(ResultsPage.chartFileName(result.name())));
            }
        }
        final List<ResultsPage.Entry> entries = Benchmarks.all().stream()
                .map(b -> new ResultsPage.Entry(b.name(), b.title(), true)).toList();
        try {
            Files.writeString(perf.resolve("RESULTS.md"), ResultsPage.render(entries, results));
        } catch (final IOException e) {
            throw new UncheckedIOException("could not write " + perf.resolve("RESULTS.md"), e);
        }
    }

    private static Path defaultPerfDir() {
        final String root = System.getProperty("streamgrid.root");
        if (root == null) {
            throw new IllegalStateException("streamgrid.root is not set: run through ./streamgrid bench, or pass --perf-dir");
        }
        return Path.of(root, "perf");
    }

    private static Path freshWorkDir(final Path perf, final String name) {
        return BenchContext.empty(perf.resolve("target").resolve("bench-work").resolve(name));
    }

}
