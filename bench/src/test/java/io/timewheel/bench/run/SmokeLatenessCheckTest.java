package io.timewheel.bench.run;

import io.timewheel.bench.harness.LatenessHarness;
import io.timewheel.bench.peer.Peer;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The smoke run's lateness contract on made-up results: every timer ran, none early (Kafka: not by a millisecond or more). */
class SmokeLatenessCheckTest {

    @Test
    void everyTimerRanAndNoneEarly_passes() {
        Smoke.checkLateness(Map.of(Peer.TIMEWHEEL, result(Peer.TIMEWHEEL, 0, 0, 0), Peer.STPE, result(Peer.STPE, 0, 0, 0)));
    }

    @Test
    void aTimerThatNeverRan_fails_namingThePeer() {
        Map<Peer, LatenessHarness.Result> r = new LinkedHashMap<>();
        r.put(Peer.TIMEWHEEL, result(Peer.TIMEWHEEL, 0, 0, 0));
        r.put(Peer.NETTY_100MS, result(Peer.NETTY_100MS, 0, 0, 2));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Smoke.checkLateness(r));
        assertEquals("smoke: lateness: netty-100ms: 2 of 100 timers never ran", e.getMessage());
    }

    @Test
    void anEarlyFire_fails() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Smoke.checkLateness(Map.of(Peer.TIMEWHEEL, result(Peer.TIMEWHEEL, 1, 1_000, 0))));
        assertEquals("smoke: lateness: timewheel: 1 of 100 timers ran early, the earliest 0.001 ms before its deadline", e.getMessage());
    }

    @Test
    void kafka_earlyWithinItsMillisecondClock_passes_beyondIt_fails() {
        Smoke.checkLateness(Map.of(Peer.KAFKA, result(Peer.KAFKA, 30, 900_000, 0)));
        assertThrows(IllegalStateException.class, () -> Smoke.checkLateness(Map.of(Peer.KAFKA, result(Peer.KAFKA, 30, 1_000_000, 0))));
        assertThrows(IllegalStateException.class, () -> Smoke.checkLateness(Map.of(Peer.KAFKA, result(Peer.KAFKA, 30, 1_500_000, 0))));
        assertThrows(IllegalStateException.class, () -> Smoke.checkLateness(Map.of(Peer.KAFKA, result(Peer.KAFKA, 0, 0, 1))));
    }

    private static LatenessHarness.Result result(Peer p, int early, long worstEarlyNanos, int missing) {
        Histogram h = new Histogram(3);
        for (int i = early + missing; i < 100; i++) {
            h.recordValue(100_000);
        }
        return new LatenessHarness.Result(p, h, 100, early, worstEarlyNanos, missing);
    }
}
