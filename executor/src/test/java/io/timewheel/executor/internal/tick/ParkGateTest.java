package io.timewheel.executor.internal.tick;

import io.timewheel.executor.internal.LowBound;
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
        gate.reset(LowBound.resetValue(NOW)); // the next detach reads it: only the held deadline counts
        assertEquals(10_000_000L - MARGIN, gate.prepare(NOW, NOW + 10_000_000L));
    }

    @Test
    void aDeadlineWithinTheMargin_meansLookAgainNow() {
        assertEquals(0, gate.prepare(NOW, NOW + MARGIN));
        assertEquals(ParkGate.AWAKE, gate.state());
    }

    @Test
    void aBlockingWorker_wakesAParkedTickThreadOnlyOnceItsLookIsDue_andOnlyOnce() {
        assertFalse(gate.wakeIfDue(NOW + 100 * DRAIN), "awake: nothing to wake");
        gate.prepare(NOW, NOW + MARGIN + 3 * DRAIN); // a long park: its look at NOW + 3 * DRAIN
        assertEquals(ParkGate.PARKED_LONG, gate.state());
        assertFalse(gate.wakeIfDue(NOW + 3 * DRAIN - 1), "before its look: the worker leaves it parked");
        assertEquals(ParkGate.PARKED_LONG, gate.state());
        assertTrue(gate.wakeIfDue(NOW + 3 * DRAIN), "its look is due: this worker unparks it");
        assertEquals(ParkGate.AWAKE, gate.state(), "and producers see it awake");
        assertFalse(gate.wakeIfDue(NOW + 4 * DRAIN), "one unpark per park");
    }

    @Test
    void aBlockingWorker_wakesAShortOrLazyParkAsWell_butNeverAnIndefiniteOne() {
        gate.prepare(NOW, NOW + MARGIN + DRAIN / 2);
        assertEquals(ParkGate.PARKED_SHORT, gate.state());
        assertTrue(gate.wakeIfDue(NOW + DRAIN / 2));
        gate.awake();

        gate.prepare(NOW, NOW + MARGIN + 3 * DRAIN);
        assertTrue(gate.lazy()); // a message came: it re-parks until parkedAt + drain
        assertTrue(gate.reparkLazy(NOW) > 0);
        assertTrue(gate.wakeIfDue(NOW + DRAIN));
        assertEquals(ParkGate.AWAKE, gate.state());

        assertEquals(ParkGate.INDEFINITELY, gate.prepare(NOW, NOW + Long.MAX_VALUE));
        assertFalse(gate.wakeIfDue(NOW + 1_000 * DRAIN), "nothing pending: no look is ever due");
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
        assertTrue(gate.signal(NOW + 2_000_000_000L, NOW + DRAIN)); // parked DRAIN: read what came meanwhile
        assertEquals(ParkGate.AWAKE, gate.state());
        assertFalse(gate.signal(NOW + 1, NOW + DRAIN)); // already woken: nobody unparks twice
        gate.awake();
        gate.prepare(NOW, NOW + 1_000_000_000L);
        assertTrue(gate.signal(NOW + 10_000_000L, NOW)); // needs it long before its look
        assertEquals(ParkGate.AWAKE, gate.state());
    }

    @Test
    void parkedLong_aMessageSoonAfter_unparksItLazily_toReadItDrainAfterItParked() {
        gate.prepare(NOW, NOW + 1_000_000_000L);
        // a message (it only frees memory) must not wait for the far look, nor wake it per message
        assertTrue(gate.signal(Long.MIN_VALUE, NOW + DRAIN / 4));
        assertEquals(ParkGate.PARKED_LAZY, gate.state());
        assertFalse(gate.signal(Long.MIN_VALUE, NOW + DRAIN / 4)); // the next ones are read with it
        assertFalse(gate.signal(NOW + 2_000_000_000L, NOW + DRAIN / 4)); // a far deadline too
        // unparked: it parks again until DRAIN after it parked, as a short park
        assertEquals(DRAIN * 3 / 4, gate.reparkLazy(NOW + DRAIN / 4));
        assertEquals(ParkGate.PARKED_SHORT, gate.state());
        assertEquals(NOW + DRAIN, gate.wakeAt());
        assertFalse(gate.signal(Long.MIN_VALUE, NOW + DRAIN / 2));
        assertTrue(gate.signal(NOW + MARGIN + DRAIN / 2, NOW + DRAIN / 2)); // needs it before that
        assertEquals(0, gate.reparkLazy(NOW + DRAIN / 2)); // that park's end is the loop's: no third park
    }

    @Test
    void parkedLong_aMessageLongAfter_unparksItAtOnce() {
        gate.prepare(NOW, NOW + 1_000_000_000L);
        assertTrue(gate.signal(Long.MIN_VALUE, NOW + DRAIN));
        assertEquals(ParkGate.AWAKE, gate.state());
        assertEquals(0, gate.reparkLazy(NOW + DRAIN));
    }

    @Test
    void parkedLazy_aDeadlineThatNeedsIt_wakesItFully() {
        gate.prepare(NOW, NOW + 1_000_000_000L);
        assertTrue(gate.signal(Long.MIN_VALUE, NOW));
        gate.lowerPending(NOW + 10_000_000L);
        assertTrue(gate.signal(NOW + 10_000_000L, NOW)); // needed long before its look: PARKED_LAZY -> AWAKE
        assertEquals(ParkGate.AWAKE, gate.state());
        assertEquals(0, gate.reparkLazy(NOW)); // no re-park
    }

    @Test
    void reparkLazy_looksNow_whenItsTimeHasCome_orSomethingCameThatNeedsIt() {
        gate.prepare(NOW, NOW + 1_000_000_000L);
        assertTrue(gate.signal(Long.MIN_VALUE, NOW));
        assertEquals(0, gate.reparkLazy(NOW + DRAIN)); // parkedAt + DRAIN has come

        gate.awake();
        gate.prepare(NOW, NOW + 1_000_000_000L);
        assertTrue(gate.signal(Long.MIN_VALUE, NOW));
        gate.lowerPending(NOW + MARGIN + DRAIN / 2); // offered, its signal not yet made
        assertEquals(0, gate.reparkLazy(NOW)); // the re-check after the state write sees it

        gate.awake();
        gate.beginLoop();
        gate.reset(LowBound.resetValue(NOW));
        gate.prepare(NOW, NOW + 1_000_000_000L);
        assertTrue(gate.signal(Long.MIN_VALUE, NOW));
        assertTrue(gate.urgent());
        assertEquals(0, gate.reparkLazy(NOW));
    }

    @Test
    void lazy_turnsALongParkDecidedWithAMessageUnread_intoADrainLongOne() {
        gate.prepare(NOW, NOW + Long.MAX_VALUE);
        assertTrue(gate.lazy());
        assertEquals(DRAIN, gate.reparkLazy(NOW));
        assertEquals(ParkGate.PARKED_SHORT, gate.state());
        assertFalse(gate.lazy()); // only from PARKED_LONG
        gate.awake();
        assertFalse(gate.lazy());
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
        assertFalse(LowBound.pending(LowBound.resetValue(NOW), NOW));
        assertFalse(LowBound.pending(LowBound.resetValue(NOW), NOW + 3_600_000_000_000L)); // an hour on
        assertTrue(LowBound.pending(NOW + 3_600_000_000_000L, NOW));
    }
}
