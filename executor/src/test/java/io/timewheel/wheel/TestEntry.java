package io.timewheel.wheel;

/** A timer entry for tests: an id, and the deadline setter opened up to the tests. */
final class TestEntry extends TimerEntry {

    final int id;

    TestEntry(int id) {
        this.id = id;
    }

    TestEntry(int id, long deadline) {
        super(deadline);
        this.id = id;
    }

    /** An entry for {@link TimerWheel#addInSequence}: ties between equal deadlines broken by {@code sequence}. */
    TestEntry(int id, long deadline, int sequence) {
        super(deadline, sequence);
        this.id = id;
    }

    /** Sets the deadline (the entry must be in no wheel) and returns this entry. */
    TestEntry at(long deadline) {
        setDeadline(deadline);
        return this;
    }

    /** The level this entry waits at (white box), or -1 when it is expired or detached. */
    int level() {
        if (inRun()) {
            return 0; // the sorted run holds the current level-0 slot (and the entries found due)
        }
        return location < 0 ? -1 : row() >>> 1;
    }

    /** The row of the slot this entry waits in (white box): level k's banks are rows 2k and 2k + 1. */
    int row() {
        return location < 0 ? -1 : location >>> 6;
    }

    /** The slot this entry waits in (white box), or -1 when it is expired or detached. */
    int slot() {
        return location < 0 ? -1 : location & 63;
    }

    /** In the wheel's sorted run (white box): found due and not polled, or waiting in the current slot. */
    boolean inRun() {
        return location <= IN_RUN;
    }

    @Override
    public String toString() {
        return "#" + id + "@" + deadline + "/seq" + sequence + "/loc" + location;
    }
}
