package io.timewheel.executor;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The park/wake decisions of {@link ParkGate}, one step at a time (the races are jcstress's: ParkGate*). */
class ParkGateTest {
    static final long NOW = 5_000_000_000L;
    static final long MARGIN = 2_000_000L;
    static final long DRAIN = 1_000_000L;

    private final ParkGate gate = new ParkGate(MARGIN, DRAIN, NOW);

    @Test
    void nothingPending_parksIndefinitely_asParkedLong() {
        assertEquals(ParkGate.INDEFINITELY, gate.prepare(NOW, NOW + Long.MAX_VALUE));
        assertEquals(ParkGate.PARKED_LONG, gate.state());
        gate.awake();
        assertEquals(ParkGate.AWAKE, gate.state());
    }

    @Test
    void parksUntilMarginBeforeTheEarliestDeadline_heldOrOfferedAndNotRead() {
        assertEquals(10_000_000L - MARGIN, gate.prepare(NOW, NOW + 10_000_000L));
        assertEquals(NOW + 10_000_000L - MARGIN, gate.wakeAt());
        gate.awake();
        gate.lowerPending(NOW + 4_000_000L); // offered after the detach: not read
        assertEquals(4_000_000L - MARGIN, gate.prepare(NOW, NOW + 10_000_000L));
        gate.awake();
        gate.reset(ParkGate.resetValue(NOW)); // the next detach reads it: only the held deadline counts
        assertEquals(10_000_000L - MARGIN, gate.prepare(NOW, NOW + 10_000_000L));
    }

    @Test
    void aDeadlineWithinTheMargin_meansLookAgainNow() {
        assertEquals(0, gate.prepare(NOW, NOW + MARGIN));
        assertEquals(ParkGate.AWAKE, gate.state());
    }

    @Test
    void awake_producersDoNothing() {
        gate.lowerPending(NOW + 1);
        assertFalse(gate.signal(NOW + 1, NOW));
    }

    @Test
    void parkedShort_onlyADeadlineThatNeedsItEarlierUnparks() {
        long delay = gate.prepare(NOW, NOW + MARGIN + DRAIN / 2);
        assertEquals(DRAIN / 2, delay);
        assertEquals(ParkGate.PARKED_SHORT, gate.state());
        assertFalse(gate.signal(NOW + MARGIN + DRAIN, NOW + 5 * DRAIN)); // later than its look, however long parked
        assertTrue(gate.signal(NOW + MARGIN + DRAIN / 4, NOW));
        assertEquals(ParkGate.PARKED_SHORT, gate.state()); // a short park is not CASed: it ends soon anyway
    }

    @Test
    void parkedLong_aNeedingDeadlineOrALongParkUnparksOnce() {
        gate.prepare(NOW, NOW + 1_000_000_000L);
        assertEquals(ParkGate.PARKED_LONG, gate.state());
        assertFalse(gate.signal(NOW + 2_000_000_000L, NOW + DRAIN / 2)); // far, and parked only briefly
        assertFalse(gate.signal(Long.MIN_VALUE, NOW + DRAIN / 2)); // a message, parked briefly
        assertTrue(gate.signal(Long.MIN_VALUE, NOW + DRAIN)); // parked DRAIN: read what came meanwhile
        assertEquals(ParkGate.AWAKE, gate.state());
        assertFalse(gate.signal(NOW + 1, NOW + DRAIN)); // already woken: nobody unparks twice
        gate.awake();
        gate.prepare(NOW, NOW + 1_000_000_000L);
        assertTrue(gate.signal(NOW + 10_000_000L, NOW)); // needs it long before its look
        assertEquals(ParkGate.AWAKE, gate.state());
    }

    @Test
    void urgentCommand_unparksAParkedThread_andStopsAParkBeingDecided() {
        assertFalse(gate.urgent()); // awake: it will see the flag
        assertEquals(0, gate.prepare(NOW, NOW + Long.MAX_VALUE)); // the flag is up: look again
        gate.beginLoop(); // the loop that reads the command clears it
        assertEquals(ParkGate.INDEFINITELY, gate.prepare(NOW, NOW + Long.MAX_VALUE));
        assertTrue(gate.urgent());
    }

    @Test
    void resetValue_isNeverMistakenForAPendingDeadline() {
        assertFalse(ParkGate.pending(ParkGate.resetValue(NOW), NOW));
        assertFalse(ParkGate.pending(ParkGate.resetValue(NOW), NOW + 3_600_000_000_000L)); // an hour on
        assertTrue(ParkGate.pending(NOW + 3_600_000_000_000L, NOW));
    }
}
