package io.timewheel.executor;

import java.util.concurrent.ForkJoinPool;

/**
 * The opt-in starvation warning of one executor (builder {@code starvationWarning}): the tick thread looks at
 * the executor's ready queue when its oldest task could have waited the late threshold past its deadline,
 * and if it has while no worker was idle, says so through System.Logger, at most once per {@link #QUIET_NANOS}.
 * Tick thread only, except the immutable configuration.
 */
final class StarvationWatch {
    /*
     * Implementation notes
     *
     * Who looks, and why the tick thread. A starved executor is one whose workers are all busy: no worker is
     * free to notice that a task is overdue (in spring-framework#33856's case, a pool of one running a 5 s task
     * while a 1 s fixed-rate task waits: a check by the worker that starts a late task would speak 4 s late).
     * The tick thread is awake anyway for deadlines, sleeps until the next one, and already owns a wake-up
     * schedule; a watched executor adds one time to it (check's answer). It never runs user code and never
     * blocks here: the look is ReadyQueue.scan (under the ready queue's lock, held by workers only for short
     * sections; O(overdue entries)), the worker count is ctl's (no lock), and the log call, which may run a
     * logging backend's code (user code, possibly blocking I/O), is handed to the common pool; only the JFR
     * TaskLate event (JFR never blocks a committer) is committed here.
     *
     * When it looks (check returns the time, at which TickThread wakes it):
     *   - the oldest task in the ready queue is due at d: look at d + threshold (it cannot have waited the
     *     threshold before), or, if that passed and a worker is idle (it is about to take it), a threshold later;
     *   - nothing due but some entry queued there: its deadline + threshold;
     *   - in any case no later than RECHECK_NANOS (or the threshold, if longer) from now: a producer may push a
     *     task straight into the ready queue without telling the tick thread (TaskQueue.dispatch), so an
     *     executor with no hand-overs pending is looked at that often. This is the watch's idle cost: one
     *     wake-up per second per watched executor while nothing is due;
     *   - after a warning: not before QUIET_NANOS (the rate limit).
     * A warning needs an overdue task that has waited the threshold or more and no idle worker (ReadyQueue's
     * waiting count; ctl's worker count is the K of "all K workers busy").
     *
     * Ownership: every mutable field (nextCheck, scan) is the tick thread's; the rest is immutable.
     */

    /** At most one warning per executor per 10 s (10^10 ns). */
    static final long QUIET_NANOS = 10_000_000_000L;
    /** Looked at at least once a second (10^9 ns) while the watch runs, or once per threshold if longer. */
    static final long RECHECK_NANOS = 1_000_000_000L;

    private final TaskQueue queue;
    private final String executorName;
    private final long thresholdNanos;
    private final long recheckNanos;
    /** When it looks next. Tick thread only. */
    private long nextCheck;
    /** Scratch for the scan. Tick thread only. */
    private final ReadyQueue.Overdue scan = new ReadyQueue.Overdue();

    StarvationWatch(TaskQueue queue, String executorName, long thresholdNanos, long now) {
        this.queue = queue;
        this.executorName = executorName;
        this.thresholdNanos = thresholdNanos;
        this.recheckNanos = Math.max(thresholdNanos, RECHECK_NANOS);
        this.nextCheck = now;
    }

    /** Whether its executor has terminated (the tick thread stops watching). */
    boolean retired() {
        return queue.isTerminated();
    }

    /**
     * Looks if it is time, warns if it must, and returns when it wants to look next. Tick thread only.
     */
    long check(long now) {
        if (now - nextCheck < 0) {
            return nextCheck;
        }
        queue.ready.scan(now, scan);
        long next;
        if (scan.count > 0 && now - scan.oldestDeadline >= thresholdNanos && scan.idleWorkers == 0) {
            warn(now);
            next = now + QUIET_NANOS;
        } else {
            next = now + recheckNanos;
            long candidate;
            if (scan.count > 0) {
                candidate = scan.oldestDeadline + thresholdNanos;
            } else if (scan.any) {
                candidate = scan.earliestDeadline + thresholdNanos;
            } else {
                candidate = next;
            }
            if (candidate - now <= 0) {
                candidate = now + thresholdNanos; // waited long enough, but a worker is idle: it is about to take it
            }
            if (candidate - next < 0) {
                next = candidate;
            }
        }
        scan.oldest = null; // do not keep a task reachable between looks
        nextCheck = next;
        return next;
    }

    private void warn(long now) {
        int workers = queue.workerCount();
        long overdue = scan.count;
        long oldestMillis = (now - scan.oldestDeadline) / 1_000_000L;
        if (Jfr.recording()) {
            Jfr.taskWaiting(executorName, scan.oldest, scan.oldestDeadline, scan.oldestReadyAt, now, workers,
                    scan.idleWorkers);
        }
        String message = overdue + (overdue == 1 ? " task" : " tasks") + " of executor " + executorName
                + (overdue == 1 ? " is" : " are") + " overdue (oldest " + oldestMillis + " ms): all " + workers
                + (workers == 1 ? " worker" : " workers") + " busy";
        try {
            ForkJoinPool.commonPool().execute(() -> Log.LOG.log(System.Logger.Level.WARNING, message));
        } catch (RuntimeException rejected) {
            // the common pool refused (it never does, unless being shut down with the JVM): no warning
        }
    }
}
