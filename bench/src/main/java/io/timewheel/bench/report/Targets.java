package io.timewheel.bench.report;

import io.timewheel.bench.harness.BurstLatenessHarness;
import io.timewheel.bench.harness.IdleHarness;
import io.timewheel.bench.harness.LatenessHarness;
import io.timewheel.bench.harness.LoadedLatenessHarness;
import io.timewheel.bench.harness.MemoryHarness;
import io.timewheel.bench.peer.Peer;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The targets: throughput and its scaling against the peers, expiry, lateness against STPE (in rounds, under load,
 * in bursts, and the punctuality goals of {@link Punctuality}), memory, idle cost and threads, each checked against
 * one run's figures: met, missed or not measured. Pure: reads a {@link Figures}, runs nothing; the quick and full
 * runs and the report print its table.
 */
public final class Targets {

    /*
     * Implementation notes.
     *
     * The rule: a figure that is missing reads "not measured", never "met". A figure is missing when
     * its JMH row is absent (JmhRuns leaves out a combination whose fork failed) or NaN, when a harness
     * produced no result, and when a harness produced one that does not measure the thing (JOL's graph
     * without the timers, a histogram with nothing recorded).
     *
     * "Best of" targets compare timewheel with the best of a fixed set of peers: every peer of that
     * set that runs on this JDK must have a figure, else the verdict is not measured and names the
     * missing peers. A peer that does not run on this JDK (FJP before 25) is not required and the
     * measured text says so. The set does not depend on --peers: a run that left a peer out has not
     * measured a "best of" target.
     *
     * A timer that never ran is never met: for zero-early and lost-timer targets it is MISSED (the
     * contract broke); for a percentile target it is MISSED when it is timewheel's (a lost timer is
     * later than any percentile) and not measured when it is the reference's (its percentile leaves
     * out the timers it lost, so the figure we compare with is not valid).
     *
     * Combining verdicts (Verdict.and): MISSED wins over NOT_MEASURED, which wins over MET: a target
     * missed on one figure is missed whatever the others say, and one met on the figures there are
     * but lacking one is not measured.
     */

    /** The peers the scaling targets take the best of (each required where it runs on this JDK). */
    public static final List<Peer> SCALING_PEERS = List.of(Peer.NETTY_1MS, Peer.NETTY_100MS, Peer.FJP);

    static final double MAX_BYTES_PER_TIMER = 60;

    private Targets() {
    }

    /** The widest the target and verdict columns wrap at in the text form: the measured figures get the rest. */
    static final int TARGET_WIDTH = 44, VERDICT_WIDTH = 24;

    /**
     * The targets table, each target's verdict beside it, with, last, this run's A/A control of the bursts (a figure,
     * no goal).
     */
    public static Table table(Figures f) {
        return table(of(f), f.bursts);
    }

    static Table table(List<Target> targets, List<BurstLatenessHarness.Result> bursts) {
        Table t = new Table("target", "verdict", "measured").left(1, 2).maxWidth(0, TARGET_WIDTH).maxWidth(1, VERDICT_WIDTH);
        for (Target target : targets) {
            t.row(target.goal, target.verdictText(), target.measured);
        }
        BurstLatenessHarness.Result control = null;
        for (BurstLatenessHarness.Result r : bursts) {
            control = r.config.control ? r : control;
        }
        if (control != null) {
            t.row("bursts under load: this run's noise (A/A control, STPE vs STPE, default row)", "(no goal)",
                    String.format("p50 %s, p99 %s (paired %s / %s)", Bursts.ratio(control.p50Ratio()), Bursts.ratio(control.p99Ratio()),
                            Bursts.ratio(control.pairedP50Ratio()), Bursts.ratio(control.pairedP99Ratio())));
        }
        return t;
    }

    /** One line: how many targets were met, missed, not measured. */
    public static String summary(Figures f) {
        return summary(of(f));
    }

    /** "targets: all 12 met" only when every target was measured and met; else the three counts. */
    public static String summary(List<Target> targets) {
        int[] n = new int[Verdict.values().length];
        for (Target t : targets) {
            n[t.verdict.ordinal()]++;
        }
        int met = n[Verdict.MET.ordinal()], missed = n[Verdict.MISSED.ordinal()], unmeasured = n[Verdict.NOT_MEASURED.ordinal()];
        return met > 0 && missed == 0 && unmeasured == 0 ? "targets: all " + met + " met"
                : String.format("targets: %d met, %d missed, %d not measured (of %d)", met, missed, unmeasured, targets.size());
    }

