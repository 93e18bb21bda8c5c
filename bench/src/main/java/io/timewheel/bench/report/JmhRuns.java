package io.timewheel.bench.report;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Runs JMH from code (the quick and full runs) and flattens its results into rows. */
public final class JmhRuns {

    /** One result: a benchmark method at one set of parameters and thread count. */
    public static final class Row {
        public final String benchmark;
        public final Map<String, String> params;
        public final int threads;
        public final double score;
        public final double error;
        public final String unit;

        Row(String benchmark, Map<String, String> params, int threads, double score, double error, String unit) {
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
    }

    /** A JMH run's settings. */
    public static final class Spec {
        final String benchmark;
        final Map<String, String[]> params = new LinkedHashMap<>();
        int threads = 1;
        int warmupIterations = 1;
        int warmupMillis = 1000;
        int iterations = 2;
        int iterationMillis = 1000;
        Path log;
        Path json;

        /** {@code benchmark}: "ClassName.method". */
        public Spec(String benchmark) {
            this.benchmark = benchmark;
        }

        public Spec param(String name, String... values) {
            params.put(name, values);
            return this;
        }

        public Spec threads(int n) {
            threads = n;
            return this;
        }

        public Spec warmup(int iterations, int millis) {
            warmupIterations = iterations;
            warmupMillis = millis;
            return this;
        }

        public Spec measure(int iterations, int millis) {
            this.iterations = iterations;
            iterationMillis = millis;
            return this;
        }

        /** Writes JMH's own console output to {@code log} and its JSON to {@code json} (else silent). */
        public Spec output(Path log, Path json) {
            this.log = log;
            this.json = json;
            return this;
        }
    }

    private JmhRuns() {
    }

    /** Runs in forked JVMs (one fork per parameter combination); a failing combination is left out. */
    public static List<Row> run(Spec spec) throws RunnerException {
        return run(spec, 1);
    }

    /** Runs in this JVM (no fork): for the smoke test only, figures from it mean nothing. */
    public static List<Row> runInProcess(Spec spec) throws RunnerException {
        return run(spec, 0);
    }

    private static List<Row> run(Spec spec, int forks) throws RunnerException {
        ChainedOptionsBuilder o = new OptionsBuilder()
                .include("\\." + spec.benchmark.replace(".", "\\.") + "$")
                .forks(forks)
                .threads(spec.threads)
                .warmupIterations(spec.warmupIterations)
                .measurementIterations(spec.iterations)
                .shouldFailOnError(false);
        if (spec.warmupMillis > 0) { // 0: a single-shot benchmark, which has no iteration time
            o.warmupTime(TimeValue.milliseconds(spec.warmupMillis));
        }
        if (spec.iterationMillis > 0) {
            o.measurementTime(TimeValue.milliseconds(spec.iterationMillis));
        }
        for (Map.Entry<String, String[]> p : spec.params.entrySet()) {
            o.param(p.getKey(), p.getValue());
        }
        if (spec.log != null) {
            o.output(spec.log.toString());
        } else {
            o.verbosity(VerboseMode.SILENT);
        }
        if (spec.json != null) {
            o.resultFormat(ResultFormatType.JSON).result(spec.json.toString());
        }
        Collection<RunResult> results = new Runner(o.build()).run();
        List<Row> rows = new ArrayList<>();
        for (RunResult r : results) {
            Map<String, String> params = new LinkedHashMap<>();
            for (String key : r.getParams().getParamsKeys()) {
                params.put(key, r.getParams().getParam(key));
            }
            String name = r.getParams().getBenchmark();
            name = name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1);
            rows.add(new Row(name, params, r.getParams().getThreads(), r.getPrimaryResult().getScore(),
                    r.getPrimaryResult().getScoreError(), r.getPrimaryResult().getScoreUnit()));
        }
        return rows;
    }

    /** The row with these parameter values (and thread count), or null. */
    public static Row find(List<Row> rows, String benchmark, int threads, String... keyValues) {
        outer:
        for (Row r : rows) {
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
