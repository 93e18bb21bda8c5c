package io.timewheel.bench.report;

import io.timewheel.bench.harness.BurstLatenessHarness;
import io.timewheel.bench.harness.IdleHarness;
import io.timewheel.bench.harness.LatenessHarness;
import io.timewheel.bench.harness.LoadedLatenessHarness;
import io.timewheel.bench.harness.MemoryHarness;
import io.timewheel.bench.peer.Peer;

import java.util.List;

/** The headline table (timewheel beside every peer, with ratios to timewheel) and the targets check. */
public final class Headline {

    public static final String RATIO_NOTE = "In brackets: the peer's figure divided by timewheel's (throughput: below 1x means"
            + " slower than timewheel; lateness, bytes, wake-ups: above 1x means more than timewheel).";

    private Headline() {
    }

    public static Table table(Figures f) {
        Peer us = Peer.TIMEWHEEL;
        int pending = f.largePending();
        double ourThroughput = f.scheduleCancel(us, pending, 1);
        LatenessHarness.Result ourLate = f.lateness.get(us);
        MemoryHarness.Result ourMem = f.memory.get(us);
        IdleHarness.Result ourIdle = f.idle(us, f.idleTimers);
        Table t = new Table("peer", "schedule+cancel @" + count(pending) + " pending, Mops/s", "lateness p50 ms", "p99 ms", "max ms", "early fires",
                "bytes/timer", "idle wake-ups/s (" + count(f.idleTimers) + " far timers)", "threads x1 / x10");
        for (Peer p : f.peers) {
            double tp = f.scheduleCancel(p, pending, 1);
            LatenessHarness.Result late = f.lateness.get(p);
            MemoryHarness.Result mem = f.memory.get(p);
            IdleHarness.Result idle = f.idle(p, f.idleTimers);
            int[] th = f.threads.get(p);
            t.row(p.id(),
                    cell(tp, ourThroughput, "%.2f", p == us),
                    late == null ? "-" : cell(late.percentileMillis(50), ourLate == null ? Double.NaN : ourLate.percentileMillis(50), "%.2f", p == us),
                    late == null ? "-" : cell(late.percentileMillis(99), ourLate == null ? Double.NaN : ourLate.percentileMillis(99), "%.2f", p == us),
                    late == null ? "-" : cell(late.maxMillis(), ourLate == null ? Double.NaN : ourLate.maxMillis(), "%.2f", p == us),
                    late == null ? "-" : Integer.toString(late.early) + (late.missing > 0 ? " (" + late.missing + " never ran)" : ""),
                    mem == null ? "-" : cell(mem.bytesPerTimer(), ourMem == null ? Double.NaN : ourMem.bytesPerTimer(), "%.1f", p == us)
                            + (mem.jolSawTimers() ? "" : " heap"),
                    idle == null ? "-" : cell(idle.wakeupsPerSecond, ourIdle == null ? Double.NaN : ourIdle.wakeupsPerSecond, "%.1f", p == us),
                    th == null ? "-" : th[0] + " / " + th[1]);
        }
        return t;
    }

    private static String cell(double value, double ours, String format, boolean isUs) {
        if (Double.isNaN(value) || value < 0) {
            return "-";
        }
        String v = String.format(format, value);
        if (isUs || Double.isNaN(ours) || ours <= 0) {
            return v;
        }
        double ratio = value / ours;
        return v + " (" + (ratio >= 100 ? String.format("%.0fx", ratio) : ratio >= 10 ? String.format("%.1fx", ratio)
                : String.format("%.2fx", ratio)) + ")";
    }

    public static String count(int n) {
        return n >= 1_000_000 && n % 1_000_000 == 0 ? (n / 1_000_000) + "M" : n >= 1000 && n % 1000 == 0 ? (n / 1000) + "k" : Integer.toString(n);
    }

