package io.timewheel.executor.internal.pool;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The run state and the worker count of a {@link WorkerPool}, packed in one atomic word: ThreadPoolExecutor's
 * ctl, its encoding and its reads. WorkerPool extends it, so the word is a field of the pool itself (no
 * object between the pool and its ctl). Any thread.
 */
public abstract class RunState {
    /*
     * Implementation notes
     *
     * The word (ctl), as ThreadPoolExecutor packs it: the run state in the high 3 bits, the worker count in
     * the low 29. The run states are ordered numerically, so that "at least SHUTDOWN" is one comparison, and
     * the word only ever moves forward through them:
     *   RUNNING -> SHUTDOWN           shutdown()
     *   RUNNING | SHUTDOWN -> STOP    shutdownNow()
     *   SHUTDOWN -> TIDYING           queue and pool empty, no dispatched run in flight (WorkerPool.tryTerminate)
     *   STOP -> TIDYING               pool empty, no dispatched run in flight (WorkerPool.tryTerminate)
     *   TIDYING -> TERMINATED         after terminated() has returned or thrown (WorkerPool.tryTerminate)
     * advanceRunState makes the first two (a CAS loop that never moves the state back and keeps the count);
     * the other three are WorkerPool.tryTerminate's, under its mainLock. The worker count moves in WorkerPool:
     * up by CAS (addWorker), down by CAS (getTask's exit of a surplus or timed-out worker) or by decrement (a
     * worker that failed to start, that leaves getTask on shutdown, or whose task threw).
     *
     * This class holds the word and says what it means; it decides nothing. Who moves the state, when, and
     * under which lock is WorkerPool's business, as in TPE, where ctl and its helpers are a few lines at the
     * top of the class.
     *
     * Ownership: ctl any thread, via CAS (or an atomic decrement of the count; one volatile set, to
     * TERMINATED, by the thread whose CAS moved it to TIDYING).
     */

    /** Bits of the worker count: 29. */
    static final int COUNT_BITS = Integer.SIZE - 3;
    /** The worker count's bits: at most 2^29 - 1 (about 536 million) workers. */
    static final int COUNT_MASK = (1 << COUNT_BITS) - 1;
    // The run states, in the high 3 bits, in the order the word goes through them
    static final int RUNNING = -1 << COUNT_BITS;
    static final int SHUTDOWN = 0;
    static final int STOP = 1 << COUNT_BITS;
    static final int TIDYING = 2 << COUNT_BITS;
    static final int TERMINATED = 3 << COUNT_BITS;

    /** Run state and worker count. Any thread, via CAS. */
    final AtomicInteger ctl = new AtomicInteger(RUNNING);

    static int workerCountOf(int c) {
        return c & COUNT_MASK;
    }

    static int ctlOf(int runState, int workerCount) {
        return runState | workerCount;
    }

    static boolean runStateLessThan(int c, int s) {
        return c < s;
    }

    static boolean runStateAtLeast(int c, int s) {
        return c >= s;
    }

    static boolean isRunning(int c) {
        return c < SHUTDOWN;
    }

    public boolean isRunning() {
        return isRunning(ctl.get());
    }

    public boolean isShutdown() {
        return runStateAtLeast(ctl.get(), SHUTDOWN);
    }

    /** At least STOP: no queued task may run any more. */
    public boolean isStopped() {
        return runStateAtLeast(ctl.get(), STOP);
    }

    /** At least TIDYING: no worker is left and none can be added, so nothing queued will ever run. */
    public boolean isTidying() {
        return runStateAtLeast(ctl.get(), TIDYING);
    }

    public boolean isTerminating() {
        int c = ctl.get();
        return runStateAtLeast(c, SHUTDOWN) && runStateLessThan(c, TERMINATED);
    }

    public boolean isTerminated() {
        return runStateAtLeast(ctl.get(), TERMINATED);
    }

    /**
     * The worker count (ctl's), without a lock: for the statistics and the starvation watch, which must not
     * block. Any thread.
     */
    public int workerCount() {
        return workerCountOf(ctl.get());
    }

    /** Moves the run state to {@code targetState} unless it is there or beyond already; keeps the count. */
    void advanceRunState(int targetState) {
        for (;;) {
            int c = ctl.get();
            if (runStateAtLeast(c, targetState) || ctl.compareAndSet(c, ctlOf(targetState, workerCountOf(c)))) {
                break;
            }
        }
    }
}
