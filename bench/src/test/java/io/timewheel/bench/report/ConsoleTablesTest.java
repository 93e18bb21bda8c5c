package io.timewheel.bench.report;

import io.timewheel.bench.harness.BurstFixtures;
import io.timewheel.bench.harness.BurstLatenessHarness;
import io.timewheel.bench.harness.Console;
import io.timewheel.bench.harness.IdleHarness;
import io.timewheel.bench.harness.LatenessHarness;
import io.timewheel.bench.harness.LoadedLatenessHarness;
import io.timewheel.bench.harness.MemoryHarness;
import io.timewheel.bench.harness.PunctualityHarness;
import io.timewheel.bench.peer.Peer;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the quick and full runs print reads in a terminal: every line of every table fits Console.WIDTH columns,
 * and each target's verdict sits on the line that names the target. Made-up figures of a full run on every peer,
 * with the widest cells a run gives (long verdicts, a peer with six-digit early fires, 100 ms latenesses).
 */
class ConsoleTablesTest {

    private static final int M = 1_000_000;
    private static final List<Peer> PEERS = List.of(Peer.TIMEWHEEL, Peer.STPE, Peer.STPE_ROC, Peer.FJP, Peer.NETTY_1MS, Peer.NETTY_100MS,
            Peer.KAFKA);

    @Test
    void targetsTable_fitsTheTerminal_withEachVerdictOnItsTargetsLine() {
        Figures f = fullRun();
        List<Target> targets = Targets.of(f);
        String text = Targets.table(f).text();
        assertFits(text);

        List<String> lines = text.lines().toList();
        int verdictColumn = lines.get(1).indexOf("  -") + 2; // the rule under the header: target, verdict, measured
        List<String> starts = lines.stream().skip(2).filter(l -> !l.startsWith(" ")).toList(); // a row's first line
        assertEquals(targets.size() + 1, starts.size(), text); // every target, then the A/A control's row
        for (int i = 0; i < targets.size(); i++) {
            Target t = targets.get(i);
            String line = starts.get(i);
            String firstWord = t.goal.substring(0, t.goal.indexOf(' '));
            assertTrue(line.startsWith(firstWord), "row " + i + " is not " + t.goal + ":\n" + text);
            assertTrue(line.substring(verdictColumn).startsWith(t.verdict.text()),
                    "the verdict of '" + t.goal + "' is not on its line: '" + line + "'\n" + text);
        }
    }

    @Test
    void targetsTable_aLongVerdictWrapsInItsColumn_andKeepsItsFirstWordOnTheTargetsLine() {
        List<Target> targets = List.of(new Target("schedule+cancel @1M, 4 producers >= 2x the best of Netty and FJP", "-",
                Verdict.NOT_MEASURED, "no figure for netty-1ms, netty-100ms, fjp"), new Target("zero early fires", "0 early of 500000", Verdict.MET));
        assertEquals(String.join("\n",
                "target                                        verdict                   measured",
                "--------------------------------------------  ------------------------  -----------------",
                "schedule+cancel @1M, 4 producers >= 2x the    not measured (no figure   -",
                "  best of Netty and FJP                       for netty-1ms,",
                "                                              netty-100ms, fjp)",
                "zero early fires                              met                       0 early of 500000",
                ""), Targets.table(targets, List.of()).text());
    }

    @Test
    void everyTableTheRunsPrint_fitsTheTerminal() {
        Figures f = fullRun();
        assertFits(Headline.table(f).text());
        assertFits(Punctuality.table(f).text());
        assertFits(Bursts.table(f.bursts).text());
        assertFits(Bursts.checks(f.bursts).text());
        assertFits(Console.wrap("", Punctuality.note(f)));
        assertFits(Console.wrap("", Bursts.NOTE));
        assertFits(Console.wrap("", Headline.RATIO_NOTE));
    }