    /** The issue's targets, each with the measured figure and met / missed. */
    public static Table targets(Figures f) {
        Peer us = Peer.TIMEWHEEL;
        int pending = f.largePending();
        Table t = new Table("target", "measured", "verdict");
        double ours = f.scheduleCancel(us, pending, 1);
        double roc = f.scheduleCancel(Peer.STPE_ROC, pending, 1);
        String at = "@" + count(pending);
        t.row("schedule+cancel " + at + " >= 10x STPE(removeOnCancel=true)",
                ratio(ours, roc) + " (" + fmt(ours) + " vs " + fmt(roc) + " Mops/s)", verdict(ours / roc >= 10, ours, roc));
        // the issue's scaling goal: 1.5x the best of Netty and FJP with one producer, 2x with 2 and with 4
        for (int threads : new int[] {1, 2, 4}) {
            double goal = threads == 1 ? 1.5 : 2;
            double mine = f.scheduleCancel(us, pending, threads);
            Peer best = null;
            double bestScore = Double.NaN;
            for (Peer p : List.of(Peer.NETTY_1MS, Peer.NETTY_100MS, Peer.FJP)) {
                double s = f.scheduleCancel(p, pending, threads);
                if (!Double.isNaN(s) && (best == null || s > bestScore)) {
                    best = p;
                    bestScore = s;
                }
            }
            String who = threads == 1 ? "1 producer" : threads + " producers";
            t.row("schedule+cancel " + at + ", " + who + " >= " + (threads == 1 ? "1.5x" : "2x") + " the best of Netty and the Java 25 FJP scheduler",
                    best == null || Double.isNaN(mine) ? "-" : ratio(mine, bestScore) + " (" + fmt(mine) + " vs " + best.id() + " " + fmt(bestScore) + " Mops/s)"
                            + (f.peers.contains(Peer.FJP) ? "" : " (no FJP before Java 25)"),
                    best == null || Double.isNaN(mine) ? "not measured" + (threads > 2 ? " (full run)" : "") : verdict(mine / bestScore >= goal, mine, bestScore));
        }
        double zero = f.scheduleCancel(us, 0, 1);
        t.row("cost per op at " + count(pending) + " pending within 1.2x of 0 pending",
                Double.isNaN(zero) ? "-" : String.format("%.2fx (%s Mops/s at 0, %s at %s)", zero / ours, fmt(zero), fmt(ours), count(pending)),
                verdict(zero / ours <= 1.2, zero, ours));
        expiryTargets(f, t);
        JmhRow advance = JmhRow.find(f.jmh, "WheelBenchmark.advance", 1, "impl", "timewheel", "pending", Integer.toString(pending));
        t.row("TimerWheel expiry <= 25 ns per timer (WheelBenchmark.advance, " + count(pending) + " pending)",
                advance == null ? "-" : String.format("%.1f ns per timer", advance.score),
                advance == null ? "not measured (full run)" : advance.score <= 25 ? "met" : "MISSED");
        LatenessHarness.Result ourLate = f.lateness.get(us);
        LatenessHarness.Result stpeLate = f.lateness.get(Peer.STPE);
        if (ourLate != null && stpeLate != null) {
            double a = ourLate.percentileMillis(99), b = stpeLate.percentileMillis(99);
            t.row("p99 lateness no worse than STPE's (median of " + f.latenessRounds + " round(s))", String.format("%.3f ms vs %.3f ms", a, b),
                    a <= b ? "met" : "MISSED");
        }
        LoadedLatenessHarness.Result ourLoaded = f.loadedLateness.get(us);
        LoadedLatenessHarness.Result stpeLoaded = f.loadedLateness.get(Peer.STPE);
        if (ourLoaded != null && stpeLoaded != null) {
            double a = ourLoaded.percentileMillis(99), b = stpeLoaded.percentileMillis(99);
            t.row("lateness-under-load: probe p99 no worse than STPE's", String.format("%.3f ms vs %.3f ms", a, b),
                    a <= b && ourLoaded.missed == 0 ? "met" : "MISSED");
        } else {
            t.row("lateness-under-load: probe p99 no worse than STPE's", "-", "not measured (full run)");
        }
        if (ourLate != null) {
            t.row("zero early fires", ourLate.early + " early of " + ourLate.timers, ourLate.early == 0 ? "met" : "MISSED");
        }
        if (!f.bursts.isEmpty()) {
            BurstLatenessHarness.Result b = f.bursts.get(0);
            BurstLatenessHarness.Summary s = b.stpe(), w = b.timewheel();
            t.row("bursts under load (" + b.config.name + " row): p50 and p99 no worse than STPE's",
                    String.format("p50 %s vs %s us (%s), p99 %s vs %s us (%s)", Bursts.us(w.medianP50Micros()), Bursts.us(s.medianP50Micros()),
                            Bursts.ratio(b.p50Ratio()), Bursts.us(w.medianP99Micros()), Bursts.us(s.medianP99Micros()), Bursts.ratio(b.p99Ratio())),
                    b.p50Ratio() <= 1 && b.p99Ratio() <= 1 ? "met" : "MISSED");
            int early = 0, timers = 0, missing = 0, met = 0, variants = 0;
            BurstLatenessHarness.Result control = null;
            for (BurstLatenessHarness.Result r : f.bursts) {
                if (r.config.control) {
                    control = r; // STPE twice: not timewheel's figures
                    continue;
                }
                variants++;
                early += r.timewheel().early();
                timers += r.timewheel().timers();
                missing += r.timewheel().missing();
                met += r.goalMet() ? 1 : 0;
            }
            t.row("bursts under load: zero early fires" + (variants > 1 ? " (every variant)" : ""),
                    early + " early of " + timers + (missing > 0 ? ", " + missing + " never ran" : ""), early == 0 && missing == 0 ? "met" : "MISSED");
            if (variants > 1) {
                t.row("bursts under load: goal met in every variant", met + " of " + variants + " variants", met == variants ? "met" : "MISSED");
            }
            List<String> later = new java.util.ArrayList<>();
            for (BurstLatenessHarness.Result r : f.bursts) {
                if (!r.config.control && r.significantlyLater()) {
                    later.add(r.config.name);
                }
            }
            t.row("bursts under load: no variant later than STPE beyond noise (paired sign test, p < 0.05)",
                    later.isEmpty() ? "none later of " + variants : "later: " + String.join(", ", later), later.isEmpty() ? "met" : "MISSED");
            if (control != null) {
                t.row("bursts under load: this run's noise (A/A control, STPE vs STPE, default row)",
                        String.format("p50 %s, p99 %s (paired %s / %s)", Bursts.ratio(control.p50Ratio()), Bursts.ratio(control.p99Ratio()),
                                Bursts.ratio(control.pairedP50Ratio()), Bursts.ratio(control.pairedP99Ratio())), "(no goal)");
            }
        }
        MemoryHarness.Result mem = f.memory.get(us);
        if (mem != null) {
            t.row("<= 60 bytes per pending timer", String.format("%.1f B (JOL)", mem.jolBytesPerTimer), mem.jolBytesPerTimer <= 60 ? "met" : "MISSED");
        }
        IdleHarness.Result idle = f.idle(us, f.idleTimers);
        if (idle != null) {
            t.row("<= 1 wake-up/s idle with " + count(f.idleTimers) + " far timers",
                    String.format("%.2f /s, %.3f ms CPU/s", idle.wakeupsPerSecond, idle.cpuMillisPerSecond),
                    idle.wakeupsPerSecond < 0 ? "not measured" : idle.wakeupsPerSecond <= 1 ? "met" : "MISSED");
        }
        int[] ourThreads = f.threads.get(us);
        int[] stpeThreads = f.threads.get(Peer.STPE);
        if (ourThreads != null && stpeThreads != null) {
            int extra = Math.max(ourThreads[0] - stpeThreads[0], ourThreads[1] - stpeThreads[1]);
            t.row("<= 1 thread added per JVM beyond STPE's",
                    String.format("x1: %d vs %d, x10: %d vs %d", ourThreads[0], stpeThreads[0], ourThreads[1], stpeThreads[1]),
                    extra <= 1 ? "met" : "MISSED");
        }
        return t;
    }

