package io.timewheel.bench.report;

import java.util.ArrayList;
import java.util.List;

/** A table printed as aligned text (console) or as Markdown. */
public final class Table {

    private final List<String[]> rows = new ArrayList<>();
    private final String[] header;

    public Table(String... header) {
        this.header = header;
    }

    public Table row(String... cells) {
        rows.add(cells);
        return this;
    }

    public String text() {
        int[] w = new int[header.length];
        for (int i = 0; i < header.length; i++) {
            w[i] = header[i].length();
        }
        for (String[] r : rows) {
            for (int i = 0; i < r.length; i++) {
                w[i] = Math.max(w[i], r[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        line(sb, header, w);
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < w.length; i++) {
            rule.append(i == 0 ? "" : "  ").append("-".repeat(w[i]));
        }
        sb.append(rule).append('\n');
        for (String[] r : rows) {
            line(sb, r, w);
        }
        return sb.toString();
    }

    private static void line(StringBuilder sb, String[] cells, int[] w) {
        for (int i = 0; i < cells.length; i++) {
            String c = cells[i];
            if (i == 0) {
                sb.append(c).append(" ".repeat(w[i] - c.length()));
            } else {
                sb.append("  ").append(" ".repeat(w[i] - c.length())).append(c);
            }
        }
        sb.append('\n');
    }

    public String markdown() {
        StringBuilder sb = new StringBuilder();
        sb.append("| ").append(String.join(" | ", header)).append(" |\n|");
        for (int i = 0; i < header.length; i++) {
            sb.append(i == 0 ? " --- |" : " ---: |");
        }
        sb.append('\n');
        for (String[] r : rows) {
            sb.append("| ").append(String.join(" | ", r)).append(" |\n");
        }
        return sb.toString();
    }
}