    @Test
    void headline_keepsEachPeersFiguresOnItsLine() {
        String text = Headline.table(fullRun()).text();
        for (Peer p : PEERS) {
            assertEquals(1, text.lines().filter(l -> l.startsWith(p.id() + " ")).count(), p.id() + ":\n" + text);
        }
        assertTrue(text.lines().anyMatch(l -> l.startsWith("kafka ") && l.contains("180649")), text);
    }

    @Test
    void reportTables_holdNoParagraphInACell() {
        Figures f = fullRun();
        for (Table t : List.of(Targets.table(f), Headline.table(f), Punctuality.table(f), Bursts.table(f.bursts), Bursts.checks(f.bursts))) {
            for (String row : t.markdown().lines().toList()) {
                for (String cell : row.split(" \\| ")) {
                    assertTrue(cell.length() <= Console.WIDTH, "a paragraph in a cell (" + cell.length() + " characters): " + cell);
                }
            }
        }
    }

    @Test
    void wrap_breaksAtSpaces_indentsTheRest_andCutsOnlyAWordLongerThanTheLine() {
        assertEquals(List.of("> one two", ">> three", ">> four"), Console.lines("one two three four", 7, 6, "> ", ">> "));
        assertEquals(List.of("abcde", "fgh"), Console.lines("abcdefgh", 5, 5, "", ""));
        assertEquals(List.of(""), Console.lines("", 5, 5, "", ""));
        String wrapped = Console.wrap("  ", "word ".repeat(60));
        assertFits(wrapped);
        assertFalse(wrapped.lines().skip(1).anyMatch(l -> !l.startsWith("    ")), wrapped);
    }

    private static void assertFits(String text) {
        for (String line : text.lines().toList()) {
            assertTrue(line.length() <= Console.WIDTH, line.length() + " columns: '" + line + "'\n" + text);
        }
    }

    // ---- made-up figures of a full run