    /** Every target: throughput, expiry, lateness, bursts, punctuality, memory, idle, threads. */
    public static List<Target> of(Figures f) {
        Peer us = Peer.TIMEWHEEL;
        int pending = f.largePending();
        String at = "@" + Headline.count(pending);
        List<Target> t = new ArrayList<>();
        double ours = f.scheduleCancel(us, pending, 1);
        double roc = f.scheduleCancel(Peer.STPE_ROC, pending, 1);
        String goal = "schedule+cancel " + at + " >= 10x STPE(removeOnCancel=true)";
        Verdict v = Verdict.atLeast(ours / roc, 10);
        t.add(new Target(goal, v == Verdict.NOT_MEASURED ? "-"
                : ratio(ours, roc) + " (" + Headline.fmt(ours) + " vs " + Headline.fmt(roc) + " Mops/s)", v,
                v == Verdict.NOT_MEASURED ? noFigure(names(ours, us.id(), roc, Peer.STPE_ROC.id())) : ""));
        for (int threads : new int[] {1, 2, 4}) { // the scaling goal: 1.5x with one producer, 2x with 2 and with 4
            String who = threads == 1 ? "1 producer" : threads + " producers";
            goal = "schedule+cancel " + at + ", " + who + " >= " + (threads == 1 ? "1.5x" : "2x") + " the best of Netty and FJP";
            if (f.quick && threads > 2) {
                t.add(Target.notMeasured(goal, "full run only"));
                continue;
            }
            int n = threads;
            Best best = best(required(SCALING_PEERS), p -> f.scheduleCancel(p, pending, n), true);
            t.add(versusBest(goal, f.scheduleCancel(us, pending, threads), best, threads == 1 ? 1.5 : 2, true, "Mops/s",
                    Peer.FJP.isAvailable() ? "" : " (no FJP before Java 25)"));
        }
        double zero = f.scheduleCancel(us, 0, 1);
        goal = "cost per op at " + Headline.count(pending) + " pending within 1.2x of 0 pending";
        v = Verdict.atMost(zero / ours, 1.2);
        t.add(new Target(goal, Double.isNaN(zero / ours) ? "-"
                : String.format("%.2fx (%s Mops/s at 0, %s at %s)", zero / ours, Headline.fmt(zero), Headline.fmt(ours), Headline.count(pending)),
                v, v == Verdict.NOT_MEASURED ? noFigure(names(zero, us.id() + " @0", ours, us.id() + " " + at)) : ""));
        expiry(f, t);
        JmhRow advance = JmhRow.find(f.jmh, "WheelBenchmark.advance", 1, "impl", "timewheel", "pending", Integer.toString(pending));
        goal = "TimerWheel expiry <= 25 ns per timer (WheelBenchmark.advance, " + Headline.count(pending) + " pending)";
        v = Verdict.atMost(advance == null ? Double.NaN : advance.score, 25);
        t.add(new Target(goal, advance == null ? "-" : String.format("%.1f ns per timer", advance.score), v,
                v == Verdict.NOT_MEASURED ? noFigure(List.of("WheelBenchmark.advance")) : ""));
        t.add(latenessP99(f.lateness.get(us), f.lateness.get(Peer.STPE), f.latenessRounds));
        goal = "lateness-under-load: probe p99 no worse than STPE's";
        t.add(f.quick ? Target.notMeasured(goal, "full run only") : loadedP99(goal, f.loadedLateness.get(us), f.loadedLateness.get(Peer.STPE)));
        LatenessHarness.Result late = f.lateness.get(us);
        t.add(late == null ? Target.notMeasured("zero early fires", noFigure(List.of("lateness")))
                : zeroEarly("zero early fires", late.timers, late.early, late.missing));
        bursts(f.bursts, t);
        t.addAll(Punctuality.targets(f));
        t.add(memory(f.memory.get(us)));
        IdleHarness.Result idle = f.idle(us, f.idleTimers);
        goal = "<= 1 wake-up/s idle with " + Headline.count(f.idleTimers) + " far timers";
        v = Verdict.atMost(idle == null || idle.wakeupsPerSecond < 0 ? Double.NaN : idle.wakeupsPerSecond, 1); // < 0: no /proc counts
        t.add(new Target(goal, idle == null ? "-" : String.format("%.2f /s, %.3f ms CPU/s", idle.wakeupsPerSecond, idle.cpuMillisPerSecond), v,
                v == Verdict.NOT_MEASURED ? noFigure(List.of(idle == null ? "idle" : "wake-ups")) : ""));
        int[] ourThreads = f.threads.get(us);
        int[] stpeThreads = f.threads.get(Peer.STPE);
        goal = "<= 1 thread added per JVM beyond STPE's";
        if (ourThreads == null || stpeThreads == null) {
            t.add(Target.notMeasured(goal, noFigure(absent(ourThreads, stpeThreads))));
        } else {
            int extra = Math.max(ourThreads[0] - stpeThreads[0], ourThreads[1] - stpeThreads[1]);
            t.add(new Target(goal, String.format("x1: %d vs %d, x10: %d vs %d", ourThreads[0], stpeThreads[0], ourThreads[1], stpeThreads[1]),
                    Verdict.atMost(extra, 1)));
        }
        return t;
    }

