package io.timewheel.bench.report;

import io.timewheel.bench.harness.BurstFixtures;
import io.timewheel.bench.harness.BurstLatenessHarness;
import io.timewheel.bench.harness.PunctualityHarness;
import io.timewheel.bench.harness.PunctualityHarness.Round;
import io.timewheel.bench.harness.PunctualityHarness.Summary;
import io.timewheel.bench.peer.Peer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The punctuality verdicts on made-up figures: nothing here runs a timer. Cold and warm compare medians over
 * launches and rounds, the tail counts bursts over 1 ms and 2 ms against STPE's + 2% of the bursts and the p95 of the
 * per-burst p99s against 1.2x STPE's; a run shorter than the goal asks says so in its verdict.
 */
class PunctualityTest {

    private static final long MS = 1_000_000;

    @Test
    void summary_mediansOverRounds_worstMax_andWarmSkipsItsColdFirstRound() {
        List<Round> rounds = List.of(round(Peer.TIMEWHEEL, 50, 90, 99), round(Peer.TIMEWHEEL, 1, 10, 11),
                round(Peer.TIMEWHEEL, 3, 30, 31), round(Peer.TIMEWHEEL, 2, 20, 40), round(Peer.TIMEWHEEL, 4, 40, 41));
        Summary cold = Summary.of(rounds, 0);
        assertEquals(5, cold.rounds());
        assertEquals(3, cold.medianP50());
        assertEquals(30, cold.medianP99());
        assertEquals(99, cold.worstMax());
        Summary warm = Summary.of(rounds, PunctualityHarness.WARM_SKIP); // the first round (50 / 90 / 99) not counted
        assertEquals(4, warm.rounds());
        assertEquals(2.5, warm.medianP50());
        assertEquals(25, warm.medianP99());
        assertEquals(41, warm.worstMax());
        assertEquals(Double.NaN, Summary.of(rounds.subList(0, 1), 1).medianP99()); // nothing counted: no figure
    }

    @Test
    void cold_metWhenBothMediansAreNoWorse_missedNamesTheFigure() {
        Summary stpe = summary(5, 0.07, 5.0, 12);
        assertEquals("met", Punctuality.cold(summary(5, 0.07, 5.0, 30), stpe, false).verdictText()); // equal is no worse; max has no goal
        Target t = Punctuality.cold(summary(5, 0.08, 7.0, 10), stpe, false);
        assertEquals("MISSED (p50, p99)", t.verdictText());
        assertEquals("median p50 0.080 vs 0.070 ms, median p99 7.00 vs 5.00 ms (5 vs 5 launches)", t.measured);
        assertEquals("MISSED (p99)", Punctuality.cold(summary(5, 0.06, 7.0, 10), stpe, false).verdictText());
    }

    @Test
    void cold_fewerLaunchesThanTheGoal_isLabelledAShortRunEstimate() {
        Summary stpe = summary(3, 0.07, 5.0, 12);
        assertEquals("met (quick: 3 launches, goal asks 5)", Punctuality.cold(summary(3, 0.07, 4.0, 9), stpe, true).verdictText());
        assertEquals("MISSED (p99; quick: 3 launches, goal asks 5)", Punctuality.cold(summary(3, 0.07, 6.0, 9), stpe, true).verdictText());
        assertEquals("met (short run: 1 launch, goal asks 5)",
                Punctuality.cold(summary(1, 0.07, 4.0, 9), summary(1, 0.07, 5.0, 9), false).verdictText());
        assertEquals("", Punctuality.shortRun(true, Punctuality.COLD_LAUNCHES, Punctuality.COLD_LAUNCHES, "launch", "launches"));
    }

    @Test
    void warm_comparesTheMedianP99AndTheWorstMax() {
        Summary stpe = summary(10, 0.04, 0.5, 4.0);
        assertEquals("met", Punctuality.warm(summary(10, 9.0, 0.5, 4.0), stpe, false).verdictText()); // p50 has no warm goal
        assertEquals("MISSED (max)", Punctuality.warm(summary(10, 0.04, 0.4, 4.1), stpe, false).verdictText());
        assertEquals("MISSED (p99, max; quick: 9 rounds, goal asks 10)",
                Punctuality.warm(summary(9, 0.04, 1.2, 5), summary(9, 0.04, 0.5, 4.0), true).verdictText());
    }

    @Test
    void coldAndWarm_timewheelLostOrEarlyTimer_isMissed_stpesLostTimer_notMeasured_noFigure_notMeasured() {
        Summary stpe = summary(5, 0.07, 5.0, 12);
        assertEquals("MISSED (3 of timewheel's timers never ran)",
                Punctuality.cold(new Summary(5, 0.01, 1.0, 2, 0, 3), stpe, false).verdictText());
        assertEquals("MISSED (2 of timewheel's timers ran early)",
                Punctuality.warm(new Summary(10, 0.01, 0.1, 2, 2, 0), summary(10, 0.04, 0.5, 4.0), false).verdictText());
        assertEquals("not measured (4 of STPE's timers never ran: its figures leave them out)",
                Punctuality.cold(summary(5, 0.01, 1.0, 2), new Summary(5, 0.07, 5.0, 12, 0, 4), false).verdictText());
        assertEquals("not measured (no figure for timewheel, stpe)", Punctuality.cold(null, null, true).verdictText());
        assertEquals("not measured (no figure for stpe)", Punctuality.warm(summary(10, 0.04, 0.5, 4.0), summary(0, Double.NaN,
                Double.NaN, Double.NaN), false).verdictText());
        assertEquals("not measured (a figure is NaN)",
                Punctuality.warm(summary(10, 0.04, Double.NaN, 4.0), summary(10, 0.04, 0.5, 4.0), false).verdictText());
    }