    private static Figures fullRun() {
        Figures f = new Figures(PEERS);
        double[] mops = {19.85, 4.48, 1.64, 9.24, 22.42, 10.43, 10.50};
        double[] expiry = {1172, 2300, 2251, 1157, 1066, 1138, 1253};
        double[][] late = {{0.045, 0.102, 1.263}, {0.041, 0.482, 2.935}, {0.049, 0.560, 3.910}, {0.105, 0.905, 2.970},
                {1.091, 2.013, 2.443}, {52.593, 101.253, 104.333}, {0.446, 1.843, 3.877}};
        for (int i = 0; i < PEERS.size(); i++) {
            Peer p = PEERS.get(i);
            for (int pending : new int[] {0, 10_000, M}) {
                jmh(f, Figures.SCHEDULE_CANCEL, 1, mops[i] * 0.97, "peer", p.id(), "pending", Integer.toString(pending));
            }
            for (int threads : new int[] {2, 4, 8}) {
                jmh(f, Figures.SCHEDULE_CANCEL, threads, mops[i] * threads / 3, "peer", p.id(), "pending", Integer.toString(M));
            }
            jmh(f, Figures.SCHEDULE_ONLY, 1, mops[i] / 2, "peer", p.id(), "pending", Integer.toString(M));
            f.jmh.add(new JmhRow(Figures.EXPIRY, params("peer", p.id(), "timers", "1000000", "windowMs", "1000"), 1, expiry[i], 1687,
                    "ms/op", expiry[i], expiry[i] * 0.9, expiry[i] * 1.1, 3));
            int early = p == Peer.KAFKA ? 180_649 : 0;
            f.lateness.put(p, lateness(p, 500_000, early, late[i]));
            f.loadedLateness.put(p, new LoadedLatenessHarness.Result(p, histogram(late[i]), 0, mops[i] * 0.9));
            boolean jolSees = p != Peer.FJP;
            f.memory.put(p, new MemoryHarness.Result(p, M, jolSees ? 56 + 45 * (i % 2) : -0.0, jolSees ? 1 : 0, 79.7));
            for (int timers : new int[] {0, M}) {
                double wakeups = p == Peer.NETTY_1MS ? 911.4 : p == Peer.TIMEWHEEL ? 0 : 5.8;
                f.idle.put(IdleHarness.key(p, timers), new IdleHarness.Result(p, timers, 10, wakeups, wakeups, 328.657, 2,
                        "bench-kafka-reaper, executor-bench-kafka"));
            }
            f.threads.put(p, new int[] {2, 20});
        }
        f.latenessRounds = 5;
        for (String impl : new String[] {"timewheel", "agrona"}) {
            for (String op : new String[] {"addCancel", "add", "cancel", "advance"}) {
                jmh(f, "WheelBenchmark." + op, 1, 61.63, "impl", impl, "pending", Integer.toString(M));
            }
        }
        BurstLatenessHarness.Config base = BurstLatenessHarness.Config.defaults();
        f.bursts = new ArrayList<>();
        for (BurstLatenessHarness.Config c : BurstLatenessHarness.matrix(base.bursts(30))) {
            f.bursts.add(BurstFixtures.result(c, p99s(30, 3, 46_000_000L), p99s(30, 2, 44_000_000L)));
        }
        f.burstTail = BurstFixtures.result(base.named("default, tail").bursts(400), p99s(400, 6, 2_500_000), p99s(400, 5, 2_500_000));
        f.burstTailVariants = List.of(
                BurstFixtures.result(base.named("2 spinning threads, tail").load(2), p99s(400, 366, 3_910_000), p99s(400, 357, 4_060_000)),
                BurstFixtures.result(base.named("3 executors, tail").executors(3), p99s(400, 5, 2_500_000), p99s(400, 6, 2_500_000)),
                BurstFixtures.result(base.named("4 workers, tail").workers(4), p99s(398, 3, 2_500_000), p99s(400, 5, 2_500_000)));
        f.coldLaunches.put(Peer.TIMEWHEEL, rounds(Peer.TIMEWHEEL, 31, 0.050, 3.68, 17.2));
        f.coldLaunches.put(Peer.STPE, rounds(Peer.STPE, 31, 0.057, 3.48, 3.63));
        f.warmRounds.put(Peer.TIMEWHEEL, rounds(Peer.TIMEWHEEL, 41, 0.041, 0.084, 0.3));
        f.warmRounds.put(Peer.STPE, rounds(Peer.STPE, 41, 0.040, 0.096, 0.3));
        return f;
    }

    private static void jmh(Figures f, String benchmark, int threads, double score, String... params) {
        f.jmh.add(new JmhRow(benchmark, params(params), threads, score, score / 2, "ops/us"));
    }

    private static Map<String, String> params(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    /** A histogram of the three latenesses (ms): p50, p99, max, in proportions that keep each at its percentile. */
    private static Histogram histogram(double[] ms) {
        Histogram h = new Histogram(3);
        h.recordValueWithCount((long) (ms[0] * 1e6), 980);
        h.recordValueWithCount((long) (ms[1] * 1e6), 19);
        h.recordValue((long) (ms[2] * 1e6));
        return h;
    }

    private static LatenessHarness.Result lateness(Peer p, int timers, int early, double[] ms) {
        LatenessHarness.Result r = new LatenessHarness.Result(p, histogram(ms), timers, early, early > 0 ? 958_000 : 0, 0);
        for (int i = 0; i < 5; i++) {
            r.roundP99s.add(ms[1] * (1 + i / 10.0));
        }
        return r;
    }

    /** {@code n} bursts' p99s: {@code late} of them {@code lateNanos}, the others 0.1 ms. */
    private static long[] p99s(int n, int late, long lateNanos) {
        return LongStream.range(0, n).map(i -> i < late ? lateNanos : 100_000L).toArray();
    }

    private static List<PunctualityHarness.Round> rounds(Peer p, int n, double p50, double p99, double createMillis) {
        List<PunctualityHarness.Round> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(new PunctualityHarness.Round(p, p50, p99, 3 * p99, 0, 0, createMillis, 1));
        }
        return list;
    }
}
