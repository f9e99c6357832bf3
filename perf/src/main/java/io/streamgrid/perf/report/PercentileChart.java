package io.streamgrid.perf.report;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Draws latency-by-percentile curves into a PNG, the usual HdrHistogram picture: the x axis is
 * {@code 1 / (1 - percentile)} on a log scale (ticks at 0, 90, 99, 99.9, 99.99 %), the y axis is
 * latency in microseconds on a log scale. Headless AWT; no fonts beyond the JDK's logical ones.
 */
public final class PercentileChart {
    private static final int WIDTH = 1040;
    private static final int HEIGHT = 520;
    private static final int LEFT = 80;
    private static final int RIGHT = 390;
    private static final int TOP = 50;
    private static final int BOTTOM = 60;
    private static final double MAX_X = 4; // log10(1 / (1 - 0.9999))
    static final Color[] COLORS = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e),
        new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f), new Color(0x17becf)};

    private PercentileChart() {
    }

    /** Draws one curve per profile into {@code png}, replacing it. */
    public static void draw(final String title, final List<LatencyProfile> profiles, final Path png) {
        System.setProperty("java.awt.headless", "true");
        double minUs = Double.MAX_VALUE;
        double maxUs = 0;
        for (final LatencyProfile profile : profiles) {
            for (final double[] point : profile.curve()) {
                minUs = Math.min(minUs, Math.max(point[1], 0.01));
                maxUs = Math.max(maxUs, point[1]);
            }
        }
        final double lowDecade = Math.floor(Math.log10(minUs));
        final double highDecade = Math.max(lowDecade + 1, Math.ceil(Math.log10(Math.max(maxUs, 0.01))));

        final BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        final Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
            g.setColor(Color.BLACK);
            g.drawString(title, LEFT, 28);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));

            final int plotWidth = WIDTH - LEFT - RIGHT;
            final int plotHeight = HEIGHT - TOP - BOTTOM;
            final String[] xLabels = {"0%", "90%", "99%", "99.9%", "99.99%"};
            for (int i = 0; i <= MAX_X; i++) {
                final int x = LEFT + (int) (plotWidth * i / MAX_X);
                g.setColor(new Color(0xdddddd));
                g.drawLine(x, TOP, x, TOP + plotHeight);
                g.setColor(Color.BLACK);
                g.drawString(xLabels[i], x - 14, TOP + plotHeight + 18);
            }
            g.drawString("percentile", LEFT + plotWidth / 2 - 30, TOP + plotHeight + 40);
            for (double decade = lowDecade; decade <= highDecade; decade++) {
                final int y = yOf(decade, lowDecade, highDecade, plotHeight);
                g.setColor(new Color(0xdddddd));
                g.drawLine(LEFT, y, LEFT + plotWidth, y);
                g.setColor(Color.BLACK);
                g.drawString(formatMicros(Math.pow(10, decade)), 8, y + 4);
            }
            g.drawRect(LEFT, TOP, plotWidth, plotHeight);
            g.drawString("latency (log)", 8, TOP - 8);

            g.setStroke(new BasicStroke(2f));
            int legendY = TOP + 10;
            for (int s = 0; s < profiles.size(); s++) {
                final LatencyProfile profile = profiles.get(s);
                g.setColor(COLORS[s % COLORS.length]);
                final List<double[]> curve = profile.curve();
                final int[] xs = new int[curve.size()];
                final int[] ys = new int[curve.size()];
                for (int i = 0; i < xs.length; i++) {
                    final double xValue = Math.min(MAX_X, Math.log10(1 / (1 - curve.get(i)[0] / 100)));
                    xs[i] = LEFT + (int) (plotWidth * xValue / MAX_X);
                    ys[i] = yOf(Math.log10(Math.max(curve.get(i)[1], 0.01)), lowDecade, highDecade, plotHeight);
                }
                g.drawPolyline(xs, ys, xs.length);
                g.fillRect(LEFT + plotWidth + 12, legendY - 8, 14, 8);
                g.setColor(Color.BLACK);
                g.drawString(legend(profile), LEFT + plotWidth + 32, legendY);
                legendY += 20;
            }
        } finally {
            g.dispose();
        }
        writePng(image, png);
    }

    /** Writes {@code image} to {@code png} (its directory created), replacing it; shared by the charts. */
    static void writePng(final BufferedImage image, final Path png) {
        try {
            Files.createDirectories(png.toAbsolutePath().getParent());
            ImageIO.write(image, "png", png.toFile());
        } catch (final IOException e) {
            throw new UncheckedIOException("could not write chart " + png, e);
        }
    }

    private static String legend(final LatencyProfile profile) {
        final String text = profile.subject() + (profile.phase().isEmpty() ? "" : " · " + profile.phase());
        return text.length() > 52 ? text.substring(0, 51) + "…" : text;
    }

    private static int yOf(final double log10Value, final double lowDecade, final double highDecade, final int plotHeight) {
        return TOP + plotHeight - (int) (plotHeight * (log10Value - lowDecade) / (highDecade - lowDecade));
    }

    static String formatMicros(final double micros) {
        if (micros >= 1_000_000) {
            return String.format(java.util.Locale.ROOT, "%.0f s", micros / 1_000_000);
        }
        if (micros >= 1_000) {
            return String.format(java.util.Locale.ROOT, "%.0f ms", micros / 1_000);
        }
        if (micros >= 1) {
            return String.format(java.util.Locale.ROOT, "%.0f µs", micros);
        }
        return String.format(java.util.Locale.ROOT, "%.0f ns", micros * 1_000);
    }
}