    @Test
    void tail_countsBurstsStrictlyOverOneAndTwoMilliseconds() {
        Punctuality.Tail t = Punctuality.Tail.of(new long[] {10, 20, MS + 1, 30, 40}, new long[] {MS, MS + 1, 2 * MS, 2 * MS + 1, 10}, 0, 0);
        assertEquals(5, t.bursts());
        assertEquals(3, t.over1());
        assertEquals(1, t.over2());
        assertEquals(1, t.wholeLate()); // p50 over 1 ms: no goal, shown beside
        assertEquals("3 of 5 (60.0%)", t.share(t.over1()));
        assertEquals(30 / 1e6, t.medianP50Millis());
        assertEquals((MS + 1) / 1e6, t.medianP99Millis()); // the middle of 10, 1 ms, 1 ms + 1 ns, 2 ms, 2 ms + 1 ns
        assertEquals(1.5, Punctuality.Tail.median(new long[] {2, 1}));
    }

    @Test
    void tail_p95IsTheNearestRank() {
        assertEquals(143, Punctuality.Tail.rank95(LongStream.rangeClosed(1, 150).toArray())); // ceil(142.5)
        assertEquals(19, Punctuality.Tail.rank95(LongStream.rangeClosed(1, 20).toArray())); // 0.95 * 20 = 19 exactly
        assertEquals(20, Punctuality.Tail.rank95(LongStream.rangeClosed(1, 21).toArray())); // ceil(19.95)
        assertEquals(7, Punctuality.Tail.rank95(new long[] {7}));
        assertEquals(9, Punctuality.Tail.rank95(new long[] {9, 1, 5})); // unsorted input
        assertEquals(Double.NaN, Punctuality.Tail.rank95(new long[0]));
    }

    @Test
    void tail_overThresholds_atMostStpesCountPlusTwoPercentOfTheBursts() {
        assertEquals(Verdict.MET, Punctuality.atMostPlusSlack(8, 150, 5, 150)); // 8 <= 5 + 3
        assertEquals(Verdict.MISSED, Punctuality.atMostPlusSlack(9, 150, 5, 150));
        assertEquals(Verdict.MET, Punctuality.atMostPlusSlack(3, 150, 0, 150));
        assertEquals(Verdict.MET, Punctuality.atMostPlusSlack(3, 100, 1, 100)); // 3% <= 1% + 2%, exactly
        assertEquals(Verdict.MISSED, Punctuality.atMostPlusSlack(4, 100, 1, 100));
        assertEquals(Verdict.MET, Punctuality.atMostPlusSlack(6, 200, 1, 100)); // 3% <= 1% + 2% with unequal counts
        assertEquals(Verdict.MISSED, Punctuality.atMostPlusSlack(7, 200, 1, 100));
        assertEquals(Verdict.NOT_MEASURED, Punctuality.atMostPlusSlack(0, 0, 0, 150));
    }

    @Test
    void tail_p95AtMostOnePointTwoTimesStpes_andTheTargetNamesWhatMissed() {
        Punctuality.Tail stpe = tail(150, 5, 2, 1.0);
        assertEquals("met", Punctuality.tail(tail(150, 8, 5, 1.2), stpe, false).verdictText());
        Target t = Punctuality.tail(tail(150, 9, 5, 1.21), stpe, false);
        assertEquals("MISSED (> 1 ms, p95)", t.verdictText());
        assertEquals("p99 > 1 ms: 9 vs 5, > 2 ms: 5 vs 2 (of 150 bursts); p95 of p99s 1.21 vs 1.00 ms (1.21x)", t.measured);
        assertEquals("p99 > 1 ms: 9 vs 5, > 2 ms: 5 vs 2 (of 150 / 148 bursts); p95 of p99s 1.21 vs 1.00 ms (1.21x)",
                Punctuality.tail(tail(150, 9, 5, 1.21), tail(148, 5, 2, 1.0), false).measured);
        assertEquals("MISSED (> 2 ms)", Punctuality.tail(tail(150, 5, 6, 0.5), stpe, false).verdictText());
        assertEquals("met (quick: 60 bursts, goal asks 150)",
                Punctuality.tail(tail(60, 0, 0, 0.2), tail(60, 0, 0, 0.2), true).verdictText());
    }

