package io.timewheel.bench.harness;

import io.timewheel.bench.harness.BurstLatenessHarness.Burst;
import io.timewheel.bench.harness.BurstLatenessHarness.Config;
import io.timewheel.bench.harness.BurstLatenessHarness.Kind;
import io.timewheel.bench.harness.BurstLatenessHarness.Result;
import io.timewheel.bench.harness.BurstLatenessHarness.Summary;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The arithmetic of lateness-burst on made-up start times: nothing here runs a timer or reads a clock. */
class BurstLatenessHarnessTest {

    @Test
    void burst_percentilesAreNearestRank() {
        int n = 100;
        long[] deadlines = new long[n];
        long[] starts = new long[n];
        for (int i = 0; i < n; i++) {
            deadlines[i] = 1_000 * i;
            starts[i] = 1_000 * i + (n - i); // lateness n..1, in reverse order
        }
        Burst b = Burst.of(Kind.STPE, 0, 0, deadlines, starts);
        assertEquals(50, b.p50);
        assertEquals(99, b.p99);
        assertEquals(100, b.max);
        assertEquals(0, b.early);
        assertEquals(0, b.missing);
        assertEquals(n, b.timers);
    }

    @Test
    void burst_countsEarlyFiresAndTimersThatNeverRan() {
        long[] deadlines = {100, 100, 100, 100, 100};
        long[] starts = {90, 99, 150, Long.MIN_VALUE, 300};
        Burst b = Burst.of(Kind.TIMEWHEEL, 3, 2, deadlines, starts);
        assertEquals(2, b.early);
        assertEquals(10, b.worstEarly);
        assertEquals(1, b.missing);
        assertEquals(-1, b.p50); // of -10, -1, 50, 200: the 2nd
        assertEquals(200, b.p99);
        assertEquals(200, b.max);
        assertEquals(3, b.index);
        assertEquals(2, b.slot);
    }

    @Test
    void burst_noTimerRan_allMissing_andLeftOutOfTheMedians() {
        long[] starts = new long[4];
        Arrays.fill(starts, Long.MIN_VALUE);
        Burst none = Burst.of(Kind.STPE, 0, 0, new long[4], starts);
        assertEquals(4, none.missing);
        Summary s = new Summary(Kind.STPE);
        s.bursts.add(none);
        s.bursts.add(Burst.of(Kind.STPE, 1, 1, new long[] {0}, new long[] {7_000}));
        assertEquals(7.0, s.medianP50Micros());
        assertEquals(7.0, s.maxMicros());
        assertEquals(4, s.missing());
        assertEquals(5, s.timers());
    }

    @Test
    void summary_takesTheMedianOverBursts() {
        Summary s = summary(Kind.STPE, 3_000, 1_000, 100_000);
        assertEquals(3.0, s.medianP50Micros()); // odd count: the middle one, not the mean
        assertEquals(100.0, s.maxMicros());
        s.bursts.add(one(Kind.STPE, 5_000));
        assertEquals(4.0, s.medianP50Micros()); // even count: the mean of the two middle ones
        assertEquals(Double.NaN, new Summary(Kind.STPE).medianP50Micros());
        assertEquals(2.0, BurstLatenessHarness.Summary.median(new long[] {3, 1}));
    }

    @Test
    void result_goalMet_onlyWhenNoWorseAndNeverEarly() {
        Result better = result(summary(Kind.STPE, 40_000, 40_000), summary(Kind.TIMEWHEEL, 30_000, 40_000));
        assertEquals(0.875, better.p50Ratio(), 1e-9); // median of 30 and 40 us over 40 us
        assertTrue(better.goalMet());
        assertEquals("met", better.verdict());

        Result worse = result(summary(Kind.STPE, 40_000), summary(Kind.TIMEWHEEL, 400_000));
        assertFalse(worse.goalMet());
        assertEquals("MISSED (p50, p99)", worse.verdict());

        Summary early = new Summary(Kind.TIMEWHEEL);
        early.bursts.add(Burst.of(Kind.TIMEWHEEL, 0, 0, new long[] {100, 100}, new long[] {90, 110}));
        Result wasEarly = result(summary(Kind.STPE, 1_000_000), early);
        assertFalse(wasEarly.goalMet());
        assertEquals("MISSED (1 early)", wasEarly.verdict());
    }

    @Test
    void result_withoutARatio_isNotMeasured_unlessATimerWasLost() {
        // no burst on either kind: no median, no ratio, and no miss either ("MISSED (p50, p99)" would be a miss nobody measured)
        Result none = result(new Summary(Kind.STPE), new Summary(Kind.TIMEWHEEL));
        assertFalse(none.goalMet());
        assertEquals("not measured (no ratio)", none.verdict());
        Summary lost = new Summary(Kind.TIMEWHEEL);
        lost.bursts.add(Burst.of(Kind.TIMEWHEEL, 0, 0, new long[2], new long[] {Long.MIN_VALUE, Long.MIN_VALUE}));
        assertEquals("MISSED (2 never ran)", result(summary(Kind.STPE, 1_000), lost).verdict());
    }