    /**
     * The expiry goal: every iteration of ExpiryBenchmark under 1.2x its window (1.2 s for 1 s), and the
     * median no worse than the best peer's median, over every peer that runs on this JDK.
     */
    private static void expiry(Figures f, List<Target> t) {
        JmhRow ours = JmhRow.find(f.jmh, Figures.EXPIRY, 1, "peer", Peer.TIMEWHEEL.id());
        String timers = ours == null || ours.param("timers") == null ? "1M" : Headline.count(Integer.parseInt(ours.param("timers")));
        double window = ours == null || ours.param("windowMs") == null ? 1000 : Double.parseDouble(ours.param("windowMs"));
        String goal = String.format("expiry of %s timers due within %.0f ms: every iteration < %.0f ms", timers, window, 1.2 * window);
        double slowest = ours == null ? Double.NaN : Double.isNaN(ours.max) ? ours.score : ours.max;
        Verdict v = Verdict.below(slowest, 1.2 * window);
        t.add(new Target(goal, ours == null ? "-" : String.format("slowest %.0f ms of %d iteration(s), median %.0f", slowest, ours.iterations,
                median(ours)), v, v == Verdict.NOT_MEASURED ? noFigure(List.of(Peer.TIMEWHEEL.id())) : ""));
        List<Peer> peers = new ArrayList<>(List.of(Peer.values()));
        peers.remove(Peer.TIMEWHEEL);
        Best best = best(required(peers), p -> median(JmhRow.find(f.jmh, Figures.EXPIRY, 1, "peer", p.id())), false);
        t.add(versusBest("expiry: median no worse than the best peer's", median(ours), best, 1, false, "ms", "")); // ratio <= 1
    }

    private static void bursts(List<BurstLatenessHarness.Result> bursts, List<Target> t) {
        if (bursts.isEmpty()) {
            t.add(Target.notMeasured("bursts under load", noFigure(List.of("lateness-burst"))));
            return;
        }
        BurstLatenessHarness.Result b = bursts.get(0);
        BurstLatenessHarness.Summary s = b.stpe(), w = b.timewheel();
        Verdict v = w.missing() > 0 ? Verdict.MISSED : Verdict.atMost(b.p50Ratio(), 1).and(Verdict.atMost(b.p99Ratio(), 1));
        t.add(new Target("bursts under load (" + b.config.name + " row): p50 and p99 no worse than STPE's",
                String.format("p50 %s vs %s us (%s), p99 %s vs %s us (%s)", Bursts.us(w.medianP50Micros()), Bursts.us(s.medianP50Micros()),
                        Bursts.ratio(b.p50Ratio()), Bursts.us(w.medianP99Micros()), Bursts.us(s.medianP99Micros()), Bursts.ratio(b.p99Ratio())),
                v, w.missing() > 0 ? w.missing() + " of timewheel's timers never ran" : v == Verdict.NOT_MEASURED ? "no ratio: no timer ran" : ""));
        int early = 0, timers = 0, missing = 0, met = 0, variants = 0;
        Verdict every = Verdict.MET, noneLater = Verdict.MET;
        List<String> later = new ArrayList<>();
        for (BurstLatenessHarness.Result r : bursts) {
            if (r.config.control) {
                continue; // STPE twice: not timewheel's figures
            }
            variants++;
            early += r.timewheel().early();
            timers += r.timewheel().timers();
            missing += r.timewheel().missing();
            Verdict goal = burstGoal(r);
            met += goal == Verdict.MET ? 1 : 0;
            every = every.and(goal);
            if (r.significantlyLater()) {
                later.add(r.config.name);
                noneLater = noneLater.and(Verdict.MISSED);
            } else if (!(Double.isFinite(r.p50Ratio()) && Double.isFinite(r.p99Ratio()))) {
                noneLater = noneLater.and(Verdict.NOT_MEASURED); // no pair of bursts to test
            }
        }
        t.add(zeroEarly("bursts under load: zero early fires" + (variants > 1 ? " (every variant)" : ""), timers, early, missing));
        if (variants > 1) {
            t.add(new Target("bursts under load: goal met in every variant", met + " of " + variants + " variants", every));
        }
        if (variants == 0) {
            noneLater = Verdict.NOT_MEASURED;
        }
        t.add(new Target("bursts under load: no variant later than STPE beyond noise (paired sign test, p < 0.05)",
                later.isEmpty() ? "none later of " + variants : "later: " + String.join(", ", later), noneLater));
    }

