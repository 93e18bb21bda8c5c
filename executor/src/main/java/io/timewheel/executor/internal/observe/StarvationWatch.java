package io.timewheel.executor.internal.observe;

import io.timewheel.executor.internal.Log;
import io.timewheel.executor.internal.LowBound;
import io.timewheel.executor.internal.pool.WorkerPool;
import io.timewheel.executor.internal.queue.ReadyQueue;
import io.timewheel.executor.internal.tick.TickThread;
import io.timewheel.executor.jfr.Jfr;

import java.util.concurrent.ForkJoinPool;

/**
 * The opt-in starvation warning of one executor (builder {@code starvationWarning}): the tick thread looks at
 * the executor's ready queue when its oldest task could have waited the late threshold past its deadline,
 * and if it has while no worker was idle, says so through System.Logger, at most once per {@link #QUIET_NANOS}.
 * Tick thread only, except the immutable configuration.
 */
public final class StarvationWatch implements TickThread.Watch, ReadyQueue.PushWatch {
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

    private final ReadyQueue ready;
    private final WorkerPool pool;
    private final TickThread tick;
    private final String executorName;
    private final long thresholdNanos;
    /**
     * When it looks next (see the notes). Any thread: lowered by pushers (CAS), raised by the tick thread after
     * a look (CAS from the value it read before the look, so that a pusher's lowering meanwhile stays).
     */
    private final LowBound lookAt;
    /** No warning before this time (the rate limit). Written by the tick thread, read by pushers. */
    private volatile long quietUntil;
    /** Scratch for the scan. Tick thread only. */
    private final ReadyQueue.Overdue scan = new ReadyQueue.Overdue();

    /**
     * Watches {@code ready}, whose workers are {@code pool}'s, on {@code tick}; register it with both (as a
     * PushWatch and a Watch) before the executor is used.
     */
    public StarvationWatch(ReadyQueue ready, WorkerPool pool, TickThread tick, String executorName,
                           long thresholdNanos, long now) {
        this.ready = ready;
        this.pool = pool;
        this.tick = tick;
        this.executorName = executorName;
        this.thresholdNanos = thresholdNanos;
        this.lookAt = new LowBound(never(now));
        this.quietUntil = now;
    }

    /** A look time that means none (TickThread.Watch): as far ahead as nanoTime arithmetic reaches. */
    private static long never(long now) {
        return now + Long.MAX_VALUE;
    }

    /** A push into the watched ready queue: look by that entry's deadline + the threshold. Pushing thread. */
    @Override
    public void pushed(long deadline) {
        long t = deadline + thresholdNanos;
        long quiet = quietUntil;
        if (t - quiet < 0) {
            t = quiet; // it could not speak before then anyway
        }
        if (t - lookAt.get() < 0) {
            lookAt.lower(t);
            tick.wakeBy(t);
        }
    }

    /** Whether its executor has terminated (the tick thread stops watching). */
    @Override
    public boolean retired() {
        return pool.isTerminated();
    }

    /** Looks if it is time, warns if it must, and returns when it wants to look next. Tick thread only. */
    @Override
    public long look(long now) {
        long seen = lookAt.get();
        if (now - seen < 0) {
            return seen;
        }
        ready.scan(now, scan);
        long next;
        if (scan.count > 0 && now - scan.oldestDeadline >= thresholdNanos && scan.idleWorkers == 0) {
            if (now - quietUntil >= 0) {
                warn(now);
                quietUntil = now + QUIET_NANOS;
            }
            next = quietUntil; // starving: it may speak again then
        } else if (scan.count > 0) {
            next = scan.oldestDeadline + thresholdNanos;
            if (next - now <= 0) {
                next = now + thresholdNanos; // waited long enough, but a worker is idle: it is about to take it
            }
        } else if (scan.any) {
            next = scan.earliestDeadline + thresholdNanos;
        } else {
            next = never(now); // nothing here: the next push says when to look
        }
        if (next - quietUntil < 0) {
            next = quietUntil;
        }
        scan.oldest = null; // do not keep a task reachable between looks
        lookAt.raise(seen, next); // fails if a pusher lowered it meanwhile: its time stays
        return lookAt.get();
    }

    private void warn(long now) {
        int workers = pool.workerCount();
        long overdue = scan.count;
        long lateness = now - scan.oldestDeadline;
        if (Jfr.recording()) {
            Jfr.taskLate(executorName, scan.oldest.taskClassName(), scan.oldestDeadline, lateness,
                    Jfr.handOver(scan.oldestDeadline, scan.oldestReadyAt, lateness), false, workers, scan.idleWorkers);
        }
        String message = overdue + (overdue == 1 ? " task" : " tasks") + " of executor " + executorName
                + (overdue == 1 ? " is" : " are") + " overdue (oldest " + lateness / 1_000_000L + " ms): all " + workers
                + (workers == 1 ? " worker" : " workers") + " busy";
        try {
            ForkJoinPool.commonPool().execute(() -> Log.LOG.log(System.Logger.Level.WARNING, message));
        } catch (RuntimeException rejected) {
            // the common pool refused (it never does, unless being shut down with the JVM): no warning
        }
    }
}
