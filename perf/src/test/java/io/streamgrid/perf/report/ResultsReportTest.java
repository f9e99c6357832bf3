package io.streamgrid.perf.report;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ResultsReportTest {
    @TempDir
    Path dir;

    @Test
    void when_resultWrittenAndReadBack_then_everyFigureSurvives() {
        final ResultsStore store = new ResultsStore(dir.resolve("results"));
        final BenchResult written = sample("ingest");
        store.write(written);

        final List<BenchResult> read = store.readAll();

        assertThat(read).hasSize(1);
        final BenchResult back = read.get(0);
        assertThat(back.name()).isEqualTo("ingest");
        assertThat(back.measurements().get(0).median()).isEqualTo(written.measurements().get(0).median());
        assertThat(back.measurements().get(0).runs()).containsExactly(written.measurements().get(0).runs());
        assertThat(back.latencies().get(0).p99Us()).isEqualTo(written.latencies().get(0).p99Us());
        assertThat(back.latencies().get(0).curve()).hasSameSizeAs(written.latencies().get(0).curve());
        assertThat(back.goals()).isEqualTo(written.goals());
    }

    @Test
    void when_pageRendered_then_resultsAppearAndMissingBenchmarksSayPendingOrNotRun() {
        final String page = ResultsPage.render(List.of(
                new ResultsPage.Entry("windowing", "windows", true),
                new ResultsPage.Entry("ingest", "ingest log", true),
                new ResultsPage.Entry("migration", "migration", false)), List.of(sample("ingest")));

        assertThat(page).contains("| ingest | the goal | **NOT MET** | half of it |");
        assertThat(page).contains("| windowing | — | NOT RUN |");
        assertThat(page).contains("| migration | — | PENDING (not built) |");
        assertThat(page).contains("_Pending: this benchmark is not built yet. No figures exist for it._");
        assertThat(page).contains("| ours | events/s | 2,000,000 | 1,000,000–3,000,000 | 3 |");
        assertThat(page).contains("![ingest latency by percentile](results/ingest-latency.png)");
        assertThat(page).contains("| cores | 2 |");
    }

    @Test
    void when_lineChartDrawn_then_eachCurveIsDrawnInItsColourWhereItsPointsAre() throws Exception {
        final Path png = dir.resolve("lines.png");
        LineChart.draw("loss", "s", "loss", java.util.List.of(
                new LineChart.Curve("falling", java.util.List.of(new double[]{0, 1}, new double[]{10, 0})),
                new LineChart.Curve("flat", java.util.List.of(new double[]{0, 0.5}, new double[]{10, 0.5}))), png);

        final BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(1040);
        // Plot: x 80..740 for 0..10, y 460..50 for 0..1. A quarter in (x = 245): the falling curve at 0.75 (y ≈ 152), the flat one at 0.5 (y = 255).
        assertThat(colourNear(image, 245, 152)).contains(PercentileChart.COLORS[0].getRGB() & 0xFFFFFF);
        assertThat(colourNear(image, 245, 255)).contains(PercentileChart.COLORS[1].getRGB() & 0xFFFFFF);
        assertThat(colourNear(image, 245, 400)).containsOnly(0xFFFFFF);
    }

    /** The colours of the pixels of column {@code x} within 3 of row {@code y}. */
    private static java.util.Set<Integer> colourNear(final BufferedImage image, final int x, final int y) {
        final java.util.Set<Integer> colours = new java.util.HashSet<>();
        for (int row = y - 3; row <= y + 3; row++) {
            colours.add(image.getRGB(x, row) & 0xFFFFFF);
        }
        return colours;
    }

    @Test
    void when_chartDrawn_then_pngHasTheChartsSize() throws Exception {
        final Path png = dir.resolve("chart.png");
        PercentileChart.draw("title", sample("ingest").latencies(), png);

        final BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image).isNotNull();
        assertThat(image.getWidth()).isEqualTo(1040);
    }

    @Test
    void when_measurementSummarised_then_medianAndRangeOfTheRuns() {
        final Measurement even = Measurement.of("s", "ours", "x/s", 4, 1, 3, 2);
        assertThat(even.median()).isEqualTo(2.5);
        assertThat(even.min()).isEqualTo(1);
        assertThat(even.max()).isEqualTo(4);
        assertThat(Measurement.of("s", "ours", "x/s", 5, 1, 3).median()).isEqualTo(3);
    }

    @Test
    void when_numbersFormatted_then_threeSignificantDigits() {
        assertThat(ResultsPage.number(2_841_234)).isEqualTo("2,840,000");
        assertThat(ResultsPage.number(123.4)).isEqualTo("123");
        assertThat(ResultsPage.number(0.012345)).isEqualTo("0.0123");
        assertThat(ResultsPage.number(Double.NaN)).isEqualTo("n/a");
    }

    private static BenchResult sample(final String name) {
        final Histogram histogram = new Histogram(3);
        for (int i = 1; i <= 1_000; i++) {
            histogram.recordValue(i * 1_000L);
        }
        return new BenchResult(name, "a title", "the setup", "quick", "2026-11-30T00:00:00Z",
                new Environment(2, 24, "a JVM", "an OS", Map.of("hazelcast", "5.7.0")),
                List.of(Measurement.of("subject", "ours", "events/s", 1_000_000, 2_000_000, 3_000_000)),
                List.of(LatencyProfile.ofNanos("subject", "phase", 100, histogram, 0)),
                List.of(new Ratio("ours / theirs", 0.5, "below 1: slower")),
                List.of(GoalCheck.of("the goal", false, "half of it")), List.of("a note"));
    }
}
