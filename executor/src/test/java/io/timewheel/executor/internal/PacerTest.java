package io.timewheel.executor.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The tick thread's pacer on a manual clock: when it yields, how often it looks, and its budget per loop. */
class PacerTest {
    private long now;
    private int clockReads;
    /** How long each yield takes on the manual clock. */
    private long yieldTakes;
    private int yields;

    private Pacer pacer() {
        return new Pacer(() -> {
            clockReads++;
            return now;
        }, () -> {
            yields++;
            now += yieldTakes;
        });
    }

    @Test
    void run_yieldsOnceAStintHasLastedPaceNanos_andAYieldStartsTheNextStint() {
        now = 1_000;
        Pacer pacer = pacer();
        now += Pacer.PACE_NANOS - 1;
        pacer.run();
        assertEquals(0, yields, "a stint shorter than PACE_NANOS");
        now += 1;
        pacer.run();
        assertEquals(1, yields);
        pacer.run();
        assertEquals(1, yields, "the yield started a new stint");
        now += Pacer.PACE_NANOS;
        pacer.run();
        assertEquals(2, yields);
        assertEquals(2, pacer.yields());
    }

    @Test
    void begin_startsANewStint() {
        Pacer pacer = pacer();
        now += Pacer.PACE_NANOS - 1;
        pacer.begin(); // the tick thread slept or looked again: work starts now
        now += Pacer.PACE_NANOS - 1;
        pacer.run();
        assertEquals(0, yields);
    }

    @Test
    void step_looksAtTheClockOnlyEveryStepEntries() {
        Pacer pacer = pacer();
        int before = clockReads;
        now += 10 * Pacer.PACE_NANOS;
        for (int i = 1; i < Pacer.STEP_ENTRIES; i++) {
            pacer.step();
        }
        assertEquals(before, clockReads, "no look before STEP_ENTRIES entries");
        assertEquals(0, yields);
        pacer.step();
        assertEquals(1, yields, "the STEP_ENTRIES-th entry looks, and the stint is long over");
        for (int i = 0; i < 3 * Pacer.STEP_ENTRIES; i++) {
            pacer.step();
        }
        assertEquals(1, yields, "the manual clock stood still since that yield");
    }

    @Test
    void yieldsStop_onceTheyHaveTakenTheLoopsBudget_untilTheNextLoop() {
        yieldTakes = Pacer.BUDGET_NANOS / 4; // a yield behind CPU-bound threads: a scheduler slice
        Pacer pacer = pacer();
        for (int i = 0; i < 10; i++) {
            now += Pacer.PACE_NANOS;
            pacer.run();
        }
        assertEquals(4, yields, "four yields spend the budget; the rest of the loop runs through");
        pacer.begin();
        now += Pacer.PACE_NANOS;
        pacer.run();
        assertEquals(5, yields, "a new loop, a new budget");
    }
}
