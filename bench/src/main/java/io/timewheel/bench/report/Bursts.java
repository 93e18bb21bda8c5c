package io.timewheel.bench.report;

import io.timewheel.bench.harness.BurstLatenessHarness;

import java.util.List;

/** The table of {@code lateness-burst} results: one row per configuration, STPE and timewheel side by side. */
public final class Bursts {

    /** How to read the two tables, for the console and the report. */
    public static final String NOTE = "Microseconds late. p50 and p99: the median over bursts of each burst's p50 / p99;"
            + " max: the latest timer of all bursts. Ratio: timewheel / STPE (above 1x: timewheel later). Goal:"
            + " timewheel's p50 and p99 no worse than STPE's (ratio <= 1), zero early fires, every timer run. Paired: a"
            + " cross-check, the median over slots of timewheel's figure over STPE's in the same slot (their bursts run"
            + " next to each other, so other work on the machine falls on both). A/A control: the default row with a second"
            + " STPE in timewheel's column; its ratios are what this run's noise alone gives, not a goal. Later in pairs: of"
            + " the pairs of bursts run next to each other whose figures differ, how many had timewheel's later, and the"
            + " one-sided p-value of that many if neither kind were later (a sign test; below 0.05: later beyond this run's noise).";

    private Bursts() {
    }

    /** The lateness of each configuration, STPE and timewheel side by side, and its verdict. */
    public static Table table(List<BurstLatenessHarness.Result> results) {
        Table t = new Table("variant", "stpe p50", "timewheel p50", "ratio", "stpe p99", "timewheel p99", "ratio", "stpe max",
                "timewheel max", "goal").left(9);
        for (BurstLatenessHarness.Result r : results) {
            BurstLatenessHarness.Summary s = r.stpe(), w = r.timewheel();
            t.row(r.config.name, us(s.medianP50Micros()), us(w.medianP50Micros()), ratio(r.p50Ratio()), us(s.medianP99Micros()),
                    us(w.medianP99Micros()), ratio(r.p99Ratio()), us(s.maxMicros()), us(w.maxMicros()), r.verdict());
        }
        return t;
    }

    /** The checks of each configuration: early fires and timers that never ran, the paired ratios, the sign test. */
    public static Table checks(List<BurstLatenessHarness.Result> results) {
        Table t = new Table("variant", "early stpe / timewheel", "paired p50 / p99", "later in pairs, p50 (sign test)",
                "later in pairs, p99 (sign test)");
        for (BurstLatenessHarness.Result r : results) {
            BurstLatenessHarness.Summary s = r.stpe(), w = r.timewheel();
            t.row(r.config.name, s.early() + " / " + w.early() + (s.missing() + w.missing() > 0
                            ? " (never ran: " + s.missing() + " / " + w.missing() + ")" : ""),
                    ratio(r.pairedP50Ratio()) + " / " + ratio(r.pairedP99Ratio()), sign(r.signTest(true)), sign(r.signTest(false)));
        }
        return t;
    }

    /** "later of pairs (p-value)". */
    static String sign(double[] test) {
        return String.format("%d of %d (p %.2f)", (int) test[0], (int) test[1], test[2]);
    }

    static String us(double v) {
        return Double.isNaN(v) ? "-" : v >= 1000 ? String.format("%.0f", v) : String.format("%.1f", v);
    }

    static String ratio(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "-" : String.format("%.2fx", v);
    }
}
