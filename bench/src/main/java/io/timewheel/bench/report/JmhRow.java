package io.timewheel.bench.report;

import java.util.List;
import java.util.Map;

/** One JMH result: a benchmark method at one set of parameters and thread count. */
public final class JmhRow {
    public final String benchmark;
    public final Map<String, String> params;
    public final int threads;
    public final double score;
    public final double error;
    public final String unit;
    /** The measured iterations' median and extremes (NaN when not known), and their number (0 when not known). */
    public final double median, min, max;
    public final long iterations;

    public JmhRow(String benchmark, Map<String, String> params, int threads, double score, double error, String unit) {
        this(benchmark, params, threads, score, error, unit, Double.NaN, Double.NaN, Double.NaN, 0);
    }

    public JmhRow(String benchmark, Map<String, String> params, int threads, double score, double error, String unit,
            double median, double min, double max, long iterations) {
        this.benchmark = benchmark;
        this.params = params;
        this.threads = threads;
        this.score = score;
        this.error = error;
        this.unit = unit;
        this.median = median;
        this.min = min;
        this.max = max;
        this.iterations = iterations;
    }

    public String param(String name) {
        return params.get(name);
    }

    @Override
    public String toString() {
        return benchmark + params + " t=" + threads + ": " + score + " ± " + error + " " + unit;
    }

    /** The row with these parameter values (and thread count), or null. */
    public static JmhRow find(List<JmhRow> rows, String benchmark, int threads, String... keyValues) {
        outer:
        for (JmhRow r : rows) {
            if (!r.benchmark.equals(benchmark) || r.threads != threads) {
                continue;
            }
            for (int i = 0; i < keyValues.length; i += 2) {
                if (!keyValues[i + 1].equals(r.param(keyValues[i]))) {
                    continue outer;
                }
            }
            return r;
        }
        return null;
    }
}
