package io.timewheel.bench.harness;

import java.util.ArrayList;
import java.util.List;

/** What the runs print fits a terminal of {@link #WIDTH} columns: prose wrapped at word boundaries (pure functions). */
public final class Console {

    /** Every line a run prints fits in this many columns. */
    public static final int WIDTH = 120;

    private Console() {
    }

    /** {@code text} wrapped to {@link #WIDTH}: the first line at {@code indent}, the others two columns further in. */
    public static String wrap(String indent, String text) {
        return String.join("\n", lines(text, WIDTH - indent.length(), WIDTH - indent.length() - 2, indent, indent + "  "));
    }

    /**
     * The lines of {@code text} wrapped at spaces, the first at most {@code first} columns wide and the others at most
     * {@code rest}, each prefixed ({@code firstPrefix}, then {@code restPrefix}); a word longer than its line is cut.
     */
    public static List<String> lines(String text, int first, int rest, String firstPrefix, String restPrefix) {
        first = Math.max(1, first);
        rest = Math.max(1, rest);
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.trim().split(" +")) {
            int width = lines.isEmpty() ? first : rest;
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
                width = rest;
            }
            while (line.length() == 0 && word.length() > width) {
                lines.add(word.substring(0, width));
                word = word.substring(width);
                width = rest;
            }
            line.append(line.length() == 0 ? "" : " ").append(word);
        }
        if (line.length() > 0 || lines.isEmpty()) {
            lines.add(line.toString());
        }
        for (int i = 0; i < lines.size(); i++) {
            lines.set(i, (i == 0 ? firstPrefix : restPrefix) + lines.get(i));
        }
        return lines;
    }
}