    @Test
    void result_pairedRatio_isTheMedianOfSameSlotRatios() {
        // slot by slot: 2x, 1x, 10x, 0.5x (and a pair left out: STPE's burst had no timer run)
        Summary stpe = summary(Kind.STPE, 100, 100, 100, 100);
        Summary wheel = summary(Kind.TIMEWHEEL, 200, 100, 1_000, 50, 7);
        long[] never = {Long.MIN_VALUE};
        stpe.bursts.add(Burst.of(Kind.STPE, 4, 4, new long[1], never));
        Result r = result(stpe, wheel);
        assertEquals(1.5, r.pairedP50Ratio(), 1e-9); // the median of 0.5, 1, 2, 10
        assertEquals(1.5, r.pairedP99Ratio(), 1e-9);
        assertEquals(Double.NaN, result(summary(Kind.STPE, 0), summary(Kind.TIMEWHEEL, 5)).pairedP50Ratio());
    }

    @Test
    void config_overlapsOnlyWhenTheGapIsShorterThanTheLatestDeadline() {
        Config c = Config.defaults();
        assertFalse(c.overlapping());
        assertEquals(1, c.burstsPerSlot());
        assertFalse(c.gapMs(53).overlapping());
        Config overlap = c.gapMs(10); // due 47.5..52.5 ms: six bursts in flight at once
        assertTrue(overlap.overlapping());
        assertEquals(12, overlap.burstsPerSlot());
        assertEquals(5, overlap.train(5).burstsPerSlot());
        assertEquals(4, overlap.bursts(4).burstsPerSlot());
    }

    @Test
    void config_rejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> Config.defaults().deadline(2, 2)); // could be due at 0
        assertThrows(IllegalArgumentException.class, () -> Config.defaults().workers(0));
        assertThrows(IllegalArgumentException.class, () -> Config.defaults().bursts(0));
    }

    @Test
    void matrix_defaultRowFirst_thenOneChangeEach() {
        Config base = Config.defaults().gapMs(100);
        List<Config> m = BurstLatenessHarness.matrix(base);
        assertEquals(List.of("default", "4 workers", "3 executors", "work 1 us", "work 100 us", "overlapping", "no load", "A/A control"),
                m.stream().map(c -> c.name).toList());
        assertEquals(1, m.get(0).workers);
        assertEquals(4, m.get(1).workers);
        assertEquals(3, m.get(2).executors);
        assertEquals(100, m.get(4).workUs);
        assertTrue(m.get(5).overlapping());
        assertFalse(m.get(0).overlapping());
        assertEquals(0, m.get(6).load);
        // the control is the default row with STPE in both kinds' slots; no other row is a control
        assertTrue(m.get(7).control);
        assertEquals(m.get(0).describe() + "; A/A control: the timewheel column runs on a second STPE (this run's noise)",
                m.get(7).describe());
        assertEquals(1, m.stream().filter(c -> c.control).count());
    }

    @Test
    void binomialTail_isTheOneSidedSignTestPValue() {
        assertEquals(1.0, Result.binomialTail(0, 30), 1e-12);
        assertEquals(Math.pow(0.5, 30), Result.binomialTail(30, 30), 1e-15);
        assertEquals(0.5 + 184756 / Math.pow(2, 21), Result.binomialTail(10, 20), 1e-12); // (1 + C(20,10) / 2^20) / 2
        assertEquals(0.0214, Result.binomialTail(21, 30), 1e-4);
        assertEquals(0.0, Result.binomialTail(1, 0), 0.0);
    }

    @Test
    void signTest_countsThePairsWhereTimewheelWasLater_tiesLeftOut() {
        // six pairs: timewheel later in five, equal in one
        Result r = result(summary(Kind.STPE, 10, 10, 10, 10, 10, 10), summary(Kind.TIMEWHEEL, 11, 12, 13, 14, 15, 10));
        double[] t = r.signTest(true);
        assertEquals(5, (int) t[0]);
        assertEquals(5, (int) t[1]);
        assertEquals(Math.pow(0.5, 5), t[2], 1e-12);
        assertTrue(r.significantlyLater());
        Result even = result(summary(Kind.STPE, 10, 20, 10, 20), summary(Kind.TIMEWHEEL, 20, 10, 20, 10));
        assertEquals(2, (int) even.signTest(true)[0]);
        assertFalse(even.significantlyLater());
    }

    private static Burst one(Kind kind, long lateness) {
        return Burst.of(kind, 0, 0, new long[] {0}, new long[] {lateness});
    }

    private static Summary summary(Kind kind, long... latenessPerBurst) {
        Summary s = new Summary(kind);
        for (long l : latenessPerBurst) {
            s.bursts.add(one(kind, l));
        }
        return s;
    }

    private static Result result(Summary stpe, Summary timewheel) {
        Map<Kind, Summary> kinds = new EnumMap<>(Kind.class);
        kinds.put(Kind.STPE, stpe);
        kinds.put(Kind.TIMEWHEEL, timewheel);
        return new Result(Config.defaults(), kinds, 0);
    }
}
