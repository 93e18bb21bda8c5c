package io.timewheel.bench.run;

import io.timewheel.bench.report.Figures;
import io.timewheel.bench.report.Headline;
import io.timewheel.bench.report.JmhRow;
import io.timewheel.bench.report.Machine;
import io.timewheel.bench.report.Report;
import io.timewheel.bench.report.Targets;

import io.timewheel.bench.harness.AgentHarness;
import io.timewheel.bench.harness.BurstLatenessHarness;
import io.timewheel.bench.harness.IdleHarness;
import io.timewheel.bench.harness.LatenessHarness;
import io.timewheel.bench.harness.LoadedLatenessHarness;
import io.timewheel.bench.harness.MemoryHarness;
import io.timewheel.bench.harness.PunctualityHarness;
import io.timewheel.bench.harness.ThreadsHarness;
import io.timewheel.bench.jmh.ExpiryBenchmark;
import io.timewheel.bench.jmh.ScheduleCancelBenchmark;
import io.timewheel.bench.jmh.ScheduleOnlyBenchmark;
import io.timewheel.bench.peer.Peer;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Every benchmark and harness at tiny sizes: proves they run, measures nothing worth reading. What CI runs
 * (through SmokeTest) and {@code java -jar bench/target/timewheel-bench.jar smoke}.
 */
public final class Smoke {

    private Smoke() {
    }

    public static void main(String[] args) throws Exception {
        PrintStream out = System.out;
        benchmarks(Peer.available(), out);
        jmh(out);
        harnesses(Peer.available(), out);
        report(Peer.available(), Files.createTempDirectory("timewheel-smoke"), out);
        out.println("smoke: all benchmarks and harnesses ran");
    }

    /** Each JMH benchmark's state and method driven directly, for every peer, at tiny sizes. */
    public static void benchmarks(List<Peer> peers, PrintStream out) throws Exception {
        for (Peer p : peers) {
            ScheduleCancelBenchmark sc = ScheduleCancelBenchmark.smoke(p.id(), 1_000);
            for (int i = 0; i < 1_000; i++) {
                if (!sc.scheduleCancel()) {
                    throw new IllegalStateException(p.id() + ": cancel of a 30 s timer failed");
                }
            }
            sc.betweenIterations();
            sc.tearDown();
            ScheduleOnlyBenchmark so = ScheduleOnlyBenchmark.smoke(p.id(), 1_000);
            for (int i = 0; i < 1_000; i++) {
                so.schedule();
            }
            so.tearDown();
            ExpiryBenchmark ex = ExpiryBenchmark.smoke(p.id(), 2_000, 20);
            ex.scheduleAndExpireAll();
            ex.tearDown();
            out.println("smoke: benchmarks ran on " + p.id());
        }
    }

    /** One real JMH run through the generated code: the wheel benchmarks, in-process, a few milliseconds. */
    public static List<JmhRow> jmh(PrintStream out) throws Exception {
        List<JmhRow> rows = JmhRuns.runInProcess(new JmhRuns.Spec("WheelBenchmark.addCancel").param("pending", "1000")
                .warmup(1, 20).measure(1, 20));
        rows.addAll(JmhRuns.runInProcess(new JmhRuns.Spec("WheelBenchmark.advance").param("pending", "1000").warmup(1, 0).measure(1, 0)));
        rows.addAll(JmhRuns.runInProcess(new JmhRuns.Spec("WheelBenchmark.add").param("pending", "1000").warmup(1, 0).measure(1, 0)));
        rows.addAll(JmhRuns.runInProcess(new JmhRuns.Spec("WheelBenchmark.cancel").param("pending", "1000").warmup(1, 0).measure(1, 0)));
        rows.addAll(JmhRuns.runInProcess(new JmhRuns.Spec("WheelBenchmark.window").param("pending", "1000").warmup(1, 0).measure(1, 0)));
        for (JmhRow r : rows) {
            out.println("smoke: jmh " + r);
        }
        if (rows.size() != 10) {
            throw new IllegalStateException("expected 10 JMH results (5 benchmarks x 2 wheels), got " + rows.size());
        }
        return rows;
    }

    /** The harnesses: lateness for every peer; those that start a JVM per measurement for two peers. */
    public static void harnesses(List<Peer> peers, PrintStream out) throws Exception {
        lateness(peers, out);
        burst(out);
        punctuality(out);
        List<Peer> two = List.of(Peer.TIMEWHEEL, Peer.STPE);
        memory(two, out);
        idle(two, out);
        threads(two, out);
        agent(out);
    }

    /** lateness and lateness-under-load on every peer; lateness also checks every timer ran and none early (a contract). */
    public static void lateness(List<Peer> peers, PrintStream out) throws Exception {
        Map<Peer, LatenessHarness.Result> r = LatenessHarness.run(peers, 1_000, 20, 1, out);
        check(r.size() == peers.size(), "lateness: a result per peer");
        checkLateness(r);
        Map<Peer, LoadedLatenessHarness.Result> loaded = LoadedLatenessHarness.run(peers, 1, 150, out);
        check(loaded.size() == peers.size(), "lateness under load: a result per peer");
    }