    /** One burst configuration against the bursts' goal: p50 and p99 no worse than STPE's, none early, none lost. */
    static Verdict burstGoal(BurstLatenessHarness.Result r) {
        if (r.timewheel().early() > 0 || r.timewheel().missing() > 0) {
            return Verdict.MISSED;
        }
        return Verdict.atMost(r.p50Ratio(), 1).and(Verdict.atMost(r.p99Ratio(), 1));
    }

    /** Zero early fires and no timer lost: MISSED for either, not measured without timers. */
    static Target zeroEarly(String goal, int timers, int early, int missing) {
        String measured = early + " early of " + timers + (missing > 0 ? ", " + missing + " never ran" : "");
        if (early > 0 || missing > 0) {
            return new Target(goal, measured, Verdict.MISSED, missing > 0 ? missing + " never ran" : "");
        }
        return timers <= 0 ? new Target(goal, measured, Verdict.NOT_MEASURED, "no timers") : new Target(goal, measured, Verdict.MET);
    }

    /** timewheel's p99 lateness no worse than STPE's, over the timers that ran, with every timer run. */
    static Target latenessP99(LatenessHarness.Result ours, LatenessHarness.Result stpe, int rounds) {
        String goal = "p99 lateness no worse than STPE's (median of " + rounds + " round(s))";
        if (ours == null || stpe == null) {
            return Target.notMeasured(goal, noFigure(absent(ours, stpe)));
        }
        double a = ours.percentileMillis(99), b = stpe.percentileMillis(99);
        String measured = String.format("%.3f ms vs %.3f ms", a, b);
        if (ours.missing > 0) {
            return new Target(goal, measured, Verdict.MISSED, ours.missing + " of timewheel's timers never ran");
        }
        if (stpe.missing > 0) {
            return new Target(goal, measured, Verdict.NOT_MEASURED, stpe.missing + " of STPE's timers never ran: its p99 leaves them out");
        }
        Verdict v = Verdict.atMost(a, b);
        return new Target(goal, measured, v, v == Verdict.NOT_MEASURED ? noFigure(names(a, Peer.TIMEWHEEL.id(), b, Peer.STPE.id())) : "");
    }

    /** timewheel's probe p99 under a schedule+cancel flood no worse than STPE's, every probe run. */
    static Target loadedP99(String goal, LoadedLatenessHarness.Result ours, LoadedLatenessHarness.Result stpe) {
        if (ours == null || stpe == null) {
            return Target.notMeasured(goal, noFigure(absent(ours, stpe)));
        }
        double a = ours.percentileMillis(99), b = stpe.percentileMillis(99);
        String measured = String.format("%.3f ms vs %.3f ms", a, b);
        if (ours.missed > 0) {
            return new Target(goal, measured, Verdict.MISSED, ours.missed + " probe(s) not run within 10 s");
        }
        Verdict v = Verdict.atMost(a, b);
        return new Target(goal, measured, v, v == Verdict.NOT_MEASURED ? noFigure(names(a, Peer.TIMEWHEEL.id(), b, Peer.STPE.id())) : "");
    }

