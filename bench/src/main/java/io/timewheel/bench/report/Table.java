package io.timewheel.bench.report;

import io.timewheel.bench.harness.Console;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A table printed as aligned text (console) or as Markdown. Filled and printed by one thread. The first column is
 * left-aligned and the others right-aligned unless {@link #left} says otherwise.
 */
public final class Table {

    /*
     * Implementation notes.
     *
     * The text form fits Console.WIDTH. Columns keep their natural width (their widest cell or header) while the
     * row fits. Otherwise headers wrap first (a column is then as wide as its widest cell or the longest word of
     * its header), and if that is still too wide the widest columns are narrowed to an equal share of what the
     * others leave (a column no wider than its share keeps its width), each capped first by its maxWidth where one
     * is set, and their cells wrap at spaces. A row's cells all start on the row's first line, so whatever a row says (a target's verdict) sits
     * on the line that names it; the first column's continuation lines are indented two columns, so that a row's
     * start is the only line that begins at the margin.
     */

    private static final String GAP = "  ";

    private final List<String[]> rows = new ArrayList<>();
    private final String[] header;
    private final boolean[] left;
    private final int[] maxWidth;

    public Table(String... header) {
        this.header = header;
        left = new boolean[header.length];
        left[0] = true;
        maxWidth = new int[header.length];
        Arrays.fill(maxWidth, Integer.MAX_VALUE);
    }

    public Table row(String... cells) {
        rows.add(cells);
        return this;
    }

    /** Left-aligns these columns (text rather than figures). */
    public Table left(int... columns) {
        for (int c : columns) {
            left[c] = true;
        }
        return this;
    }

    /** Wraps this column's cells at {@code width} columns in the text form, whatever room the others leave. */
    public Table maxWidth(int column, int width) {
        maxWidth[column] = width;
        return this;
    }

    /** The text form, each line at most {@link Console#WIDTH} columns. */
    public String text() {
        return text(Console.WIDTH);
    }

    /** The text form, each line at most {@code width} columns (given room for a few characters per column). */
    public String text(int width) {
        int n = header.length;
        int room = width - GAP.length() * (n - 1);
        int[] w = naturalWidths(false);
        if (Arrays.stream(w).sum() > room) {
            w = fit(naturalWidths(true), room);
        }
        StringBuilder sb = new StringBuilder();
        lines(sb, header, w);
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < n; i++) {
            rule.append(i == 0 ? "" : GAP).append("-".repeat(w[i]));
        }
        sb.append(rule).append('\n');
        for (String[] r : rows) {
            lines(sb, r, w);
        }
        return sb.toString();
    }

    /** Each column's widest cell, capped by its maxWidth; the header counts whole, or (compact) by its longest word. */
    private int[] naturalWidths(boolean compact) {
        int[] w = new int[header.length];
        for (int i = 0; i < header.length; i++) {
            w[i] = compact ? Arrays.stream(header[i].split(" ")).mapToInt(String::length).max().orElse(0) : header[i].length();
        }
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                w[i] = Math.max(w[i], r[i].length());
            }
        }
        for (int i = 0; i < w.length; i++) {
            w[i] = Math.min(w[i], maxWidth[i]);
        }
        return w;
    }

    /** The columns' widths within {@code room}: the natural ones if they fit, else the widest narrowed to equal shares. */
    static int[] fit(int[] natural, int room) {
        int[] w = natural.clone();
        int total = Arrays.stream(w).sum();
        if (total <= room) {
            return w;
        }
        boolean[] fixed = new boolean[w.length];
        int left = room, open = w.length;
        boolean changed = true;
        while (changed && open > 0) {
            changed = false;
            int share = left / open;
            for (int i = 0; i < w.length; i++) {
                if (!fixed[i] && w[i] <= share) {
                    fixed[i] = true;
                    left -= w[i];
                    open--;
                    changed = true;
                }
            }
        }
        for (int i = 0, k = 0; i < w.length; i++) {
            if (!fixed[i]) {
                w[i] = Math.max(4, left / open + (k++ < left % open ? 1 : 0));
            }
        }
        return w;
    }

    private void lines(StringBuilder sb, String[] cells, int[] w) {
        List<List<String>> wrapped = new ArrayList<>();
        int height = 1;
        for (int i = 0; i < cells.length; i++) {
            List<String> l = i == 0 ? Console.lines(cells[i], w[i], w[i] - 2, "", "  ") : Console.lines(cells[i], w[i], w[i], "", "");
            wrapped.add(l);
            height = Math.max(height, l.size());
        }
        for (int line = 0; line < height; line++) {
            StringBuilder out = new StringBuilder();
            for (int i = 0; i < cells.length; i++) {
                String c = line < wrapped.get(i).size() ? wrapped.get(i).get(line) : "";
                String pad = " ".repeat(Math.max(0, w[i] - c.length()));
                out.append(i == 0 ? "" : GAP).append(left[i] ? c + pad : pad + c);
            }
            sb.append(out.toString().stripTrailing()).append('\n');
        }
    }

    public String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("| ").append(String.join(" | ", header)).append(" |\n|");
        for (int i = 0; i < header.length; i++) {
            sb.append(left[i] ? " --- |" : " ---: |");
        }
        sb.append('\n');
        for (String[] r : rows) {
            sb.append("| ").append(String.join(" | ", r)).append(" |\n");
        }
        return sb.toString();
    }
}
