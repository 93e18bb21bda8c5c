package io.timewheel.bench.peer;

import io.timewheel.bench.harness.LatenessHarness;
import io.timewheel.executor.WheelScheduledExecutorService;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The opt-in peer {@code timewheel-vt} (timewheel's virtual-thread mode, measured next to its platform mode):
 * selectable by id, never in "all", unavailable before Java 21. Correctness only; no figure is measured.
 */
class PeerTest {

    private static final boolean VIRTUAL_THREADS = Runtime.version().feature() >= 21;

    @Test
    void timewheelVt_isSelectedByItsId_butNeverByAll() {
        assertEquals(Peer.TIMEWHEEL_VT, Peer.of("timewheel-vt"));
        assertTrue(Peer.TIMEWHEEL_VT.optIn());
        assertFalse(Peer.available().contains(Peer.TIMEWHEEL_VT));
        assertFalse(Peer.parse("all").contains(Peer.TIMEWHEEL_VT));
        assertEquals(VIRTUAL_THREADS ? List.of(Peer.TIMEWHEEL, Peer.TIMEWHEEL_VT) : List.of(Peer.TIMEWHEEL),
                Peer.parse("timewheel,timewheel-vt"));
    }

    @Test
    void timewheelVt_beforeJava21_isUnavailable_saysWhy() {
        assumeTrue(!VIRTUAL_THREADS, "this runtime has virtual threads");
        assertNotNull(Peer.TIMEWHEEL_VT.unavailableReason());
        assertTrue(Peer.TIMEWHEEL_VT.unavailableReason().contains("Java 21"));
        assertThrows(UnsupportedOperationException.class, Peer.TIMEWHEEL_VT::create);
    }

    @Test
    void timewheelVt_runsEachTimerOnAVirtualThread_andALatenessRoundLosesNone() throws Exception {
        assumeTrue(VIRTUAL_THREADS, "virtual threads need Java 21+");
        try (TimerService service = Peer.TIMEWHEEL_VT.create()) {
            assertInstanceOf(WheelScheduledExecutorService.class, service.root());
            CompletableFuture<Thread> ranOn = new CompletableFuture<>();
            service.schedule(() -> ranOn.complete(Thread.currentThread()), 1, TimeUnit.MILLISECONDS);
            assertEquals("java.lang.VirtualThread", ranOn.get(30, TimeUnit.SECONDS).getClass().getName());
            // the harness's own round at a toy size: every timer ran, none early (no lateness figure is judged)
            LatenessHarness.Result r = LatenessHarness.round(service, 200, 5, 1);
            assertEquals(0, r.missing);
            assertEquals(0, r.early);
        }
    }
}
