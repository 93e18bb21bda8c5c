package io.timewheel.bench.run;

import io.timewheel.bench.report.Charts;
import io.timewheel.bench.report.Figures;
import io.timewheel.bench.report.Headline;
import io.timewheel.bench.report.Machine;
import io.timewheel.bench.report.Punctuality;
import io.timewheel.bench.report.Report;
import io.timewheel.bench.report.Targets;

import io.timewheel.bench.harness.AgentHarness;
import io.timewheel.bench.harness.Args;
import io.timewheel.bench.harness.Console;
import io.timewheel.bench.harness.BurstLatenessHarness;
import io.timewheel.bench.harness.IdleHarness;
import io.timewheel.bench.harness.LatenessHarness;
import io.timewheel.bench.harness.LoadedLatenessHarness;
import io.timewheel.bench.harness.MemoryHarness;
import io.timewheel.bench.harness.PunctualityHarness;
import io.timewheel.bench.harness.ThreadsHarness;
import io.timewheel.bench.peer.Peer;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The full run: every benchmark and harness, written to a results folder as {@code report.md}, its PNG charts, and
 * in {@code raw/} the figures they are drawn from (JMH's JSON, the lateness histograms, the per-burst CSVs). About
 * 28 minutes on 2 CPUs, of which the punctuality against STPE takes about 7 (62 cold launches, 82 warm rounds,
 * 4 x 2 x 420 burst slots) and the Netty section about 4. The folder is regenerated: the files a full run writes are
 * deleted before it starts, any other file is left where it is and named ({@link ResultsFolder}). JMH's own output
 * goes to the console. {@code --tiny} runs the same pipeline at toy sizes in about a minute, into a temporary
 * folder unless {@code --out} says otherwise (to check it, not to quote).
 *
 * <p>Run: {@code java -jar bench/target/timewheel-bench.jar full [--out DIR] [--matrix] [--peers all] [--tiny]}
 * (DIR defaults to this JDK's committed results folder, {@code jdkNN} for its feature release NN: {@link #DEFAULT_OUT}).
 */
public final class FullRun {

    /** The sizes of one run. */
    static final class Sizes {
        int[] pendings = {0, 10_000, 1_000_000};
        int warmupMillis = 1000, measureIterations = 3, measureMillis = 1000;
        int headlineIterations = 5; // schedule+cancel on 1 thread: the headline, worth two more seconds each
        int singleShotWarmups = 3, singleShotIterations = 5;
        int expiryTimers = 1_000_000, expiryWindowMs = 1000, expiryWarmups = 1, expiryIterations = 3;
        int latenessTimers = 100_000, latenessRounds = 5; // the target's measure: the median of 5 interleaved round p99s
        int loadedMillis = 3_000;
        /** lateness-burst: the default row; the full run runs its matrix. */
        BurstLatenessHarness.Config burst = BurstLatenessHarness.Config.defaults();
        /**
         * Punctuality, above the goals' sizes (5 launches, 10 counted rounds, 150 bursts): a surer verdict. Where the
         * two executors are equally punctual, a verdict is a draw of the machine's noise, and more rounds and bursts
         * make it a surer one, for either kind: with a share p of bursts over a bound, the difference of the two
         * counts over n bursts each spreads by sqrt(2 p (1 - p) n) bursts, against the goal's allowance of 0.02 n
         * (at p = 4%: 3.4 bursts against 3 at n = 150, 5.5 against 8 at n = 400). Cold launches likewise: a
         * launch's p99 ranges several-fold between launches of either kind, and a median of 9 launches each often
         * puts the better kind behind; 31 launches per kind take ~45 s. How often a median of n launches ranks the
         * kinds wrongly: {@code punctuality cold --launches 30}, its launches resampled.
         */
        int coldLaunches = 31, warmRounds = 40 + PunctualityHarness.WARM_SKIP, punctualityTimers = 20_000, punctualityMaxDelayMs = 100;
        /** The bursts of the tail goal: the default row, a run of its own beside the matrix's. */
        BurstLatenessHarness.Config tail = BurstLatenessHarness.Config.defaults().bursts(400);
        /** The tail goal's other rows (2 spinning threads, 3 executors, 4 workers), as many bursts each. */
        List<BurstLatenessHarness.Config> tailVariants = variants(tail);

        static List<BurstLatenessHarness.Config> variants(BurstLatenessHarness.Config base) {
            return List.of(base.named("2 spinning threads, tail").load(2), base.named("3 executors, tail").executors(3),
                    base.named("4 workers, tail").workers(4));
        }
        int memoryTimers = 1_000_000;
        int idleTimers = 1_000_000, idleMillis = 10_000;
        int agentRuns = 10;

        static Sizes tiny() {
            Sizes s = new Sizes();
            s.pendings = new int[] {0, 1_000, 10_000};
            s.warmupMillis = 200;
            s.measureIterations = 1;
            s.headlineIterations = 1;
            s.measureMillis = 200;
            s.singleShotWarmups = 1;
            s.singleShotIterations = 2;
            s.expiryTimers = 10_000;
            s.expiryWindowMs = 100;
            s.expiryWarmups = 1;
            s.expiryIterations = 1;
            s.latenessTimers = 2_000;
            s.latenessRounds = 1;
            s.loadedMillis = 300;
            s.burst = s.burst.bursts(2).timers(50).warmup(1).deadline(5, 1).gapMs(10);
            s.coldLaunches = 1;
            s.warmRounds = 2;
            s.punctualityTimers = 500;
            s.punctualityMaxDelayMs = 10;
            s.tail = s.burst;
            s.tailVariants = variants(s.burst);
            s.memoryTimers = 10_000;
            s.idleTimers = 10_000;
            s.idleMillis = 1_000;
            s.agentRuns = 1;
            return s;
        }

        String[] pendingStrings() {
            String[] p = new String[pendings.length];
            for (int i = 0; i < p.length; i++) {
                p[i] = Integer.toString(pendings[i]);
            }
            return p;
        }

        String large() {
            return Integer.toString(pendings[pendings.length - 1]);
        }
    }

    /** Where a full run writes, relative to the repository's root, followed by the JDK's feature release. */
    static final String DEFAULT_OUT = "bench/results/jdk";

    private FullRun() {
    }

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        List<Peer> peers = Peer.parse(args.get("peers", "all"));
        boolean tiny = args.flag("tiny");
        Path out = Path.of(args.get("out", tiny ? System.getProperty("java.io.tmpdir") + "/timewheel-full-tiny"
                : DEFAULT_OUT + Machine.javaFeature()));
        if (!tiny && AgentHarness.findAgent(null) == null) {
            // the report would lack its agent section: a committed report has every section or is not written
            System.err.println("full: the agent is not built (no agent/target/timewheel-agent.jar), and the report measures its"
                    + " start-up; build both first: ./mvnw -B -q -pl bench,agent -am package -DskipTests");
            System.exit(2);
        }
        String[] command = new String[argv.length + 1];
        command[0] = "full";
        System.arraycopy(argv, 0, command, 1, argv.length);
        run(peers, out, args.flag("matrix"), tiny ? Sizes.tiny() : new Sizes(), command, System.out);
    }

    static void run(List<Peer> peers, Path dir, boolean matrix, Sizes z, String[] argv, PrintStream out) throws Exception {
        long t0 = System.nanoTime();
        ResultsFolder folder = new ResultsFolder(dir);
        List<String> cleared = folder.clear();
        String loadBefore = Machine.loadAverage();
        out.println(Console.wrap("", String.format("timewheel full run -> %s (%s, load %s)", dir, Machine.jdk(), loadBefore)));
        if (!cleared.isEmpty()) {
            out.printf("  deleted the %d files of the last full run there%n", cleared.size());
        }
        notOurs(folder, out);
        Figures f = new Figures(peers);
        f.pendings = z.pendings;
        String[] ids = QuickRun.ids(peers);
        String[] pendings = z.pendingStrings();

        step(out, "schedule+cancel, 1 thread, pending " + String.join(" / ", pendings));
        f.jmh.addAll(JmhRuns.run(new JmhRuns.Spec(Figures.SCHEDULE_CANCEL).param("peer", ids).param("pending", pendings)
                .warmup(1, z.warmupMillis).measure(z.headlineIterations, z.measureMillis)
                .console().json(folder.raw("schedule-cancel-t1.json"))));
        for (int threads : new int[] {2, 4, 8}) {
            String[] p = matrix ? pendings : new String[] {z.large()};
            step(out, "schedule+cancel, " + threads + " threads, pending " + String.join(" / ", p));
            f.jmh.addAll(JmhRuns.run(new JmhRuns.Spec(Figures.SCHEDULE_CANCEL).param("peer", ids).param("pending", p).threads(threads)
                    .warmup(1, z.warmupMillis).measure(z.measureIterations, z.measureMillis)
                    .console().json(folder.raw("schedule-cancel-t" + threads + ".json"))));
        }
        step(out, "schedule only (insert rate), " + z.large() + " pending");
        f.jmh.addAll(JmhRuns.run(new JmhRuns.Spec(Figures.SCHEDULE_ONLY).param("peer", ids).param("pending", z.large())
                .warmup(1, z.warmupMillis).measure(z.measureIterations, z.measureMillis)
                .console().json(folder.raw("schedule-only.json"))));
        step(out, "expiry: " + z.expiryTimers + " timers due within " + z.expiryWindowMs + " ms");
        f.jmh.addAll(JmhRuns.run(new JmhRuns.Spec(Figures.EXPIRY).param("peer", ids)
                .param("timers", Integer.toString(z.expiryTimers)).param("windowMs", Integer.toString(z.expiryWindowMs))
                .warmup(z.expiryWarmups, 0).measure(z.expiryIterations, 0).console().json(folder.raw("expiry.json"))));
        step(out, "TimerWheel vs Agrona DeadlineTimerWheel");
        f.jmh.addAll(JmhRuns.run(new JmhRuns.Spec("WheelBenchmark.addCancel").param("pending", pendings)
                .warmup(2, z.warmupMillis).measure(z.measureIterations, z.measureMillis)
                .console().json(folder.raw("wheel-add-cancel.json"))));
        f.jmh.addAll(JmhRuns.run(new JmhRuns.Spec("WheelBenchmark.add").param("pending", pendings)
                .warmup(z.singleShotWarmups, 0).measure(z.singleShotIterations, 0)
                .console().json(folder.raw("wheel-add.json"))));
        f.jmh.addAll(JmhRuns.run(new JmhRuns.Spec("WheelBenchmark.cancel").param("pending", pendings)
                .warmup(z.singleShotWarmups, 0).measure(z.singleShotIterations, 0)
                .console().json(folder.raw("wheel-cancel.json"))));
        f.jmh.addAll(JmhRuns.run(new JmhRuns.Spec("WheelBenchmark.advance").param("pending", pendings)
                .warmup(z.singleShotWarmups, 0).measure(z.singleShotIterations, 0)
                .console().json(folder.raw("wheel-advance.json"))));

        step(out, "lateness");
        f.latenessRounds = z.latenessRounds;
        f.lateness = LatenessHarness.run(peers, z.latenessTimers, 500, z.latenessRounds, out);
        for (Map.Entry<Peer, LatenessHarness.Result> e : f.lateness.entrySet()) {
            try (PrintStream hgrm = new PrintStream(Files.newOutputStream(folder.raw("lateness-" + e.getKey().id() + ".hgrm")))) {
                e.getValue().lateness.outputPercentileDistribution(hgrm, 1e6); // in milliseconds
            }
        }
        step(out, "lateness under load");
        f.loadedLateness = LoadedLatenessHarness.run(peers, 1, z.loadedMillis, out);
        step(out, "lateness in bursts under load (matrix)");
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(folder.raw("lateness-burst.csv")))) {
            f.bursts = BurstLatenessHarness.run(BurstLatenessHarness.matrix(z.burst), out, csv);
        }
        step(out, "punctuality against STPE: cold launches, warm rounds, the tail of bursts under load");
        List<Peer> pair = List.of(Peer.TIMEWHEEL, Peer.STPE);
        f.punctualityTimers = z.punctualityTimers;
        f.punctualityMaxDelayMs = z.punctualityMaxDelayMs;
        f.coldLaunches = PunctualityHarness.cold(pair, z.coldLaunches, z.punctualityTimers, z.punctualityMaxDelayMs, out);
        out.println();
        f.warmRounds = PunctualityHarness.warm(pair, z.warmRounds, z.punctualityTimers, z.punctualityMaxDelayMs, out);
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(folder.raw("punctuality-bursts.csv")))) {
            List<BurstLatenessHarness.Config> tails = new ArrayList<>();
            tails.add(z.tail.named("default, tail"));
            tails.addAll(z.tailVariants);
            List<BurstLatenessHarness.Result> ran = BurstLatenessHarness.run(tails, out, csv);
            f.burstTail = ran.get(0);
            f.burstTailVariants = new ArrayList<>(ran.subList(1, ran.size()));
        }
        out.printf("%n%s%s%n", Punctuality.table(f).text(), Console.wrap("", Punctuality.note(f)));
        step(out, "memory");
        f.memory = MemoryHarness.run(peers, z.memoryTimers, out);
        step(out, "idle");
        f.idleTimers = z.idleTimers;
        f.idle = IdleHarness.run(peers, List.of(0, f.idleTimers), z.idleMillis, true, out);
        step(out, "threads");
        f.threads = ThreadsHarness.run(peers, out);
        step(out, "Netty timers: WheelTimer vs HashedWheelTimer");
        f.netty = io.timewheel.bench.netty.NettySection.run(z.warmupMillis, z.measureIterations, z.measureMillis, z.latenessTimers,
                z.idleMillis, folder.raw(""), out);
        step(out, "agent start-up");
        f.agent = AgentHarness.run(null, z.agentRuns, out);

        String loadAfter = Machine.loadAverage();
        double minutes = (System.nanoTime() - t0) / 60e9;
        charts(f, dir);
        String report = Report.markdown(f, argv, loadBefore, loadAfter, minutes, matrix);
        Files.writeString(dir.resolve("report.md"), report);
        out.printf("%n== headline ==%n%s%s%n== targets ==%n%s%s%n", Headline.table(f).text(), Console.wrap("", Headline.note(f)) + "\n",
                Targets.table(f).text(), Targets.summary(f));
        out.printf("%nwrote %s (%.1f min)%n", dir.resolve("report.md"), minutes);
        notOurs(folder, out);
    }

    /** Names the files in the folder that a full run does not write: they are not this run's evidence. */
    private static void notOurs(ResultsFolder folder, PrintStream out) throws IOException {
        List<String> foreign = folder.foreign();
        if (!foreign.isEmpty()) {
            out.println(Console.wrap("  ", "not written by full, left as they are: " + String.join(", ", foreign)));
        }
    }

    private static int stepNo;

    private static void step(PrintStream out, String what) {
        out.printf("%n[%d] %s%n", ++stepNo, what);
    }

    static void charts(Figures f, Path dir) throws IOException {
        List<String> pendingLabels = new ArrayList<>();
        for (int p : f.pendings) {
            pendingLabels.add(Headline.count(p));
        }
        Map<String, double[]> throughput = new LinkedHashMap<>();
        for (Peer p : f.peers) {
            double[] v = new double[f.pendings.length];
            for (int i = 0; i < v.length; i++) {
                v[i] = f.scheduleCancel(p, f.pendings[i], 1);
            }
            throughput.put(p.id(), v);
        }
        Charts.line(dir.resolve("schedule-cancel-vs-pending.png"), "Schedule + cancel throughput vs pending timers (1 thread)",
                "far timers pending", "million schedule+cancel per second (log)", pendingLabels, throughput, true);

        int large = f.largePending();
        Map<String, double[]> scaling = new LinkedHashMap<>();
        for (Peer p : f.peers) {
            scaling.put(p.id(), new double[] {f.scheduleCancel(p, large, 1), f.scheduleCancel(p, large, 2), f.scheduleCancel(p, large, 4),
                    f.scheduleCancel(p, large, 8)});
        }
        Charts.line(dir.resolve("schedule-cancel-vs-threads.png"),
                "Schedule + cancel throughput vs producer threads (" + Headline.count(large) + " pending)",
                "producer threads (on " + Runtime.getRuntime().availableProcessors() + " CPUs)", "million schedule+cancel per second (log)",
                List.of("1", "2", "4", "8"), scaling, true);

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
        Charts.line(dir.resolve("lateness.png"), "Lateness: start time minus deadline (delays 1..500 ms)",
                "percentile", "milliseconds late (log)", labels, lateness, true);
    }
}
