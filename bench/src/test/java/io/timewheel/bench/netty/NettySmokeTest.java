package io.timewheel.bench.netty;

import io.timewheel.bench.report.JmhRow;
import io.timewheel.bench.run.JmhRuns;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CI's look at the Netty section: the benchmark, the harness and the section's Markdown run at tiny sizes and
 * produce results. Nothing here is timed or compared (the figures of a smoke run mean nothing), except the
 * contract every timer keeps: every timeout runs, none early.
 */
class NettySmokeTest {

    private static final List<NettyTimerKind> ALL = Arrays.asList(NettyTimerKind.values());

    @Test
    void benchmark_schedulesAndCancelsOnEveryTimer() throws Exception {
        for (NettyTimerKind kind : ALL) {
            NettyScheduleCancelBenchmark b = NettyScheduleCancelBenchmark.smoke(kind.id(), 1_000);
            for (int i = 0; i < 1_000; i++) {
                assertTrue(b.scheduleCancel(), kind.id() + ": cancel of a 30 s timeout failed");
            }
            b.tearDown();
        }
    }

    @Test
    void jmh_runsTheGeneratedBenchmark() throws Exception {
        List<JmhRow> rows = JmhRuns.runInProcess(new JmhRuns.Spec(NettySection.BENCHMARK).param("timer", "wheel-timer")
                .param("pending", "1000").warmup(1, 20).measure(1, 20));
        assertEquals(1, rows.size(), rows.toString());
    }

    @Test
    void scheduleCancel_isEachTimersMedianFork_withTheForksRange() {
        NettySection.Result r = new NettySection.Result(1_000);
        r.forks = 3;
        double[] wheel = {10, 14, 12};
        double[] netty = {13, 9, 11};
        for (int i = 0; i < 3; i++) {
            r.jmh.add(row(NettyTimerKind.WHEEL, 1, wheel[i]));
            r.jmh.add(row(NettyTimerKind.values()[1], 1, netty[i]));
        }
        assertEquals(12.0, r.scheduleCancel(NettyTimerKind.WHEEL, 1));
        assertEquals(11.0, r.scheduleCancel(NettyTimerKind.values()[1], 1));
        assertTrue(Double.isNaN(r.scheduleCancel(NettyTimerKind.WHEEL, 2)));
        String md = NettySection.markdown(r);
        assertTrue(md.contains("| wheel-timer | 12.000 (10.00-14.00) | 1.00x | - |"), md);
        assertTrue(md.contains("| " + NettyTimerKind.values()[1].id() + " | 11.000 (9.00-13.00) | 0.92x | - |"), md);
    }

    private static JmhRow row(NettyTimerKind kind, int threads, double score) {
        return new JmhRow(NettySection.BENCHMARK, Map.of("timer", kind.id(), "pending", "1000"), threads, score, 1.0, "ops/us");
    }

    @Test
    void section_measuresEveryTimer_everyTimeoutRuns_noneEarly() throws Exception {
        NettySection.Result r = new NettySection.Result(1_000);
        r.latenessRounds = 1;
        r.lateness = NettyTimersHarness.lateness(ALL, 500, 20, 1, System.out);
        for (NettyTimersHarness.Lateness l : r.lateness.values()) {
            assertEquals(0, l.missing, l.kind.id() + ": timeouts that never ran");
            assertEquals(0, l.early, l.kind.id() + ": timeouts that ran early");
        }
        r.idleInstances = 2;
        r.idle = NettyTimersHarness.idle(ALL, 2, 200, System.out);
        assertEquals(ALL.size() * NettyTimersHarness.SCENARIOS.size(), r.idle.size());
        String md = NettySection.markdown(r);
        for (NettyTimerKind kind : ALL) {
            assertTrue(md.contains("| " + kind.id() + " |"), md);
        }
        for (Map.Entry<String, NettyTimersHarness.Idle> e : r.idle.entrySet()) {
            assertTrue(e.getValue().allThreads >= e.getValue().timerThreads, e.getKey());
        }
    }
}
