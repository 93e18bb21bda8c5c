package io.timewheel.bench;

import io.timewheel.bench.peer.Peer;
import io.timewheel.bench.run.Smoke;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CI's look at the bench module: every benchmark and harness runs at tiny sizes and produces a result.
 * Nothing here is timed or compared: the figures of a smoke run mean nothing.
 */
class SmokeTest {

    @Test
    void benchmarks_runOnEveryPeer() throws Exception {
        Smoke.benchmarks(Peer.available(), System.out);
    }

    @Test
    void jmh_runsTheGeneratedBenchmarks() throws Exception {
        Smoke.jmh(System.out);
    }

    @Test
    void lateness_measuresEveryPeer() throws Exception {
        Smoke.lateness(Peer.available(), System.out);
    }

    @Test
    void burstLateness_measuresStpeAndTimewheel() throws Exception {
        Smoke.burst(System.out);
    }

    @Test
    void punctuality_coldLaunchesAndWarmRounds_runEveryTimer() throws Exception {
        Smoke.punctuality(System.out);
    }

    @Test
    void memory_idle_threads_agent_runInChildJvms() throws Exception {
        java.util.List<Peer> two = java.util.List.of(Peer.TIMEWHEEL, Peer.STPE);
        Smoke.memory(two, System.out);
        Smoke.idle(two, System.out);
        Smoke.threads(two, System.out);
        Smoke.agent(System.out);
    }

    @Test
    void report_writesMarkdownAndCharts(@TempDir Path dir) throws Exception {
        Smoke.report(Peer.available(), dir, System.out);
        assertTrue(Files.size(dir.resolve("report.md")) > 0);
        assertTrue(Files.size(dir.resolve("lateness.png")) > 0);
        assertTrue(Files.size(dir.resolve("schedule-cancel-vs-pending.png")) > 0);
    }
}
