package io.timewheel.bench.report;

import io.timewheel.bench.harness.AgentHarness;
import io.timewheel.bench.harness.Args;
import io.timewheel.bench.harness.IdleHarness;
import io.timewheel.bench.harness.LatenessHarness;
import io.timewheel.bench.harness.MemoryHarness;
import io.timewheel.bench.harness.ThreadsHarness;
import io.timewheel.bench.peer.Peer;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The full run: every benchmark and harness, written to a results folder as {@code report.md} with PNG
 * charts, JMH's logs and JSON, and the lateness histograms (raw/). About 8 minutes on 2 cores.
 *
 * <p>Run: {@code java -jar bench/target/timewheel-bench.jar full [--out bench/results/jdk17] [--matrix] [--peers all]}
 */
public final class FullRun {

    private static final String[] PENDING = {"0", "10000", "1000000"};

    private FullRun() {
    }

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        List<Peer> peers = Peer.parse(args.get("peers", "all"));
        Path out = Path.of(args.get("out", "bench/results/jdk" + Machine.javaFeature()));
        run(peers, out, args.flag("matrix"), argv, System.out);
    }

    public static void run(List<Peer> peers, Path dir, boolean matrix, String[] argv, PrintStream out) throws Exception {
        long t0 = System.nanoTime();
        Path raw = dir.resolve("raw");
        Files.createDirectories(raw);
        String loadBefore = Machine.loadAverage();
        out.printf("timewheel full run -> %s (%s, load %s)%n", dir, Machine.jdk(), loadBefore);
        Figures f = new Figures(peers);
        String[] ids = QuickRun.ids(peers);

        step(out, "schedule+cancel, 1 thread, pending 0 / 10k / 1M");
        f.jmh.addAll(JmhRuns.run(new JmhRuns.Spec(Figures.SCHEDULE_CANCEL).param("peer", ids).param("pending", PENDING)
                .warmup(1, 1000).measure(3, 1000).output(raw.resolve("schedule-cancel-t1.log"), raw.resolve("schedule-cancel-t1.json"))));
        for (int threads : new int[] {2, 4}) {
            step(out, "schedule+cancel, " + threads + " threads, pending " + (matrix ? "0 / 10k / 1M" : "1M"));
            f.jmh.addAll(JmhRuns.run(new JmhRuns.Spec(Figures.SCHEDULE_CANCEL).param("peer", ids)
                    .param("pending", matrix ? PENDING : new String[] {"1000000"}).threads(threads)
                    .warmup(1, 1000).measure(3, 1000)
                    .output(raw.resolve("schedule-cancel-t" + threads + ".log"), raw.resolve("schedule-cancel-t" + threads + ".json"))));
        }
        step(out, "schedule only (insert rate), 1M pending");
        f.jmh.addAll(JmhRuns.run(new JmhRuns.Spec(Figures.SCHEDULE_ONLY).param("peer", ids).param("pending", "1000000")
                .warmup(1, 1000).measure(3, 1000).output(raw.resolve("schedule-only.log"), raw.resolve("schedule-only.json"))));
        step(out, "expiry: 1M timers due within 1 s");
        f.jmh.addAll(JmhRuns.run(new JmhRuns.Spec(Figures.EXPIRY).param("peer", ids)
                .warmup(1, 0).measure(3, 0).output(raw.resolve("expiry.log"), raw.resolve("expiry.json"))));
        step(out, "TimerWheel vs Agrona DeadlineTimerWheel");
        f.jmh.addAll(JmhRuns.run(new JmhRuns.Spec("WheelBenchmark.addCancel").param("pending", PENDING)
                .warmup(2, 1000).measure(3, 1000).output(raw.resolve("wheel-add-cancel.log"), raw.resolve("wheel-add-cancel.json"))));
        f.jmh.addAll(JmhRuns.run(new JmhRuns.Spec("WheelBenchmark.add").param("pending", PENDING)
                .warmup(5, 0).measure(10, 0).output(raw.resolve("wheel-add.log"), raw.resolve("wheel-add.json"))));
        f.jmh.addAll(JmhRuns.run(new JmhRuns.Spec("WheelBenchmark.advance").param("pending", PENDING)
                .warmup(5, 0).measure(10, 0).output(raw.resolve("wheel-advance.log"), raw.resolve("wheel-advance.json"))));

        step(out, "lateness");
        f.lateness = LatenessHarness.run(peers, 100_000, 500, out);
        for (Map.Entry<Peer, LatenessHarness.Result> e : f.lateness.entrySet()) {
            try (PrintStream hgrm = new PrintStream(Files.newOutputStream(raw.resolve("lateness-" + e.getKey().id() + ".hgrm")))) {
                e.getValue().lateness.outputPercentileDistribution(hgrm, 1e6); // in milliseconds
            }
        }
        step(out, "memory");
        f.memory = MemoryHarness.run(peers, 1_000_000, out);
        step(out, "idle");
        f.idleTimers = 1_000_000;
        f.idle = IdleHarness.run(peers, List.of(0, f.idleTimers), 10_000, true, out);
        step(out, "threads");
        f.threads = ThreadsHarness.run(peers, out);
        step(out, "agent start-up");
        f.agent = AgentHarness.run(null, 10, out);

        String loadAfter = Machine.loadAverage();
        double minutes = (System.nanoTime() - t0) / 60e9;
        charts(f, dir);
        String report = Report.markdown(f, argv, loadBefore, loadAfter, minutes, matrix);
        Files.writeString(dir.resolve("report.md"), report);
        Report.writeIndex(dir.getParent());
        out.printf("%n== headline ==%n%s%s%n== targets ==%n%s", Headline.table(f).text(), Headline.RATIO_NOTE + "\n",
                Headline.targets(f).text());
        out.printf("%nwrote %s (%.1f min)%n", dir.resolve("report.md"), minutes);
    }

    private static int stepNo;

    private static void step(PrintStream out, String what) {
        out.printf("%n[%d] %s%n", ++stepNo, what);
    }

    static void charts(Figures f, Path dir) throws IOException {
        Map<String, double[]> throughput = new LinkedHashMap<>();
        for (Peer p : f.peers) {
            double[] v = new double[PENDING.length];
            for (int i = 0; i < PENDING.length; i++) {
                v[i] = f.scheduleCancel(p, Integer.parseInt(PENDING[i]), 1);
            }
            throughput.put(p.id(), v);
        }
        Charts.line(dir.resolve("schedule-cancel-vs-pending.png"), "Schedule + cancel throughput vs pending timers (1 thread)",
                "far timers pending", "million schedule+cancel per second (log)", List.of("0", "10k", "1M"), throughput, true);

        Map<String, double[]> scaling = new LinkedHashMap<>();
        for (Peer p : f.peers) {
            scaling.put(p.id(), new double[] {f.scheduleCancel(p, 1_000_000, 1), f.scheduleCancel(p, 1_000_000, 2),
                f.scheduleCancel(p, 1_000_000, 4)});
        }
        Charts.line(dir.resolve("schedule-cancel-vs-threads.png"), "Schedule + cancel throughput vs producer threads (1M pending)",
                "producer threads (2 CPUs)", "million schedule+cancel per second (log)", List.of("1", "2", "4"), scaling, true);

        List<String> labels = new ArrayList<>(List.of("p50", "p90", "p99", "p99.9", "p99.99", "max"));
        double[] ps = {50, 90, 99, 99.9, 99.99};
        Map<String, double[]> lateness = new LinkedHashMap<>();
        for (Map.Entry<Peer, LatenessHarness.Result> e : f.lateness.entrySet()) {
            double[] v = new double[labels.size()];
            for (int i = 0; i < ps.length; i++) {
                v[i] = e.getValue().percentileMillis(ps[i]);
            }
            v[ps.length] = e.getValue().maxMillis();
            lateness.put(e.getKey().id(), v);
        }
        Charts.line(dir.resolve("lateness.png"), "Lateness: start time minus deadline, 100k timers, delays 1..500 ms",
                "percentile", "milliseconds late (log)", labels, lateness, true);
    }
}
