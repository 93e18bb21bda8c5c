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

    boolean isExpiredNotPolled() {
        return location == EXPIRED;
    }

    @Override
    public String toString() {
        return "#" + id + "@" + deadline + "/seq" + sequence + "/loc" + location;
    }
}
