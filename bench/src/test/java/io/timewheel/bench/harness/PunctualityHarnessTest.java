package io.timewheel.bench.harness;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.timewheel.bench.peer.Peer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The warm rounds of {@code punctuality} start each round on a collected heap (a System.gc() before it, the heap
 * kept at its size and the JVM's setting put back after), count the collections that fell in each round, and
 * carry that count through a cold launch's ROUND line.
 */
class PunctualityHarnessTest {

    private static String maxHeapFreeRatio() {
        return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).getVMOption("MaxHeapFreeRatio").getValue();
    }

    @Test
    void warm_collectsBeforeEachRound_countsEachRoundsCollections_andPutsTheHeapSettingBack() throws Exception {
        String setting = maxHeapFreeRatio();
        long before = PunctualityHarness.collections();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Map<Peer, List<PunctualityHarness.Round>> rounds = PunctualityHarness.warm(List.of(Peer.TIMEWHEEL, Peer.STPE), 2,
                200, 5, new PrintStream(out, true, StandardCharsets.UTF_8));
        long collections = PunctualityHarness.collections() - before;
        assertTrue(collections >= 4, "a System.gc() before each of the 4 rounds, but " + collections + " collections");
        for (List<PunctualityHarness.Round> peerRounds : rounds.values()) {
            assertEquals(2, peerRounds.size());
            for (PunctualityHarness.Round r : peerRounds) {
                assertTrue(r.gcs() >= 0, "the round's collections were not counted: " + r);
                assertEquals(0, r.missing(), "every timer ran");
            }
        }
        assertTrue(out.toString(StandardCharsets.UTF_8).contains(" gc"), out.toString(StandardCharsets.UTF_8));
        assertEquals(setting, maxHeapFreeRatio(), "MaxHeapFreeRatio not put back");
    }

    @Test
    void roundLine_carriesTheCollections_andAnOlderLineWithoutThemParses() {
        PunctualityHarness.Round round = new PunctualityHarness.Round(Peer.STPE, 0.05, 1.5, 2.25, 0, 0, 12.5, 3);
        assertEquals(round, PunctualityHarness.Round.parse(round.line()));
        PunctualityHarness.Round older = PunctualityHarness.Round.parse("ROUND stpe 0.0500 1.5000 2.2500 0 0 12.5000");
        assertEquals(-1, older.gcs());
        assertEquals(12.5, older.createMillis());
    }
}