    /**
     * Every peer ran every timer and none early: no early fire at all, or for a peer with an
     * {@link Peer#earlyToleranceNanos() early tolerance} (Kafka's whole milliseconds) none as early as that.
     * Throws naming the peers that broke it.
     */
    public static void checkLateness(Map<Peer, LatenessHarness.Result> results) {
        List<String> broken = new java.util.ArrayList<>();
        for (Map.Entry<Peer, LatenessHarness.Result> e : results.entrySet()) {
            LatenessHarness.Result r = e.getValue();
            long tolerance = e.getKey().earlyToleranceNanos();
            if (r.missing > 0) {
                broken.add(e.getKey().id() + ": " + r.missing + " of " + r.timers + " timers never ran");
            }
            if (r.early > 0 && (tolerance == 0 || r.worstEarlyNanos >= tolerance)) {
                broken.add(String.format("%s: %d of %d timers ran early, the earliest %.3f ms before its deadline%s", e.getKey().id(),
                        r.early, r.timers, r.worstEarlyNanos / 1e6, tolerance > 0 ? String.format(" (tolerated: %.3f ms)", tolerance / 1e6) : ""));
            }
        }
        check(broken.isEmpty(), "lateness: " + String.join("; ", broken));
    }

    /**
     * lateness-burst at toy sizes: the default row and an overlapping one with several workers and executors,
     * so every path of the harness runs. Checks that every timer ran and none ran early (a contract, not a timing).
     */
    public static List<BurstLatenessHarness.Result> burst(PrintStream out) throws Exception {
        BurstLatenessHarness.Config tiny = BurstLatenessHarness.Config.defaults().bursts(2).timers(50).warmup(1).deadline(5, 1)
                .gapMs(10).arrivalUs(100);
        List<BurstLatenessHarness.Result> results = BurstLatenessHarness.run(List.of(tiny.named("smoke"),
                tiny.named("smoke overlapping").workers(2).executors(2).workUs(1).gapMs(2).bursts(4)), out, null);
        check(results.size() == 2, "lateness-burst: a result per configuration");
        for (BurstLatenessHarness.Result r : results) {
            for (BurstLatenessHarness.Summary s : r.kinds.values()) {
                check(s.bursts.size() == r.config.bursts, "lateness-burst: " + r.config.bursts + " bursts of " + s.kind.id());
                check(s.missing() == 0, "lateness-burst: every timer of " + s.kind.id() + " ran");
                check(s.early() == 0, "lateness-burst: no timer of " + s.kind.id() + " ran early");
            }
        }
        return results;
    }

    /**
     * punctuality at toy sizes: one cold launch per kind (a child JVM each) and two warm rounds, 500 timers due
     * within 10 ms. Checks a round per launch and per warm round, every timer run, none early (a contract, not a timing).
     */
    public static void punctuality(PrintStream out) throws Exception {
        List<Peer> two = List.of(Peer.TIMEWHEEL, Peer.STPE);
        Map<Peer, List<PunctualityHarness.Round>> cold = PunctualityHarness.cold(two, 1, 500, 10, out);
        Map<Peer, List<PunctualityHarness.Round>> warm = PunctualityHarness.warm(two, 2, 500, 10, out);
        for (Peer p : two) {
            check(cold.get(p).size() == 1 && warm.get(p).size() == 2, "punctuality: a round per launch and per warm round of " + p.id());
            for (PunctualityHarness.Round r : List.of(cold.get(p).get(0), warm.get(p).get(0), warm.get(p).get(1))) {
                check(r.missing() == 0 && r.early() == 0, "punctuality: every timer of " + p.id() + " ran, none early: " + r);
            }
        }
    }

    public static void memory(List<Peer> peers, PrintStream out) throws Exception {
        Map<Peer, MemoryHarness.Result> r = MemoryHarness.run(peers, 1_000, out);
        check(r.size() == peers.size(), "memory: a result per peer");
    }

    public static void idle(List<Peer> peers, PrintStream out) throws Exception {
        Map<String, IdleHarness.Result> r = IdleHarness.run(peers, List.of(0, 1_000), 200, true, out);
        check(r.size() == 2 * peers.size(), "idle: a result per peer and timer count");
    }

    public static void threads(List<Peer> peers, PrintStream out) throws Exception {
        Map<Peer, int[]> r = ThreadsHarness.run(peers, out);
        check(r.size() == peers.size(), "threads: a result per peer");
    }

    public static void agent(PrintStream out) throws Exception {
        AgentHarness.run(null, 1, out); // "agent not built yet" until the agent module exists
    }

    private static void check(boolean ok, String what) {
        if (!ok) {
            throw new IllegalStateException("smoke: " + what);
        }
    }

    /** The report writer and the charts on made-up figures. */
    public static void report(List<Peer> peers, Path dir, PrintStream out) throws Exception {
        Figures f = new Figures(peers);
        f.lateness = LatenessHarness.run(List.of(Peer.TIMEWHEEL), 200, 5, 1, out);
        f.bursts = BurstLatenessHarness.run(List.of(BurstLatenessHarness.Config.defaults().named("smoke").bursts(1).timers(20)
                .warmup(0).deadline(2, 0.5).gapMs(4)), out, null);
        f.burstTail = f.bursts.get(0);
        f.burstTailVariants = List.of(f.bursts.get(0)); // a variant row's target and table rows, on the same figures
        f.punctualityTimers = 50;
        f.punctualityMaxDelayMs = 2;
        f.warmRounds = PunctualityHarness.warm(List.of(Peer.TIMEWHEEL, Peer.STPE), 2, f.punctualityTimers, f.punctualityMaxDelayMs, out);
        // cold left out: its row reads "-", its target "not measured"
        FullRun.charts(f, dir);
        String md = Report.markdown(f, new String[] {"smoke"}, Machine.loadAverage(), Machine.loadAverage(), 0, false);
        Files.writeString(dir.resolve("report.md"), md);
        out.print(Headline.table(f).text());
        out.print(Targets.table(f).text());
        out.println(Targets.summary(f));
    }
}
