package io.streamgrid.perf.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Draws curves of (x, y) points on linear axes into a PNG — a quantity as a run goes (a model's loss
 * against seconds of training). Headless AWT, the colours of {@link PercentileChart}.
 */
public final class LineChart {
    private static final int WIDTH = 1040;
    private static final int HEIGHT = 520;
    private static final int LEFT = 80;
    private static final int RIGHT = 300;
    private static final int TOP = 50;
    private static final int BOTTOM = 60;
    private static final int TICKS = 5;

    private LineChart() {
    }

    /** One named curve: its points, x ascending. */
    public record Curve(String label, List<double[]> points) {
    }

    /** Draws {@code curves} into {@code png}, replacing it; the axes span every point. */
    public static void draw(final String title, final String xAxis, final String yAxis, final List<Curve> curves, final Path png) {
        draw(title, xAxis, yAxis, curves, Double.MAX_VALUE, png);
    }

    /**
     * Draws {@code curves} into {@code png}, replacing it; the x axis spans every point, the y axis
     * every point up to {@code yCeiling}: points above it are drawn on it (the axis's name says so),
     * so that a few spikes do not flatten the curves that matter.
     */
    public static void draw(final String title, final String xAxis, final String yAxis, final List<Curve> curves, final double yCeiling,
                            final Path png) {
        System.setProperty("java.awt.headless", "true");
        double minX = Double.MAX_VALUE;
        double maxX = -Double.MAX_VALUE;
        double minY = Double.MAX_VALUE;
        double maxY = -Double.MAX_VALUE;
        for (final Curve curve : curves) {
            for (final double[] point : curve.points()) {
                minX = Math.min(minX, point[0]);
                maxX = Math.max(maxX, point[0]);
                minY = Math.min(minY, point[1]);
                maxY = Math.max(maxY, point[1]);
            }
        }
        if (maxX <= minX) {
            maxX = minX + 1;
        }
        final boolean clipped = maxY > yCeiling;
        maxY = Math.min(maxY, yCeiling);
        if (maxY <= minY) {
            maxY = minY + 1;
        }
        final BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        final Graphics2D g = image.createGraphics();
        try {
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);
            g.setColor(Color.BLACK);
            g.drawString(title.length() > 140 ? title.substring(0, 139) + "…" : title, LEFT, 24);
            final int plotWidth = WIDTH - LEFT - RIGHT;
            final int plotHeight = HEIGHT - TOP - BOTTOM;
            for (int i = 0; i <= TICKS; i++) {
                final int x = LEFT + plotWidth * i / TICKS;
                final int y = TOP + plotHeight - plotHeight * i / TICKS;
                g.setColor(new Color(0xdddddd));
                g.drawLine(x, TOP, x, TOP + plotHeight);
                g.drawLine(LEFT, y, LEFT + plotWidth, y);
                g.setColor(Color.BLACK);
                g.drawString(String.format(Locale.ROOT, "%.3g", minX + (maxX - minX) * i / TICKS), x - 12, TOP + plotHeight + 18);
                g.drawString(String.format(Locale.ROOT, "%.3g", minY + (maxY - minY) * i / TICKS), 8, y + 4);
            }
            g.drawRect(LEFT, TOP, plotWidth, plotHeight);
            g.drawString(xAxis, LEFT + plotWidth / 2 - 30, TOP + plotHeight + 40);
            g.drawString(clipped ? yAxis + String.format(Locale.ROOT, " (above %.3g drawn at %.3g)", maxY, maxY) : yAxis, 8, TOP - 8);
            g.setStroke(new BasicStroke(2f));
            int legendY = TOP + 10;
            for (int c = 0; c < curves.size(); c++) {
                g.setColor(PercentileChart.COLORS[c % PercentileChart.COLORS.length]);
                final List<double[]> points = curves.get(c).points();
                final int[] xs = new int[points.size()];
                final int[] ys = new int[points.size()];
                for (int i = 0; i < xs.length; i++) {
                    xs[i] = LEFT + (int) (plotWidth * (points.get(i)[0] - minX) / (maxX - minX));
                    ys[i] = TOP + plotHeight - (int) (plotHeight * (Math.min(points.get(i)[1], maxY) - minY) / (maxY - minY));
                }
                g.drawPolyline(xs, ys, xs.length);
                g.fillRect(LEFT + plotWidth + 12, legendY - 8, 14, 8);
                g.setColor(Color.BLACK);
                final String label = curves.get(c).label();
                g.drawString(label.length() > 36 ? label.substring(0, 35) + "…" : label, LEFT + plotWidth + 32, legendY);
                legendY += 20;
            }
        } finally {
            g.dispose();
        }
        PercentileChart.writePng(image, png);
    }
}
