package io.timewheel.bench.report;

import io.timewheel.bench.harness.LatenessHarness;
import io.timewheel.bench.harness.MemoryHarness;
import io.timewheel.bench.peer.Peer;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The targets' verdicts on made-up figures: nothing here runs JMH or a timer. The rule under test: a missing
 * figure reads "not measured", never "met"; a timer that never ran is never met.
 */
class TargetsTest {

    private static final int M = 1_000_000;

    @Test
    void verdict_missedWinsOverNotMeasured_whichWinsOverMet() {
        assertEquals(Verdict.MET, Verdict.MET.and(Verdict.MET));
        assertEquals(Verdict.NOT_MEASURED, Verdict.MET.and(Verdict.NOT_MEASURED));
        assertEquals(Verdict.MISSED, Verdict.NOT_MEASURED.and(Verdict.MISSED));
        assertEquals(Verdict.MISSED, Verdict.MISSED.and(Verdict.MET));
        assertEquals(Verdict.NOT_MEASURED, Verdict.atMost(Double.NaN, 60));
        assertEquals(Verdict.NOT_MEASURED, Verdict.atMost(1, Double.NaN)); // a NaN reference is no figure either
        assertEquals(Verdict.NOT_MEASURED, Verdict.atLeast(Double.POSITIVE_INFINITY, 10)); // x / 0
        assertEquals(Verdict.MET, Verdict.atLeast(10, 10));
        assertEquals(Verdict.MISSED, Verdict.below(1200, 1200));
    }

    @Test
    void scaling_peerWithoutFigure_isNotMeasured_namingIt() {
        Figures f = figures();
        scheduleCancel(f, Peer.TIMEWHEEL, M, 1, 30);
        scheduleCancel(f, Peer.NETTY_1MS, M, 1, 10);
        scheduleCancel(f, Peer.FJP, M, 1, 5); // required on Java 25 only
        // netty-100ms's fork failed: no row. Against netty-1ms alone timewheel would be 3x: "met" on a figure short
        Target t = target(f, "schedule+cancel @1M, 1 producer");
        assertEquals(Verdict.NOT_MEASURED, t.verdict);
        assertEquals("not measured (no figure for netty-100ms)", t.verdictText());
    }

    @Test
    void scaling_everyPeerMeasured_comparesWithTheBestOfThemAll() {
        Figures f = figures();
        scheduleCancel(f, Peer.TIMEWHEEL, M, 2, 30);
        scheduleCancel(f, Peer.NETTY_1MS, M, 2, 10);
        scheduleCancel(f, Peer.NETTY_100MS, M, 2, 20);
        scheduleCancel(f, Peer.FJP, M, 2, 5);
        Target t = target(f, "schedule+cancel @1M, 2 producers");
        assertEquals("MISSED", t.verdictText()); // 1.5x netty-100ms, the goal is 2x
        assertTrue(t.measured.startsWith("1.50x (30.00 vs netty-100ms 20.00 Mops/s)"), t.measured);
        f.jmh.remove(f.jmh.size() - 2);
        scheduleCancel(f, Peer.NETTY_100MS, M, 2, 15);
        assertEquals("met", target(f, "schedule+cancel @1M, 2 producers").verdictText());
    }

    @Test
    void scaling_withoutTimewheelsFigure_isNotMeasured_andQuickSaysFourProducersAreFullOnly() {
        Figures f = figures();
        for (Peer p : Targets.SCALING_PEERS) {
            scheduleCancel(f, p, M, 1, 10);
        }
        assertEquals("not measured (no figure for timewheel)", target(f, "schedule+cancel @1M, 1 producer").verdictText());
        f.quick = true;
        assertEquals("not measured (full run only)", target(f, "schedule+cancel @1M, 4 producers").verdictText());
    }

    @Test
    void best_takesTheHighestOrLowest_andListsThePeersWithoutAFigure() {
        Map<Peer, Double> v = Map.of(Peer.NETTY_1MS, 3.0, Peer.FJP, 7.0, Peer.KAFKA, Double.NaN);
        List<Peer> peers = List.of(Peer.NETTY_1MS, Peer.FJP, Peer.KAFKA, Peer.NETTY_100MS);
        Targets.Best high = Targets.best(peers, p -> v.getOrDefault(p, Double.NaN), true);
        assertEquals(Peer.FJP, high.peer);
        assertEquals(List.of(Peer.KAFKA, Peer.NETTY_100MS), high.missing);
        assertEquals(Peer.NETTY_1MS, Targets.best(peers, p -> v.getOrDefault(p, Double.NaN), false).peer);
        Targets.Best none = Targets.best(List.of(Peer.KAFKA), p -> Double.NaN, true);
        assertNull(none.peer);
        assertEquals("not measured (no figure for kafka)", Targets.versusBest("g", 5, none, 1, true, "u", "").verdictText());
        assertEquals("not measured (no peer to compare with)",
                Targets.versusBest("g", 5, Targets.best(List.of(), p -> 1, true), 1, true, "u", "").verdictText());
    }