    @Test
    void tail_lostTimersOrNoBursts() {
        Punctuality.Tail stpe = tail(150, 5, 2, 1.0);
        assertEquals("MISSED (1 of timewheel's timers never ran)",
                Punctuality.tail(new Punctuality.Tail(150, 0, 0, 0.1, 0, 1), stpe, false).verdictText());
        assertEquals("not measured (2 of STPE's timers never ran: its figures leave them out)",
                Punctuality.tail(tail(150, 0, 0, 0.1), new Punctuality.Tail(150, 5, 2, 1.0, 0, 2), false).verdictText());
        assertEquals("not measured (no figure for timewheel bursts)", Punctuality.tail(null, stpe, false).verdictText());
        assertEquals("not measured (no figure for stpe bursts)",
                Punctuality.tail(stpe, Punctuality.Tail.of(new long[0], new long[0], 0, 0), false).verdictText());
    }

    @Test
    void figures_withoutPunctuality_readNotMeasured_andTheTableShowsDashes() {
        Figures f = new Figures(Peer.available());
        List<Target> targets = Punctuality.targets(f);
        assertEquals(3, targets.size());
        for (Target t : targets) {
            assertEquals(Verdict.NOT_MEASURED, t.verdict, t.toString());
        }
        assertEquals(3, Targets.of(f).stream().filter(t -> t.goal.startsWith("punctuality")).count()); // listed with the others
        String table = Punctuality.table(f).text();
        assertTrue(table.contains("cold, - launches: median p99, ms") && table.contains("bursts, - per kind: bursts with p99 > 1 ms"), table);
    }

    @Test
    void figures_withRounds_giveTheColdAndWarmVerdicts() {
        Figures f = new Figures(Peer.available());
        f.quick = true;
        f.coldLaunches.put(Peer.TIMEWHEEL, rounds(Peer.TIMEWHEEL, 3, 0.1, 6.0));
        f.coldLaunches.put(Peer.STPE, rounds(Peer.STPE, 3, 0.1, 5.0));
        f.warmRounds.put(Peer.TIMEWHEEL, rounds(Peer.TIMEWHEEL, 11, 0.05, 0.4));
        f.warmRounds.put(Peer.STPE, rounds(Peer.STPE, 11, 0.05, 0.5));
        List<Target> t = Punctuality.targets(f);
        assertEquals("MISSED (p99; quick: 3 launches, goal asks 5)", t.get(0).verdictText());
        assertEquals("met", t.get(1).verdictText()); // 10 rounds counted: the goal's size
        assertEquals("not measured (no figure for timewheel bursts, stpe bursts)", t.get(2).verdictText());
        String table = Punctuality.table(f).text();
        assertTrue(table.contains("cold, 3 launches: median p99, ms") && table.contains("warm, 10 rounds: worst max, ms"), table);
    }

    @Test
    void variantRows_eachGetTheTailGoal_namedForTheRow_andRowsInTheTable() {
        Figures f = new Figures(Peer.available());
        BurstLatenessHarness.Config base = BurstLatenessHarness.Config.defaults();
        f.burstTailVariants = List.of(
                BurstFixtures.result(base.named("2 spinning threads, tail").load(2), p99s(150, 3), p99s(150, 3)),
                BurstFixtures.result(base.named("3 executors, tail").executors(3), p99s(150, 30), p99s(150, 3)));
        List<Target> t = Punctuality.targets(f);
        assertEquals(5, t.size()); // cold, warm, the default row's tail, one per variant row
        assertEquals("punctuality, bursts' tail, 2 spinning threads: as in the default row", t.get(3).goal);
        assertEquals("met", t.get(3).verdictText());
        assertEquals("punctuality, bursts' tail, 3 executors: as in the default row", t.get(4).goal);
        assertEquals("MISSED (> 1 ms, > 2 ms, p95)", t.get(4).verdictText()); // 20% of bursts over 2 ms against 2%
        assertEquals(5, Targets.of(f).stream().filter(x -> x.goal.startsWith("punctuality")).count());
        String table = Punctuality.table(f).text();
        assertTrue(table.contains("bursts, 3 executors, 150 per kind: bursts with p99 > 1 ms") && table.contains("30 of 150 (20.0%)"),
                table);
    }

    // ---- made-up figures

    /** {@code n} bursts' p99s: {@code late} of them 2.5 ms, the others 0.1 ms. */
    private static long[] p99s(int n, int late) {
        return LongStream.range(0, n).map(i -> i < late ? 2_500_000L : 100_000L).toArray();
    }

    private static Round round(Peer p, double p50, double p99, double max) {
        return new Round(p, p50, p99, max, 0, 0);
    }

    /** {@code n} rounds, each with these p50 and p99 and a max of twice the p99. */
    private static List<Round> rounds(Peer p, int n, double p50, double p99) {
        List<Round> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(round(p, p50, p99, 2 * p99));
        }
        return list;
    }

    private static Summary summary(int rounds, double p50, double p99, double max) {
        return new Summary(rounds, p50, p99, max, 0, 0);
    }

    private static Punctuality.Tail tail(int bursts, int over1, int over2, double p95Millis) {
        return new Punctuality.Tail(bursts, over1, over2, p95Millis, 0, 0);
    }
}