    /**
     * The issue's expiry goal: every iteration of ExpiryBenchmark under 1.2x its window (1.2 s for 1 s), and the
     * median no worse than the best peer's median.
     */
    private static void expiryTargets(Figures f, Table t) {
        JmhRow ours = JmhRow.find(f.jmh, Figures.EXPIRY, 1, "peer", Peer.TIMEWHEEL.id());
        if (ours == null) {
            t.row("expiry of 1M timers due within 1 s: every iteration < 1.2 s", "-", "not measured (full run)");
            t.row("expiry: median no worse than the best peer's", "-", "not measured (full run)");
            return;
        }
        String timers = ours.param("timers") == null ? "?" : count(Integer.parseInt(ours.param("timers")));
        double window = ours.param("windowMs") == null ? 1000 : Double.parseDouble(ours.param("windowMs"));
        double slowest = Double.isNaN(ours.max) ? ours.score : ours.max;
        t.row(String.format("expiry of %s timers due within %.0f ms: every iteration < %.0f ms", timers, window, 1.2 * window),
                String.format("slowest %.0f ms of %d iteration(s), median %.0f", slowest, ours.iterations, median(ours)),
                slowest < 1.2 * window ? "met" : "MISSED");
        Peer best = null;
        double bestMedian = Double.NaN;
        for (Peer p : f.peers) {
            JmhRow r = p == Peer.TIMEWHEEL ? null : JmhRow.find(f.jmh, Figures.EXPIRY, 1, "peer", p.id());
            if (r != null && (best == null || median(r) < bestMedian)) {
                best = p;
                bestMedian = median(r);
            }
        }
        t.row("expiry: median no worse than the best peer's",
                best == null ? "-" : String.format("%.0f ms vs %s %.0f ms", median(ours), best.id(), bestMedian),
                best == null ? "not measured" : median(ours) <= bestMedian ? "met" : "MISSED");
    }

    private static double median(JmhRow r) {
        return Double.isNaN(r.median) ? r.score : r.median;
    }

    private static String ratio(double a, double b) {
        return Double.isNaN(a) || Double.isNaN(b) ? "-" : String.format("%.2fx", a / b);
    }

    private static String verdict(boolean ok, double a, double b) {
        return Double.isNaN(a) || Double.isNaN(b) ? "not measured" : ok ? "met" : "MISSED";
    }

    public static String fmt(double v) {
        return Double.isNaN(v) ? "-" : String.format("%.2f", v);
    }
}
