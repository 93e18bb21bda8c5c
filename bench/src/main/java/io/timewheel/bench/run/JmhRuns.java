package io.timewheel.bench.run;

import io.timewheel.bench.report.JmhRow;

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

/** Runs JMH from code (the quick and full runs) and flattens its results into {@link JmhRow}s. */
public final class JmhRuns {

    /** A JMH run's settings. */
    public static final class Spec {
        final String benchmark;
        final Map<String, String[]> params = new LinkedHashMap<>();
        int threads = 1;
        int warmupIterations = 1;
        int warmupMillis = 1000;
        int iterations = 2;
        int iterationMillis = 1000;
        boolean console;
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

        /** Prints JMH's own output (its progress, and why a fork failed) on this JVM's console (else silent). */
        public Spec console() {
            console = true;
            return this;
        }

        /** Writes JMH's results as JSON to {@code json}. */
        public Spec json(Path json) {
            this.json = json;
            return this;
        }
    }

    private JmhRuns() {
    }

    /** Runs in forked JVMs (one fork per parameter combination); a failing combination is left out. */
    public static List<JmhRow> run(Spec spec) throws RunnerException {
        return run(spec, 1);
    }

    /** Runs in this JVM (no fork): for the smoke test only, figures from it mean nothing. */
    public static List<JmhRow> runInProcess(Spec spec) throws RunnerException {
        return run(spec, 0);
    }

    private static List<JmhRow> run(Spec spec, int forks) throws RunnerException {
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
        if (!spec.console) {
            o.verbosity(VerboseMode.SILENT);
        }
        if (spec.json != null) {
            o.resultFormat(ResultFormatType.JSON).result(spec.json.toString());
        }
        Collection<RunResult> results = new Runner(o.build()).run();
        List<JmhRow> rows = new ArrayList<>();
        for (RunResult r : results) {
            Map<String, String> params = new LinkedHashMap<>();
            for (String key : r.getParams().getParamsKeys()) {
                params.put(key, r.getParams().getParam(key));
            }
            String name = r.getParams().getBenchmark();
            name = name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1);
            org.openjdk.jmh.util.Statistics stats = r.getPrimaryResult().getStatistics();
            rows.add(new JmhRow(name, params, r.getParams().getThreads(), r.getPrimaryResult().getScore(),
                    r.getPrimaryResult().getScoreError(), r.getPrimaryResult().getScoreUnit(),
                    stats.getPercentile(50), stats.getMin(), stats.getMax(), stats.getN()));
        }
        return rows;
    }
}
