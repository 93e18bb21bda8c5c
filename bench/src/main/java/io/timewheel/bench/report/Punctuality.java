package io.timewheel.bench.report;

import io.timewheel.bench.harness.BurstLatenessHarness;
import io.timewheel.bench.harness.PunctualityHarness;
import io.timewheel.bench.harness.PunctualityHarness.Round;
import io.timewheel.bench.harness.PunctualityHarness.Summary;
import io.timewheel.bench.peer.Peer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The punctuality goals, timewheel against the JDK's STPE in the same run: a cold JVM's first round, warm rounds,
 * and the tail of bursts under load. Their figures side by side and one {@link Target} per goal.
 * Pure: reads a {@link Figures}, runs nothing; {@link Targets#of} lists these targets with the others.
 */
public final class Punctuality {

    /*
     * Implementation notes.
     *
     * The goals:
     *   cold   a fresh JVM per launch, its first round of 20k timers (1-100 ms, one producer): timewheel's median
     *          over launches of the p50 and of the p99 no worse than STPE's; >= COLD_LAUNCHES launches each,
     *          alternating (PunctualityHarness.cold alternates).
     *   warm   over >= WARM_ROUNDS interleaved rounds (the first, cold round not counted): the median of the
     *          per-round p99 no worse than STPE's, and the worst round's max no worse than STPE's worst.
     *   tail   over >= TAIL_BURSTS bursts per kind of lateness-burst's default row (1 spinning thread): the bursts
     *          whose own p99 exceeds 1 ms, and 2 ms, no more than STPE's count + 2% of the bursts; the p95 over
     *          bursts of the per-burst p99 at most 1.2x STPE's. The same in each of three other rows (2 spinning
     *          threads, 3 executors, 4 workers: Figures.burstTailVariants), one target each; the full run measures
     *          them, quick only the default row.
     *
     * A run with fewer launches, rounds or bursts than the goal asks still gets a verdict from its figures, and the
     * verdict says it is a short-run estimate ("quick: 3 launches, goal asks 5"). As in Targets: a missing figure
     * is "not measured", never "met"; a timer of timewheel's that never ran or ran early makes the goal MISSED (a
     * lost timer is later than any percentile; an early one is a broken contract that would flatter the figures);
     * one of STPE's that never ran makes it "not measured" (its percentiles leave that timer out).
     *
     * "STPE's + 2% of the bursts" is compared in integers: ours / n <= stpe / m + 2 / 100 as
     * 100 * ours * m <= 100 * stpe * n + 2 * n * m, exact whatever the counts (n, m: each kind's bursts).
     */

    /** The goals' sizes: launches per kind (cold), counted rounds per kind (warm), bursts per kind (tail). */
    public static final int COLD_LAUNCHES = 5, WARM_ROUNDS = 10, TAIL_BURSTS = 150;
    /** The tail's thresholds on a burst's own p99: 1 ms and 2 ms. */
    static final long OVER_1_MS = 1_000_000, OVER_2_MS = 2_000_000;
    /** Timewheel's share of bursts over a threshold may exceed STPE's by this many percentage points. */
    static final int TAIL_SLACK_PERCENT = 2;
    /** Timewheel's p95 over bursts of the per-burst p99 may be this many times STPE's. */
    static final double TAIL_P95_FACTOR = 1.2;

    /** How to read the table, for the console and the report, with this run's sizes. */
    public static String note(Figures f) {
        BurstLatenessHarness.Config b = f.burstTail == null ? BurstLatenessHarness.Config.defaults() : f.burstTail.config;
        return String.format("Milliseconds late (callback start minus deadline). Cold: one round of %,d timers (random 1-%d ms,"
                + " one producer, one worker) in a fresh JVM per launch, the kinds' launches alternating; medians over launches."
                + " Warm: interleaved rounds of the same in one JVM, a System.gc() before each (no round collects an earlier"
                + " round's garbage), the first (cold) round not counted; the median of the per-round p99s and the worst"
                + " round's max. Bursts: lateness-burst's %s row (%,d timers due %d ms ± %s ms, %d us"
                + " callbacks, %d spinning thread(s)); per burst its own p99: how many bursts had it above 1 ms and 2 ms, and the"
                + " p95 over bursts of it (nearest rank). Goals (20k timers of 1-100 ms, the default row with 1 spinning"
                + " thread): cold p50 and p99, warm p99 and worst max no worse than STPE's; bursts over 1 ms and over 2 ms no more"
                + " than STPE's + %d%% of the bursts, the p95 of p99s at most %sx STPE's; the same tail goal in each variant row"
                + " listed (one thing changed from the default row: 2 spinning threads, 3 executors sharing the burst, or 4 workers;"
                + " a full run measures them, quick the default row only). A verdict from fewer launches, rounds or"
                + " bursts than the goal asks says so: an estimate, not the goal's measure.", f.punctualityTimers,
                f.punctualityMaxDelayMs, b.name, b.timers, b.deadlineMs, Bursts.us(b.jitterMs), b.workUs, b.load, TAIL_SLACK_PERCENT,
                TAIL_P95_FACTOR);
    }

    private Punctuality() {
    }

    /**
     * One kind's bursts reduced to the tail goal's figures: bursts measured, those whose p99 is over 1 ms / 2 ms, the
     * p95 of the per-burst p99s (ms); beside them, no goal of their own, the medians over bursts of the per-burst p50
     * and p99 (ms) and the bursts late as a whole (p50 over 1 ms).
     */
    record Tail(int bursts, int over1, int over2, double p95OfP99sMillis, double medianP50Millis, double medianP99Millis,
                int wholeLate, int early, int missing) {

        /** Tail figures alone (the medians NaN, none late as a whole). */
        Tail(int bursts, int over1, int over2, double p95OfP99sMillis, int early, int missing) {
            this(bursts, over1, over2, p95OfP99sMillis, Double.NaN, Double.NaN, 0, early, missing);
        }

        /**
         * From each burst's p50 and p99 (ns, the same bursts in the same order) over the timers that ran (bursts where
         * none ran left out), early fires and missing timers summed.
         */
        static Tail of(long[] p50Nanos, long[] p99Nanos, int early, int missing) {
            int over1 = 0, over2 = 0, wholeLate = 0;
            for (long p : p99Nanos) {
                over1 += p > OVER_1_MS ? 1 : 0;
                over2 += p > OVER_2_MS ? 1 : 0;
            }
            for (long p : p50Nanos) {
                wholeLate += p > OVER_1_MS ? 1 : 0;
            }
            return new Tail(p99Nanos.length, over1, over2, rank95(p99Nanos) / 1e6, median(p50Nanos) / 1e6, median(p99Nanos) / 1e6,
                    wholeLate, early, missing);
        }

        static Tail of(BurstLatenessHarness.Summary s) {
            List<BurstLatenessHarness.Burst> ran = s.bursts.stream().filter(b -> b.missing < b.timers).toList();
            return of(ran.stream().mapToLong(b -> b.p50).toArray(), ran.stream().mapToLong(b -> b.p99).toArray(), s.early(), s.missing());
        }

        /** The median (the mean of the middle two for an even count); NaN without values. */
        static double median(long[] values) {
            return PunctualityHarness.median(Arrays.stream(values).asDoubleStream().toArray());
        }

        /** Nearest-rank p95: the smallest value with at least 95% at or below it; NaN without values. */
        static double rank95(long[] values) {
            if (values.length == 0) {
                return Double.NaN;
            }
            long[] sorted = values.clone();
            Arrays.sort(sorted);
            int rank = (95 * sorted.length + 99) / 100; // ceil(0.95 n), 1-based
            return sorted[rank - 1];
        }

        String share(int over) {
            return bursts == 0 ? "-" : String.format("%d of %d (%.1f%%)", over, bursts, 100.0 * over / bursts);
        }
    }

    /** The targets from a run's figures: cold, warm, the tail in the default row, and the tail in each variant row run. */
    public static List<Target> targets(Figures f) {
        List<Target> targets = new ArrayList<>(defaultRowTargets(f));
        targets.addAll(variantTargets(f));
        return targets;
    }

    /** Cold, warm, and the tail in the default row. */
    private static List<Target> defaultRowTargets(Figures f) {
        return List.of(cold(summary(f.coldLaunches.get(Peer.TIMEWHEEL), 0), summary(f.coldLaunches.get(Peer.STPE), 0), f.quick),
                warm(summary(f.warmRounds.get(Peer.TIMEWHEEL), PunctualityHarness.WARM_SKIP),
                        summary(f.warmRounds.get(Peer.STPE), PunctualityHarness.WARM_SKIP), f.quick),
                tail(f.burstTail == null ? null : Tail.of(f.burstTail.timewheel()), f.burstTail == null ? null : Tail.of(f.burstTail.stpe()),
                        f.quick));
    }

    /** One tail target per variant row the run measured (none in quick): the default row's goal, in that row. */
    private static List<Target> variantTargets(Figures f) {
        List<Target> targets = new ArrayList<>();
        for (BurstLatenessHarness.Result r : f.burstTailVariants) {
            targets.add(tail(Tail.of(r.timewheel()), Tail.of(r.stpe()), f.quick, variant(r)));
        }
        return targets;
    }

    /** "2 spinning threads" of "2 spinning threads, tail". */
    private static String variant(BurstLatenessHarness.Result r) {
        String name = r.config.name;
        return name.endsWith(", tail") ? name.substring(0, name.length() - ", tail".length()) : name;
    }

    /** Cold: timewheel's median p50 and median p99 over launches no worse than STPE's. */
    static Target cold(Summary ours, Summary stpe, boolean quick) {
        String goal = "punctuality, cold: first-round p50 and p99 no worse than STPE's (medians of >= " + COLD_LAUNCHES
                + " launches)";
        if (ours == null || stpe == null || ours.rounds() == 0 || stpe.rounds() == 0) {
            return Target.notMeasured(goal, Targets.noFigure(absent(ours, stpe)));
        }
        String measured = String.format("median p50 %s vs %s ms, median p99 %s vs %s ms (%d vs %d launches)", ms(ours.medianP50()),
                ms(stpe.medianP50()), ms(ours.medianP99()), ms(stpe.medianP99()), ours.rounds(), stpe.rounds());
        Verdict p50 = Verdict.atMost(ours.medianP50(), stpe.medianP50()), p99 = Verdict.atMost(ours.medianP99(), stpe.medianP99());
        return verdict(goal, measured, ours.early(), ours.missing(), stpe.missing(), List.of(p50, p99), List.of("p50", "p99"),
                shortRun(quick, Math.min(ours.rounds(), stpe.rounds()), COLD_LAUNCHES, "launch", "launches"));
    }

    /** Warm: timewheel's median per-round p99 and worst round's max no worse than STPE's. */
    static Target warm(Summary ours, Summary stpe, boolean quick) {
        String goal = "punctuality, warm: median per-round p99 and worst max no worse than STPE's (>= " + WARM_ROUNDS
                + " rounds)";
        if (ours == null || stpe == null || ours.rounds() == 0 || stpe.rounds() == 0) {
            return Target.notMeasured(goal, Targets.noFigure(absent(ours, stpe)));
        }
        String measured = String.format("median p99 %s vs %s ms, worst max %s vs %s ms (%d vs %d rounds)", ms(ours.medianP99()),
                ms(stpe.medianP99()), ms(ours.worstMax()), ms(stpe.worstMax()), ours.rounds(), stpe.rounds());
        Verdict p99 = Verdict.atMost(ours.medianP99(), stpe.medianP99()), max = Verdict.atMost(ours.worstMax(), stpe.worstMax());
        return verdict(goal, measured, ours.early(), ours.missing(), stpe.missing(), List.of(p99, max), List.of("p99", "max"),
                shortRun(quick, Math.min(ours.rounds(), stpe.rounds()), WARM_ROUNDS, "round", "rounds"));
    }

    /** Tail: bursts over 1 ms and over 2 ms at most STPE's + 2% of the bursts; p95 of the p99s at most 1.2x STPE's. */
    static Target tail(Tail ours, Tail stpe, boolean quick) {
        return tail(ours, stpe, quick, null);
    }

    /** The tail goal in a variant row ({@code variant} names it; null: the default row). */
    static Target tail(Tail ours, Tail stpe, boolean quick, String variant) {
        String goal = variant == null
                ? "punctuality, bursts' tail: bursts with p99 > 1 ms, > 2 ms <= STPE's + " + TAIL_SLACK_PERCENT
                        + "%; p95 of p99s <= " + TAIL_P95_FACTOR + "x STPE's (>= " + TAIL_BURSTS + " bursts)"
                : "punctuality, bursts' tail, " + variant + ": as in the default row";
        if (ours == null || stpe == null || ours.bursts() == 0 || stpe.bursts() == 0) {
            return Target.notMeasured(goal, Targets.noFigure(absentTail(ours, stpe)));
        }
        String of = ours.bursts() == stpe.bursts() ? "of " + ours.bursts() : "of " + ours.bursts() + " / " + stpe.bursts();
        String measured = String.format("p99 > 1 ms: %d vs %d, > 2 ms: %d vs %d (%s bursts); p95 of p99s %s vs %s ms (%s)",
                ours.over1(), stpe.over1(), ours.over2(), stpe.over2(), of, ms(ours.p95OfP99sMillis()), ms(stpe.p95OfP99sMillis()),
                Bursts.ratio(ours.p95OfP99sMillis() / stpe.p95OfP99sMillis()));
        Verdict over1 = atMostPlusSlack(ours.over1(), ours.bursts(), stpe.over1(), stpe.bursts());
        Verdict over2 = atMostPlusSlack(ours.over2(), ours.bursts(), stpe.over2(), stpe.bursts());
        Verdict p95 = Verdict.atMost(ours.p95OfP99sMillis(), TAIL_P95_FACTOR * stpe.p95OfP99sMillis());
        return verdict(goal, measured, ours.early(), ours.missing(), stpe.missing(), List.of(over1, over2, p95),
                List.of("> 1 ms", "> 2 ms", "p95"), shortRun(quick, Math.min(ours.bursts(), stpe.bursts()), TAIL_BURSTS, "burst", "bursts"));
    }

    /** {@code ours} of {@code n} no more than {@code stpe} of {@code m} plus {@link #TAIL_SLACK_PERCENT} of the bursts. */
    static Verdict atMostPlusSlack(int ours, int n, int stpe, int m) {
        if (n <= 0 || m <= 0) {
            return Verdict.NOT_MEASURED;
        }
        return 100L * ours * m <= 100L * stpe * n + (long) TAIL_SLACK_PERCENT * n * m ? Verdict.MET : Verdict.MISSED;
    }

    /**
     * The target from its parts: MISSED when timewheel lost a timer or ran one early, not measured when STPE lost
     * one, else the parts combined; the parts missed are named, and a short run says so.
     */
    private static Target verdict(String goal, String measured, int early, int missing, int stpeMissing, List<Verdict> parts,
                                  List<String> names, String shortRun) {
        List<String> why = new ArrayList<>();
        Verdict v = Verdict.MET;
        if (missing > 0 || early > 0) {
            v = Verdict.MISSED;
            why.add(missing > 0 ? missing + " of timewheel's timers never ran" : early + " of timewheel's timers ran early");
        } else if (stpeMissing > 0) {
            v = Verdict.NOT_MEASURED;
            why.add(stpeMissing + " of STPE's timers never ran: its figures leave them out");
        } else {
            List<String> missed = new ArrayList<>();
            for (int i = 0; i < parts.size(); i++) {
                v = v.and(parts.get(i));
                if (parts.get(i) == Verdict.MISSED) {
                    missed.add(names.get(i));
                }
            }
            if (!missed.isEmpty()) {
                why.add(String.join(", ", missed));
            } else if (v == Verdict.NOT_MEASURED) {
                why.add("a figure is NaN");
            }
        }
        if (!shortRun.isEmpty()) {
            why.add(shortRun);
        }
        return new Target(goal, measured, v, String.join("; ", why));
    }

    /** "" when {@code n} reaches the goal's size, else "quick: 3 launches, goal asks 5" (a short-run estimate). */
    static String shortRun(boolean quick, int n, int goal, String one, String many) {
        return n >= goal ? "" : (quick ? "quick: " : "short run: ") + n + " " + (n == 1 ? one : many) + ", goal asks " + goal;
    }

    /** The figures side by side: timewheel, STPE, timewheel / STPE; a measure not run reads "-". */
    public static Table table(Figures f) {
        Table t = new Table("figure", "timewheel", "stpe", "timewheel / stpe");
        Summary cw = summary(f.coldLaunches.get(Peer.TIMEWHEEL), 0), cs = summary(f.coldLaunches.get(Peer.STPE), 0);
        rounds(t, "cold, " + count(cw, cs, "launch", "launches"), cw, cs, false);
        Summary ww = summary(f.warmRounds.get(Peer.TIMEWHEEL), PunctualityHarness.WARM_SKIP);
        Summary ws = summary(f.warmRounds.get(Peer.STPE), PunctualityHarness.WARM_SKIP);
        rounds(t, "warm, " + count(ww, ws, "round", "rounds"), ww, ws, true);
        Tail bw = f.burstTail == null ? null : Tail.of(f.burstTail.timewheel()), bs = f.burstTail == null ? null : Tail.of(f.burstTail.stpe());
        boolean both = bw != null && bs != null;
        String m = "bursts, " + (!both ? "-" : bw.bursts() == bs.bursts() ? Integer.toString(bw.bursts()) : bw.bursts() + " / " + bs.bursts())
                + " per kind: ";
        t.row(m + "median p50 over bursts, ms (no goal)", both ? ms(bw.medianP50Millis()) : "-", both ? ms(bs.medianP50Millis()) : "-",
                both ? Bursts.ratio(bw.medianP50Millis() / bs.medianP50Millis()) : "-");
        t.row(m + "median p99 over bursts, ms (no goal)", both ? ms(bw.medianP99Millis()) : "-", both ? ms(bs.medianP99Millis()) : "-",
                both ? Bursts.ratio(bw.medianP99Millis() / bs.medianP99Millis()) : "-");
        t.row(m + "bursts with p99 > 1 ms", both ? bw.share(bw.over1()) : "-", both ? bs.share(bs.over1()) : "-",
                both ? points(bw, bw.over1(), bs, bs.over1()) : "-");
        t.row(m + "bursts with p99 > 2 ms", both ? bw.share(bw.over2()) : "-", both ? bs.share(bs.over2()) : "-",
                both ? points(bw, bw.over2(), bs, bs.over2()) : "-");
        t.row(m + "p95 of per-burst p99s, ms", both ? ms(bw.p95OfP99sMillis()) : "-", both ? ms(bs.p95OfP99sMillis()) : "-",
                both ? Bursts.ratio(bw.p95OfP99sMillis() / bs.p95OfP99sMillis()) : "-");
        t.row(m + "late as a whole, p50 > 1 ms (no goal)", both ? bw.share(bw.wholeLate()) : "-", both ? bs.share(bs.wholeLate()) : "-",
                both ? points(bw, bw.wholeLate(), bs, bs.wholeLate()) : "-");
        t.row(m + "early / never ran", both ? bw.early() + " / " + bw.missing() : "-", both ? bs.early() + " / " + bs.missing() : "-", "");
        for (BurstLatenessHarness.Result r : f.burstTailVariants) {
            Tail vw = Tail.of(r.timewheel()), vs = Tail.of(r.stpe());
            String v = "bursts, " + variant(r) + ", " + (vw.bursts() == vs.bursts() ? Integer.toString(vw.bursts())
                    : vw.bursts() + " / " + vs.bursts()) + " per kind: ";
            t.row(v + "bursts with p99 > 1 ms", vw.share(vw.over1()), vs.share(vs.over1()), points(vw, vw.over1(), vs, vs.over1()));
            t.row(v + "bursts with p99 > 2 ms", vw.share(vw.over2()), vs.share(vs.over2()), points(vw, vw.over2(), vs, vs.over2()));
            t.row(v + "p95 of per-burst p99s, ms", ms(vw.p95OfP99sMillis()), ms(vs.p95OfP99sMillis()),
                    Bursts.ratio(vw.p95OfP99sMillis() / vs.p95OfP99sMillis()));
            t.row(v + "early / never ran", vw.early() + " / " + vw.missing(), vs.early() + " / " + vs.missing(), "");
        }
        return t;
    }

    private static void rounds(Table t, String measure, Summary ours, Summary stpe, boolean warm) {
        String m = measure + ": ";
        t.row(m + "median p50, ms" + (warm ? " (no goal)" : ""), cell(ours, Summary::medianP50), cell(stpe, Summary::medianP50),
                ratio(ours, stpe, Summary::medianP50));
        t.row(m + "median p99, ms", cell(ours, Summary::medianP99), cell(stpe, Summary::medianP99), ratio(ours, stpe, Summary::medianP99));
        t.row(m + "worst max, ms" + (warm ? "" : " (no goal)"), cell(ours, Summary::worstMax), cell(stpe, Summary::worstMax),
                ratio(ours, stpe, Summary::worstMax));
        t.row(m + "early / never ran", ours == null ? "-" : ours.early() + " / " + ours.missing(),
                stpe == null ? "-" : stpe.early() + " / " + stpe.missing(), "");
        if (!warm) {
            t.row(m + "median time to build the executor, ms (no goal)", cell(ours, Summary::medianCreate),
                    cell(stpe, Summary::medianCreate), ratio(ours, stpe, Summary::medianCreate));
        }
    }

    /** The percentage points by which timewheel's share of bursts exceeds STPE's, "+4.7 pts". */
    private static String points(Tail ours, int o, Tail stpe, int s) {
        return ours.bursts() == 0 || stpe.bursts() == 0 ? "-"
                : String.format("%+.1f pts", 100.0 * o / ours.bursts() - 100.0 * s / stpe.bursts());
    }

    /** "5 launches", "1 round", "9 / 10 rounds" (timewheel's / STPE's), "- launches" without figures. */
    private static String count(Summary ours, Summary stpe, String one, String many) {
        if (ours == null || stpe == null) {
            return "- " + many;
        }
        return ours.rounds() == stpe.rounds() ? ours.rounds() + " " + (ours.rounds() == 1 ? one : many)
                : ours.rounds() + " / " + stpe.rounds() + " " + many;
    }

    private static String cell(Summary s, java.util.function.ToDoubleFunction<Summary> figure) {
        return s == null || s.rounds() == 0 ? "-" : ms(figure.applyAsDouble(s));
    }

    private static String ratio(Summary ours, Summary stpe, java.util.function.ToDoubleFunction<Summary> figure) {
        return ours == null || stpe == null ? "-" : Bursts.ratio(figure.applyAsDouble(ours) / figure.applyAsDouble(stpe));
    }

    private static Summary summary(List<Round> rounds, int skip) {
        return rounds == null ? null : Summary.of(rounds, skip);
    }

    private static List<String> absent(Summary ours, Summary stpe) {
        List<String> names = new ArrayList<>();
        if (ours == null || ours.rounds() == 0) {
            names.add(Peer.TIMEWHEEL.id());
        }
        if (stpe == null || stpe.rounds() == 0) {
            names.add(Peer.STPE.id());
        }
        return names;
    }

    private static List<String> absentTail(Tail ours, Tail stpe) {
        List<String> names = new ArrayList<>();
        if (ours == null || ours.bursts() == 0) {
            names.add(Peer.TIMEWHEEL.id() + " bursts");
        }
        if (stpe == null || stpe.bursts() == 0) {
            names.add(Peer.STPE.id() + " bursts");
        }
        return names;
    }

    /** 0.052, 1.24, 15.6 (ms). */
    static String ms(double v) {
        return Double.isNaN(v) ? "-" : v >= 10 ? String.format("%.1f", v) : v >= 1 ? String.format("%.2f", v) : String.format("%.3f", v);
    }
}
