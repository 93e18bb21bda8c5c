package io.timewheel.bench.run;

import io.timewheel.bench.report.Bursts;
import io.timewheel.bench.report.Figures;
import io.timewheel.bench.report.Headline;
import io.timewheel.bench.report.JmhRow;
import io.timewheel.bench.report.Machine;
import io.timewheel.bench.report.Punctuality;
import io.timewheel.bench.report.Targets;

import io.timewheel.bench.harness.Args;
import io.timewheel.bench.harness.Console;
import io.timewheel.bench.harness.BurstLatenessHarness;
import io.timewheel.bench.harness.IdleHarness;
import io.timewheel.bench.harness.LatenessHarness;
import io.timewheel.bench.harness.MemoryHarness;
import io.timewheel.bench.harness.PunctualityHarness;
import io.timewheel.bench.harness.ThreadsHarness;
import io.timewheel.bench.peer.Peer;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The main job: a few-minute side-by-side run that prints the headline table and the targets. Short JMH runs
 * (one fork, 1 s warm-up, 2 x 1 s measured) and the harnesses at their headline sizes, the idle windows
 * shortened to 5 s and run side by side, the default row of {@code lateness-burst} (STPE and timewheel, 150
 * bursts each, about 35 s; the matrix of variants runs in {@code full}), and the punctuality against STPE at the
 * sizes its goals ask for (5 alternating fresh-JVM launches per kind, 10 counted warm rounds, the tail of those
 * 150 bursts: about 10 s more), its figures beside STPE's and a verdict per goal ({@link Punctuality}). A "best
 * of" target compares with the same peers as in {@code full} (expiry: every peer; scaling:
 * {@link Targets#SCALING_PEERS}), so its verdict means the same in both; the targets only {@code full} measures
 * read "not measured". For the numbers to quote, use {@code full}. Every line it prints fits
 * {@link Console#WIDTH} columns.
 *
 * <p>Run: {@code java -jar bench/target/timewheel-bench.jar quick [--peers all]}
 */
public final class QuickRun {

    private QuickRun() {
    }

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        List<Peer> peers = Peer.parse(args.get("peers", "all"));
        if (!peers.contains(Peer.TIMEWHEEL)) {
            peers.add(0, Peer.TIMEWHEEL);
        }
        run(peers, System.out);
    }

    public static Figures run(List<Peer> peers, PrintStream out) throws Exception {
        long t0 = System.nanoTime();
        String loadBefore = Machine.loadAverage();
        out.println(Console.wrap("", String.format("timewheel quick run: %s, %d CPUs, %s, load %s", Machine.jdk(),
                Runtime.getRuntime().availableProcessors(), Machine.cpuModel(), loadBefore)));
        for (Peer p : Peer.values()) {
            if (!p.isAvailable()) {
                out.println(Console.wrap("  ", "(" + p.id() + " left out: " + p.unavailableReason() + ")"));
            }
        }
        Figures f = new Figures(peers);
        f.quick = true;

        out.printf("%n[1/9] schedule+cancel, %d pending, 1 thread, and 2 threads for the scaling peers (JMH, short)...%n", f.largePending());
        f.jmh.addAll(JmhRuns.run(new JmhRuns.Spec(Figures.SCHEDULE_CANCEL)
                .param("peer", ids(peers)).param("pending", Integer.toString(f.largePending()))
                .warmup(1, 1000).measure(2, 1000)));
        f.jmh.addAll(JmhRuns.run(new JmhRuns.Spec(Figures.SCHEDULE_CANCEL)
                .param("peer", Peer.TIMEWHEEL.id()).param("pending", "0")
                .warmup(1, 1000).measure(2, 1000)));
        // two producers: timewheel and every peer the scaling target takes the best of
        List<Peer> scaling = new ArrayList<>();
        for (Peer p : peers) {
            if (p == Peer.TIMEWHEEL || Targets.SCALING_PEERS.contains(p)) {
                scaling.add(p);
            }
        }
        f.jmh.addAll(JmhRuns.run(new JmhRuns.Spec(Figures.SCHEDULE_CANCEL)
                .param("peer", ids(scaling)).param("pending", Integer.toString(f.largePending())).threads(2)
                .warmup(1, 1000).measure(2, 1000)));
        for (JmhRow r : f.jmh) {
            out.printf("  %-12s pending=%-8s threads=%s %8.3f ops/us%n", r.param("peer"), r.param("pending"), r.threads, r.score);
        }

        // expiry: every peer, as in full: its target is timewheel against the best of them all
        out.printf("%n[2/9] expiry: 1M timers due within 1 s (JMH, 1 warm-up shot, 3 measured), every peer...%n");
        f.jmh.addAll(JmhRuns.run(new JmhRuns.Spec(Figures.EXPIRY).param("peer", ids(peers))
                .param("timers", "1000000").param("windowMs", "1000").warmup(1, 0).measure(3, 0)));
        for (JmhRow r : f.jmh) {
            if (r.benchmark.equals(Figures.EXPIRY)) {
                out.printf("  %-12s median %6.0f ms, slowest %6.0f ms%n", r.param("peer"), r.median, r.max);
            }
        }
        out.printf("%n[3/9] TimerWheel alone: expiry cost per timer, %d pending (JMH WheelBenchmark.advance)...%n", f.largePending());
        f.jmh.addAll(JmhRuns.run(new JmhRuns.Spec("WheelBenchmark.advance").param("impl", "timewheel")
                .param("pending", Integer.toString(f.largePending())).warmup(2, 0).measure(3, 0)));
        for (JmhRow r : f.jmh) {
            if (r.benchmark.equals("WheelBenchmark.advance")) {
                out.printf("  %.1f ns per timer%n", r.score);
            }
        }

        out.printf("%n[4/9] lateness%n");
        f.latenessRounds = 5; // the target's measure: the median of 5 interleaved round p99s
        f.lateness = LatenessHarness.run(peers, 100_000, 500, f.latenessRounds, out);

        out.printf("%n[5/9] memory%n");
        f.memory = MemoryHarness.run(peers, 100_000, out);

        out.printf("%n[6/9] idle%n");
        f.idleTimers = 1_000_000;
        f.idle = IdleHarness.run(peers, List.of(f.idleTimers), 5_000, true, out);

        out.printf("%n[7/9] threads%n");
        f.threads = ThreadsHarness.run(peers, out);

        out.printf("%n[8/9] lateness in bursts under load, the default row%n");
        // the default row with the bursts the tail goal asks for: its medians are the bursts' goal, its p99s the tail's
        f.bursts = BurstLatenessHarness.run(List.of(BurstLatenessHarness.Config.defaults().bursts(Punctuality.TAIL_BURSTS)), out, null);
        f.burstTail = f.bursts.get(0);

        out.printf("%n[9/9] punctuality against STPE: cold launches, then warm rounds%n");
        List<Peer> pair = List.of(Peer.TIMEWHEEL, Peer.STPE);
        f.coldLaunches = PunctualityHarness.cold(pair, Punctuality.COLD_LAUNCHES, f.punctualityTimers, f.punctualityMaxDelayMs, out);
        out.println();
        f.warmRounds = PunctualityHarness.warm(pair, Punctuality.WARM_ROUNDS + PunctualityHarness.WARM_SKIP, f.punctualityTimers,
                f.punctualityMaxDelayMs, out);

        out.printf("%n%s%n", Console.wrap("", String.format("== timewheel vs the peers (Java %s, %d CPUs, load %s -> %s, %.0f s) ==",
                Runtime.version(), Runtime.getRuntime().availableProcessors(), loadBefore, Machine.loadAverage(),
                (System.nanoTime() - t0) / 1e9)));
        out.print(Headline.table(f).text());
        out.println(Console.wrap("", Headline.note(f)));
        out.println(Console.wrap("", "Quick settings: JMH 1 fork, 1x1 s warm-up, 2x1 s measured; lateness 100k timers, 5 interleaved"
                + " rounds (each peer's median round); memory 100k timers; idle 5 s windows side by side; expiry 1 + 3 shots;"
                + " 2 producers: timewheel, Netty and FJP only; bursts: the default row only, " + Punctuality.TAIL_BURSTS
                + " per kind (the matrix runs in 'full'); punctuality: " + Punctuality.COLD_LAUNCHES + " cold launches and "
                + Punctuality.WARM_ROUNDS + " counted warm rounds per kind. Use 'full' for the report."));
        out.printf("%n== lateness in bursts under load, the default row ==%n");
        out.print(Bursts.table(f.bursts).text());
        out.print(Bursts.checks(f.bursts).text());
        out.println(Console.wrap("", Bursts.NOTE));
        out.printf("%n== punctuality against STPE ==%n");
        out.print(Punctuality.table(f).text());
        out.println(Console.wrap("", Punctuality.note(f)));
        out.printf("%n== targets ==%n");
        out.print(Targets.table(f).text());
        out.println(Targets.summary(f) + " (not measured is not counted as met)");
        return f;
    }

    static String[] ids(List<Peer> peers) {
        List<String> ids = new ArrayList<>();
        for (Peer p : peers) {
            ids.add(p.id());
        }
        return ids.toArray(new String[0]);
    }
}
