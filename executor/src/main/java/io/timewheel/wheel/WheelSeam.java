package io.timewheel.wheel;

/**
 * The tests' one seam into the wheel's internals: white-box queries of a TimerWheel and its SortedRun, and a
 * fault to inject where the run's arrays grow. Nothing in production calls it. Wheel thread, like what it
 * reads, but injectGrowthFault.
 */
final class WheelSeam {

    private WheelSeam() {
    }

    /**
     * Runs {@code fault} before each growth of any run's arrays or scratch (a test throws an OutOfMemoryError
     * there, as the allocation could); null to stop. Any thread.
     */
    static void injectGrowthFault(Runnable fault) {
        SortedRun.growthFault = fault;
    }

    /** Whether an entry is in the wheel's run and found due (SortedRun's R4). */
    static boolean isFoundDue(TimerWheel<?> wheel, TimerEntry entry) {
        return isFoundDue(wheel.run, entry);
    }

    /** Whether an entry is in the run and found due (SortedRun's R4). */
    static boolean isFoundDue(SortedRun run, TimerEntry entry) {
        int p = TimerEntry.IN_RUN - entry.location;
        return entry.location <= TimerEntry.IN_RUN && p < run.sortedLimit && run.deadlines[p] - run.dueUpTo <= 0;
    }

    /** A run's live entries not found due: the current slot's, sorted or not yet. */
    static int pendingCount(SortedRun run) {
        return run.pendingCount + run.newCount;
    }

    /** A run's compactions so far. */
    static int compactions(SortedRun run) {
        return run.compactions;
    }

    /** The wheel's radix sort counters: 257, or (once grown for 11-bit passes) 2049. */
    static int radixCounters(TimerWheel<?> wheel) {
        return wheel.run.radixCount.length;
    }
}