    @Test
    void expiry_peerWithoutFigure_isNotMeasured_namingIt() {
        Figures f = figures();
        expiry(f, Peer.TIMEWHEEL, 1000, 1100);
        for (Peer p : Peer.values()) {
            if (p != Peer.TIMEWHEEL && p != Peer.NETTY_100MS) {
                expiry(f, p, 1500, 1600); // all slower than timewheel
            }
        }
        // netty-100ms can be the best peer; without its figure, "met" against the others would be unfounded
        Target t = target(f, "expiry: median no worse than the best peer's");
        assertEquals("not measured (no figure for netty-100ms)", t.verdictText());
        assertEquals("met", target(f, "expiry of 1M timers due within 1000 ms: every iteration < 1200 ms").verdictText());
        expiry(f, Peer.NETTY_100MS, 990, 1000);
        t = target(f, "expiry: median no worse than the best peer's");
        assertEquals("MISSED", t.verdictText());
        assertEquals("1.01x (1000 vs netty-100ms 990 ms)", t.measured);
    }

    @Test
    void expiry_timewheelWithoutFigure_isNotMeasured() {
        Figures f = figures();
        for (Peer p : Peer.values()) {
            expiry(f, p, p == Peer.TIMEWHEEL ? Double.NaN : 1500, Double.NaN);
        }
        assertEquals("not measured (no figure for timewheel)", target(f, "expiry: median").verdictText());
        assertEquals("not measured (no figure for timewheel)", target(f, "expiry of 1M timers").verdictText());
    }

    @Test
    void memory_jolSawNoTimers_isNotMeasured() {
        // JOL's graph did not hold the timers: 0 bytes per timer, which a plain comparison would call "met" (0 <= 60)
        Target t = Targets.memory(new MemoryHarness.Result(Peer.TIMEWHEEL, M, 0.0, 0.0, 80.0));
        assertEquals("not measured (JOL did not see the timers)", t.verdictText());
        // bytes but fewer objects than timers: the growth is not the timers (a timer is at least one object)
        assertEquals(Verdict.NOT_MEASURED, Targets.memory(new MemoryHarness.Result(Peer.TIMEWHEEL, M, 40.0, 0.5, 80.0)).verdict);
        // no timers at all: 0 / 0
        assertEquals(Verdict.NOT_MEASURED, Targets.memory(new MemoryHarness.Result(Peer.TIMEWHEEL, 0, Double.NaN, Double.NaN, Double.NaN)).verdict);
        assertEquals("not measured (no figure for memory)", Targets.memory(null).verdictText());
    }

    @Test
    void memory_jolSawTheTimers_metAtSixtyBytesOrLess() {
        assertEquals("met", Targets.memory(new MemoryHarness.Result(Peer.TIMEWHEEL, M, 56.0, 2.0, 60.0)).verdictText());
        assertEquals("met", Targets.memory(new MemoryHarness.Result(Peer.TIMEWHEEL, M, 60.0, 1.0, 60.0)).verdictText());
        assertEquals("MISSED", Targets.memory(new MemoryHarness.Result(Peer.TIMEWHEEL, M, 60.5, 2.0, 60.0)).verdictText());
    }

    @Test
    void zeroEarly_timersThatNeverRan_isMissed() {
        Figures f = figures();
        f.lateness.put(Peer.TIMEWHEEL, lateness(Peer.TIMEWHEEL, 1000, 0, 3, 1_000_000));
        Target t = target(f, "zero early fires");
        assertEquals("MISSED (3 never ran)", t.verdictText()); // not "met" for its 0 early fires
        assertEquals("0 early of 1000, 3 never ran", t.measured);
        assertEquals("MISSED", Targets.zeroEarly("g", 1000, 1, 0).verdictText());
        assertEquals("met", Targets.zeroEarly("g", 1000, 0, 0).verdictText());
    }

    @Test
    void zeroEarly_withoutTimers_isNotMeasured() {
        assertEquals("not measured (no timers)", Targets.zeroEarly("g", 0, 0, 0).verdictText());
        assertEquals("not measured (no figure for lateness)", target(figures(), "zero early fires").verdictText()); // a row even without the figure
    }

    @Test
    void latenessP99_timewheelsTimersThatNeverRan_isMissed() {
        LatenessHarness.Result ours = lateness(Peer.TIMEWHEEL, 1000, 0, 5, 1_000_000); // p99 1 ms over the timers that ran
        LatenessHarness.Result stpe = lateness(Peer.STPE, 1000, 0, 0, 2_000_000);
        Target t = Targets.latenessP99(ours, stpe, 5);
        assertEquals("MISSED (5 of timewheel's timers never ran)", t.verdictText()); // not "met" for 1 ms <= 2 ms
        assertEquals("met", Targets.latenessP99(lateness(Peer.TIMEWHEEL, 1000, 0, 0, 1_000_000), stpe, 5).verdictText());
    }

