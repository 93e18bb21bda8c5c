package io.timewheel.bench.report;

import io.timewheel.bench.harness.IdleHarness;
import io.timewheel.bench.harness.LatenessHarness;
import io.timewheel.bench.harness.MemoryHarness;
import io.timewheel.bench.peer.Peer;

/** The headline table: timewheel beside every peer, with ratios to timewheel (the targets: {@link Targets}). */
public final class Headline {

    public static final String RATIO_NOTE = "In brackets: the peer's figure divided by timewheel's (throughput: below 1x means"
            + " slower than timewheel; lateness, bytes, wake-ups: above 1x means more than timewheel).";

    /** Beside a peer's bytes per timer where JOL cannot reach its timers: the figure is the heap's growth. */
    static final String HEAP_MARK = "*";

    /** How to read the table: the ratios and, where a figure is the heap's growth, the mark. */
    public static String note(Figures f) {
        for (MemoryHarness.Result m : f.memory.values()) {
            if (!m.jolSawTimers()) {
                return RATIO_NOTE + " " + HEAP_MARK + " Bytes per timer from the heap's growth: JOL cannot reach this peer's"
                        + " timers.";
            }
        }
        return RATIO_NOTE;
    }

    private Headline() {
    }

    public static Table table(Figures f) {
        Peer us = Peer.TIMEWHEEL;
        int pending = f.largePending();
        double ourThroughput = f.scheduleCancel(us, pending, 1);
        LatenessHarness.Result ourLate = f.lateness.get(us);
        MemoryHarness.Result ourMem = f.memory.get(us);
        IdleHarness.Result ourIdle = f.idle(us, f.idleTimers);
        Table t = new Table("peer", "schedule + cancel @" + count(pending) + " pending, Mops/s", "lateness p50 ms", "p99 ms", "max ms", "early fires",
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
                    mem == null ? "-" : cell(mem.bytesPerTimer(), ourMem == null ? Double.NaN : ourMem.bytesPerTimer(),
                            "%.1f" + (mem.jolSawTimers() ? "" : HEAP_MARK), p == us),
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

    public static String fmt(double v) {
        return Double.isNaN(v) ? "-" : String.format("%.2f", v);
    }
}