    /** JOL's bytes per pending timer: not measured unless JOL's graph held the timers. */
    static Target memory(MemoryHarness.Result r) {
        String goal = "<= " + (int) MAX_BYTES_PER_TIMER + " bytes per pending timer";
        if (r == null) {
            return Target.notMeasured(goal, noFigure(List.of("memory")));
        }
        String measured = String.format("%.1f B (JOL, %.2f objects per timer, %,d timers)", r.jolBytesPerTimer, r.jolObjectsPerTimer, r.timers);
        return r.jolSawTimers() ? new Target(goal, measured, Verdict.atMost(r.jolBytesPerTimer, MAX_BYTES_PER_TIMER))
                : new Target(goal, measured, Verdict.NOT_MEASURED, "JOL did not see the timers");
    }

    /** The best figure among some peers, and the peers without one. */
    static final class Best {
        final Peer peer;
        final double figure;
        final List<Peer> missing;

        Best(Peer peer, double figure, List<Peer> missing) {
            this.peer = peer;
            this.figure = figure;
            this.missing = missing;
        }
    }

    /** The best of {@code peers}' figures (highest or lowest); a NaN or infinite figure counts as missing. */
    static Best best(List<Peer> peers, ToDoubleFunction<Peer> figure, boolean higherIsBetter) {
        Peer best = null;
        double top = Double.NaN;
        List<Peer> missing = new ArrayList<>();
        for (Peer p : peers) {
            double v = figure.applyAsDouble(p);
            if (!Double.isFinite(v)) {
                missing.add(p);
            } else if (best == null || (higherIsBetter ? v > top : v < top)) {
                best = p;
                top = v;
            }
        }
        return new Best(best, top, missing);
    }

    /**
     * {@code mine} against the best peer: ratio mine / best at least {@code goal} (higher is better) or at most
     * it (lower is better). Not measured when {@code mine} or any required peer's figure is missing.
     */
    static Target versusBest(String goalText, double mine, Best best, double goal, boolean higherIsBetter, String unit, String note) {
        String measured = best.peer == null || !Double.isFinite(mine) ? "-"
                : ratio(mine, best.figure) + " (" + figure(mine) + " vs " + best.peer.id() + " " + figure(best.figure) + " " + unit
                + (best.missing.isEmpty() ? "" : ", the best of those measured") + ")";
        List<String> missing = new ArrayList<>();
        if (!Double.isFinite(mine)) {
            missing.add(Peer.TIMEWHEEL.id());
        }
        for (Peer p : best.missing) {
            missing.add(p.id());
        }
        if (!missing.isEmpty() || best.peer == null) {
            return new Target(goalText, measured + note, Verdict.NOT_MEASURED, missing.isEmpty() ? "no peer to compare with" : noFigure(missing));
        }
        double r = mine / best.figure;
        return new Target(goalText, measured + note, higherIsBetter ? Verdict.atLeast(r, goal) : Verdict.atMost(r, goal));
    }

    /** Those of {@code peers} that run on this JDK, the opt-in ones (Peer.optIn) aside: no target needs them. */
    static List<Peer> required(List<Peer> peers) {
        List<Peer> list = new ArrayList<>();
        for (Peer p : peers) {
            if (p.isAvailable() && !p.optIn()) {
                list.add(p);
            }
        }
        return list;
    }

    /** The names of timewheel and STPE, those whose result is null. */
    private static List<String> absent(Object ours, Object stpe) {
        List<String> names = new ArrayList<>();
        if (ours == null) {
            names.add(Peer.TIMEWHEEL.id());
        }
        if (stpe == null) {
            names.add(Peer.STPE.id());
        }
        return names;
    }

    private static List<String> names(double a, String nameA, double b, String nameB) {
        List<String> names = new ArrayList<>();
        if (!Double.isFinite(a)) {
            names.add(nameA);
        }
        if (!Double.isFinite(b)) {
            names.add(nameB);
        }
        return names;
    }

    static String noFigure(List<String> what) {
        return what.isEmpty() ? "" : "no figure for " + String.join(", ", what);
    }

    private static double median(JmhRow r) {
        return r == null ? Double.NaN : Double.isNaN(r.median) ? r.score : r.median;
    }

    /** 1174 (ms), 14.62 (Mops/s). */
    private static String figure(double v) {
        return String.format(Math.abs(v) >= 100 ? "%.0f" : "%.2f", v);
    }

    private static String ratio(double a, double b) {
        return Double.isNaN(a) || Double.isNaN(b) ? "-" : String.format("%.2fx", a / b);
    }
}