    @Test
    void latenessP99_stpesTimersThatNeverRan_orNoFigure_isNotMeasured() {
        LatenessHarness.Result ours = lateness(Peer.TIMEWHEEL, 1000, 0, 0, 1_000_000);
        assertEquals("not measured (7 of STPE's timers never ran: its p99 leaves them out)",
                Targets.latenessP99(ours, lateness(Peer.STPE, 1000, 0, 7, 2_000_000), 5).verdictText());
        LatenessHarness.Result allEarly = lateness(Peer.TIMEWHEEL, 1000, 1000, 0); // nothing in the histogram: p99 NaN
        assertEquals("not measured (no figure for timewheel)", Targets.latenessP99(allEarly, ours, 5).verdictText());
        assertEquals("not measured (no figure for stpe)", Targets.latenessP99(ours, null, 5).verdictText());
    }

    @Test
    void ratioTargets_missingFigure_isNotMeasured_namingIt() {
        Figures f = figures();
        scheduleCancel(f, Peer.TIMEWHEEL, M, 1, 10);
        assertEquals("not measured (no figure for stpe-roc)", target(f, "schedule+cancel @1M >= 10x").verdictText());
        assertEquals("not measured (no figure for timewheel @0)", target(f, "cost per op").verdictText());
        scheduleCancel(f, Peer.STPE_ROC, M, 1, 1);
        assertEquals("met", target(f, "schedule+cancel @1M >= 10x").verdictText());
        f.jmh.add(new JmhRow("WheelBenchmark.advance", params("impl", "timewheel", "pending", "1000000"), 1, Double.NaN, Double.NaN, "ns/op"));
        assertEquals("not measured (no figure for WheelBenchmark.advance)", target(f, "TimerWheel expiry").verdictText()); // old: "MISSED"
    }

    @Test
    void emptyRun_noTargetMet_andTheSummaryCountsThemNotMeasured() {
        List<Target> targets = Targets.of(figures());
        for (Target t : targets) {
            assertEquals(Verdict.NOT_MEASURED, t.verdict, t.toString());
        }
        assertEquals("targets: 0 met, 0 missed, " + targets.size() + " not measured (of " + targets.size() + ")", Targets.summary(targets));
    }

    @Test
    void summary_saysAllMetOnlyWhenEveryTargetWasMeasuredAndMet() {
        Target met = new Target("a", "1", Verdict.MET);
        assertEquals("targets: all 2 met", Targets.summary(List.of(met, met)));
        assertEquals("targets: 2 met, 0 missed, 1 not measured (of 3)",
                Targets.summary(List.of(met, met, new Target("b", "-", Verdict.NOT_MEASURED))));
        assertEquals("targets: 1 met, 1 missed, 0 not measured (of 2)", Targets.summary(List.of(met, new Target("c", "2", Verdict.MISSED))));
    }

    // ---- made-up figures

    private static Figures figures() {
        return new Figures(Peer.available());
    }

    private static Target target(Figures f, String goalPrefix) {
        List<Target> matches = Targets.of(f).stream().filter(t -> t.goal.startsWith(goalPrefix)).toList();
        assertEquals(1, matches.size(), "targets starting with '" + goalPrefix + "': " + matches);
        return matches.get(0);
    }

    private static void scheduleCancel(Figures f, Peer p, int pending, int threads, double mops) {
        f.jmh.add(new JmhRow(Figures.SCHEDULE_CANCEL, params("peer", p.id(), "pending", Integer.toString(pending)), threads, mops, 0.1, "ops/us"));
    }

    private static void expiry(Figures f, Peer p, double median, double max) {
        f.jmh.add(new JmhRow(Figures.EXPIRY, params("peer", p.id(), "timers", "1000000", "windowMs", "1000"), 1, median, 1, "ms/op",
                median, median, max, 3));
    }

    private static Map<String, String> params(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    /** A lateness result whose recorded timers (those neither early nor missing) are all {@code latenessNanos} late. */
    private static LatenessHarness.Result lateness(Peer p, int timers, int early, int missing, long... latenessNanos) {
        Histogram h = new Histogram(3);
        int ran = timers - early - missing;
        for (int i = 0; i < ran && latenessNanos.length > 0; i++) {
            h.recordValue(latenessNanos[i % latenessNanos.length]);
        }
        return new LatenessHarness.Result(p, h, timers, early, early > 0 ? 10_000 : 0, missing);
    }
}
