package io.timewheel.bench.report;

import javax.imageio.ImageIO;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Line charts in plain Java2D: categories along x, one line per series, linear or log-10 y. Enough for the
 * report's two charts; no dependency.
 */
public final class Charts {

    private static final Color[] PALETTE = {
        new Color(0xD62728), new Color(0x1F77B4), new Color(0x2CA02C), new Color(0x9467BD),
        new Color(0xFF7F0E), new Color(0x8C564B), new Color(0x17BECF), new Color(0x7F7F7F),
    };
    private static final int WIDTH = 960, HEIGHT = 560;
    private static final int LEFT = 90, RIGHT = 230, TOP = 60, BOTTOM = 70;

    private Charts() {
    }

    /**
     * Draws and writes a PNG.
     *
     * @param series name to values, one per category; NaN or non-positive (on a log axis) values are
     *               left out. The first series is drawn thicker (ours).
     */
    public static void line(Path file, String title, String xLabel, String yLabel, List<String> categories,
                            Map<String, double[]> series, boolean logY) throws IOException {
        BufferedImage image = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, WIDTH, HEIGHT);

            double min = Double.POSITIVE_INFINITY, max = Double.NEGATIVE_INFINITY;
            for (double[] values : series.values()) {
                for (double v : values) {
                    if (usable(v, logY)) {
                        min = Math.min(min, v);
                        max = Math.max(max, v);
                    }
                }
            }
            if (min == Double.POSITIVE_INFINITY) {
                min = 0.1;
                max = 1;
            }
            double lo, hi;
            if (logY) {
                lo = Math.pow(10, Math.floor(Math.log10(min)));
                hi = Math.pow(10, Math.ceil(Math.log10(max)));
                if (hi <= lo) {
                    hi = lo * 10;
                }
            } else {
                lo = 0;
                hi = niceCeiling(max * 1.05);
            }
            int plotW = WIDTH - LEFT - RIGHT, plotH = HEIGHT - TOP - BOTTOM;

            g.setColor(Color.BLACK);
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
            g.drawString(title, LEFT, 30);
            g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
            FontMetrics fm = g.getFontMetrics();

            // y grid and labels
            List<Double> ticks = new java.util.ArrayList<>();
            if (logY) {
                for (double t = lo; t <= hi * 1.0001; t *= 10) {
                    ticks.add(t);
                }
            } else {
                for (int i = 0; i <= 5; i++) {
                    ticks.add(lo + (hi - lo) * i / 5);
                }
            }
            for (double t : ticks) {
                int y = TOP + plotH - (int) Math.round(scale(t, lo, hi, logY) * plotH);
                g.setColor(new Color(0xE6E6E6));
                g.drawLine(LEFT, y, LEFT + plotW, y);
                g.setColor(Color.DARK_GRAY);
                String label = format(t);
                g.drawString(label, LEFT - 8 - fm.stringWidth(label), y + 4);
            }
            g.setColor(Color.BLACK);
            g.drawRect(LEFT, TOP, plotW, plotH);

            // x labels
            int n = categories.size();
            for (int i = 0; i < n; i++) {
                int x = xOf(i, n, plotW);
                String label = categories.get(i);
                g.drawString(label, x - fm.stringWidth(label) / 2, TOP + plotH + 18);
            }
            g.drawString(xLabel, LEFT + plotW / 2 - fm.stringWidth(xLabel) / 2, TOP + plotH + 42);
            Graphics2D rotated = (Graphics2D) g.create();
            rotated.rotate(-Math.PI / 2);
            rotated.drawString(yLabel, -(TOP + plotH / 2) - fm.stringWidth(yLabel) / 2, 22);
            rotated.dispose();

            // series
            int s = 0;
            for (Map.Entry<String, double[]> e : series.entrySet()) {
                Color color = PALETTE[s % PALETTE.length];
                float width = s == 0 ? 3.5f : 2f;
                g.setColor(color);
                g.setStroke(new BasicStroke(width));
                double[] values = e.getValue();
                int px = -1, py = -1;
                for (int i = 0; i < Math.min(n, values.length); i++) {
                    if (!usable(values[i], logY)) {
                        px = -1;
                        continue;
                    }
                    int x = xOf(i, n, plotW);
                    int y = TOP + plotH - (int) Math.round(scale(values[i], lo, hi, logY) * plotH);
                    if (px >= 0) {
                        g.drawLine(px, py, x, y);
                    }
                    g.fillOval(x - 4, y - 4, 8, 8);
                    px = x;
                    py = y;
                }
                int ly = TOP + 10 + s * 22;
                g.drawLine(LEFT + plotW + 15, ly, LEFT + plotW + 40, ly);
                g.setColor(Color.BLACK);
                g.drawString(e.getKey(), LEFT + plotW + 48, ly + 4);
                s++;
            }
        } finally {
            g.dispose();
        }
        ImageIO.write(image, "png", file.toFile());
    }

    private static boolean usable(double v, boolean logY) {
        return !Double.isNaN(v) && !Double.isInfinite(v) && (!logY || v > 0);
    }

    private static int xOf(int i, int n, int plotW) {
        return LEFT + (n == 1 ? plotW / 2 : (int) Math.round(30 + (plotW - 60) * i / (double) (n - 1)));
    }

    private static double scale(double v, double lo, double hi, boolean logY) {
        return logY ? (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo)) : (v - lo) / (hi - lo);
    }

    private static double niceCeiling(double v) {
        if (v <= 0) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * p >= v) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static String format(double v) {
        if (v == 0) {
            return "0";
        }
        if (Math.abs(v) >= 1e6 || Math.abs(v) < 0.01) {
            return String.format("%.0e", v);
        }
        if (Math.abs(v) >= 1000) {
            return String.format("%,.0f", v);
        }
        if (v == Math.rint(v)) {
            return String.format("%.0f", v);
        }
        return String.format("%.2f", v).replaceAll("0+$", "");
    }
}
