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

    public JmhRow(String benchmark, Map<String, String> params, int threads, double score, double error, String unit) {
        this.benchmark = benchmark;
        this.params = params;
        this.threads = threads;
        this.score = score;
        this.error = error;
        this.unit = unit;
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
