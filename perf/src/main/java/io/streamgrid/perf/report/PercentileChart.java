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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
    /** Small multiples: panels per row, and each panel's size and the width of its legend. */
    private static final int PANEL_COLUMNS = 3;
    private static final int PANEL_WIDTH = 620;
    private static final int PANEL_HEIGHT = 330;
    private static final int PANEL_LEGEND = 230;
    static final Color[] COLORS = {
        new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c), new Color(0xff7f0e),
        new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f), new Color(0x17becf)};

    private PercentileChart() {
    }

    /**
     * Draws one curve per profile into {@code png}, replacing it. More curves than colours (a
     * benchmark's queries, each with several engines) are drawn as small multiples: one panel per
     * group of profiles sharing their subject's first word ("Q5 Flink …", "Q5 StreamGrid …"), on a
     * common latency scale, so each panel's few curves can be told apart.
     */
    public static void draw(final String title, final List<LatencyProfile> profiles, final Path png) {
        System.setProperty("java.awt.headless", "true");
        final Map<String, List<LatencyProfile>> groups = groups(profiles);
        final boolean panels = profiles.size() > COLORS.length && groups.size() > 1
                && groups.values().stream().allMatch(group -> group.size() <= COLORS.length);
        final int columns = panels ? Math.min(PANEL_COLUMNS, groups.size()) : 1;
        final int rows = panels ? (groups.size() + columns - 1) / columns : 1;
        final int width = panels ? columns * PANEL_WIDTH : WIDTH;
        final int height = panels ? TOP + rows * PANEL_HEIGHT : HEIGHT;
        final double[] decades = decades(profiles);
        // A phase every panel's curves share is said once, in the title, not in every legend line.
        final boolean onePhase = panels && profiles.stream().map(LatencyProfile::phase).distinct().count() == 1;

        final BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        final Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, width, height);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
            g.setColor(Color.BLACK);
            g.drawString(onePhase && !profiles.get(0).phase().isEmpty() ? title + " · " + profiles.get(0).phase() : title, LEFT, 28);
            if (!panels) {
                drawPlot(g, new Frame(LEFT, TOP, WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM), "", profiles, decades, "", true);
            } else {
                int index = 0;
                for (final Map.Entry<String, List<LatencyProfile>> group : groups.entrySet()) {
                    final int x = (index % columns) * PANEL_WIDTH + LEFT;
                    final int y = TOP + (index / columns) * PANEL_HEIGHT + 20;
                    drawPlot(g, new Frame(x, y, PANEL_WIDTH - LEFT - PANEL_LEGEND, PANEL_HEIGHT - 20 - BOTTOM), group.getKey(),
                            group.getValue(), decades, group.getKey() + " ", !onePhase);
                    index++;
                }
            }
        } finally {
            g.dispose();
        }
        writePng(image, png);
    }

    /** Where a plot's axes are drawn. */
    private record Frame(int left, int top, int width, int height) {
    }

    /** The profiles grouped by their subject's first word, in order of first appearance. */
    private static Map<String, List<LatencyProfile>> groups(final List<LatencyProfile> profiles) {
        final Map<String, List<LatencyProfile>> groups = new LinkedHashMap<>();
        for (final LatencyProfile profile : profiles) {
            final String subject = profile.subject();
            final int space = subject.indexOf(' ');
            groups.computeIfAbsent(space < 0 ? subject : subject.substring(0, space), k -> new ArrayList<>()).add(profile);
        }
        return groups;
    }

    /** The lowest and highest decade of microseconds any curve reaches: one scale for every panel. */
    private static double[] decades(final List<LatencyProfile> profiles) {
        double minUs = Double.MAX_VALUE;
        double maxUs = 0;
        for (final LatencyProfile profile : profiles) {
            for (final double[] point : profile.curve()) {
                minUs = Math.min(minUs, Math.max(point[1], 0.01));
                maxUs = Math.max(maxUs, point[1]);
            }
        }
        final double lowDecade = Math.floor(Math.log10(minUs));
        return new double[] {lowDecade, Math.max(lowDecade + 1, Math.ceil(Math.log10(Math.max(maxUs, 0.01))))};
    }

    /**
     * One plot: axes, grid, a curve per profile and its legend to the right ({@code prefix} left out
     * of the legend, and the phase unless {@code withPhase}).
     */
    private static void drawPlot(final Graphics2D g, final Frame frame, final String heading, final List<LatencyProfile> profiles,
                                 final double[] decades, final String prefix, final boolean withPhase) {
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 13));
        g.setColor(Color.BLACK);
        if (!heading.isEmpty()) {
            g.drawString(heading, frame.left(), frame.top() - 6);
        }
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        final String[] xLabels = {"0%", "90%", "99%", "99.9%", "99.99%"};
        for (int i = 0; i <= MAX_X; i++) {
            final int x = frame.left() + (int) (frame.width() * i / MAX_X);
            g.setColor(new Color(0xdddddd));
            g.drawLine(x, frame.top(), x, frame.top() + frame.height());
            g.setColor(Color.BLACK);
            g.drawString(xLabels[i], x - 14, frame.top() + frame.height() + 18);
        }
        g.drawString("percentile", frame.left() + frame.width() / 2 - 30, frame.top() + frame.height() + 40);
        for (double decade = decades[0]; decade <= decades[1]; decade++) {
            final int y = yOf(decade, decades, frame);
            g.setColor(new Color(0xdddddd));
            g.drawLine(frame.left(), y, frame.left() + frame.width(), y);
            g.setColor(Color.BLACK);
            g.drawString(formatMicros(Math.pow(10, decade)), frame.left() - 72, y + 4);
        }
        g.drawRect(frame.left(), frame.top(), frame.width(), frame.height());
        if (heading.isEmpty()) {
            g.drawString("latency (log)", frame.left() - 72, frame.top() - 8);
        }

        g.setStroke(new BasicStroke(2f));
        int legendY = frame.top() + 10;
        for (int s = 0; s < profiles.size(); s++) {
            final LatencyProfile profile = profiles.get(s);
            g.setColor(COLORS[s % COLORS.length]);
            final List<double[]> curve = profile.curve();
            final int[] xs = new int[curve.size()];
            final int[] ys = new int[curve.size()];
            for (int i = 0; i < xs.length; i++) {
                final double xValue = Math.min(MAX_X, Math.log10(1 / (1 - curve.get(i)[0] / 100)));
                xs[i] = frame.left() + (int) (frame.width() * xValue / MAX_X);
                ys[i] = yOf(Math.log10(Math.max(curve.get(i)[1], 0.01)), decades, frame);
            }
            g.drawPolyline(xs, ys, xs.length);
            g.fillRect(frame.left() + frame.width() + 12, legendY - 8, 14, 8);
            g.setColor(Color.BLACK);
            g.drawString(legend(profile, prefix, withPhase), frame.left() + frame.width() + 32, legendY);
            legendY += 20;
        }
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

    private static String legend(final LatencyProfile profile, final String prefix, final boolean withPhase) {
        final String subject = profile.subject().startsWith(prefix) ? profile.subject().substring(prefix.length()) : profile.subject();
        final String text = subject + (!withPhase || profile.phase().isEmpty() ? "" : " · " + profile.phase());
        return text.length() > 52 ? text.substring(0, 51) + "…" : text;
    }

    private static int yOf(final double log10Value, final double[] decades, final Frame frame) {
        return frame.top() + frame.height() - (int) (frame.height() * (log10Value - decades[0]) / (decades[1] - decades[0]));
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
