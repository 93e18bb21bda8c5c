package io.timewheel.executor.internal.queue;

import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;
import java.util.concurrent.locks.LockSupport;

import static java.util.concurrent.TimeUnit.NANOSECONDS;

/**
 * A scheduled task: the future the caller holds, the runnable a worker runs, and the queue entry (so the
 * wheel node), in one object. This class runs a one-shot task and is the base of {@link PeriodicTask}.
 * Cancel from any thread is one CAS plus, if the tick thread had filed the task in the wheel, an Unlink
 * command (else an attempt to retract it from the tick thread's inbox): O(1), lock-free while the executor
 * runs, and, if the task was filed, the wheel lets it go as soon as the tick thread reads the command,
 * whatever the remove-on-cancel policy. Any thread.
 */
public class ScheduledTask<V> extends TaskEntry implements RunnableScheduledFuture<V> {
    /*
     * Implementation notes
     *
     * Future semantics are FutureTask's (same return values, interrupts, isDone/isCancelled, waiters); the
     * state word also records where the task is relative to its queue, so that leaving the queue and
     * starting to run are decided by the same CAS.
     *
     * state (any thread, via CAS; three writes are release stores by the thread that owns the state at that
     * point: markQueued before the task is published, COMPLETING -> NORMAL | EXCEPTIONAL, INTERRUPTING ->
     * INTERRUPTED):
     *   IDLE         not queued and not started: new, rejected, wrapped by a decorator (whose holder is
     *                queued instead), or removed by remove()/shutdownNow(); Future: not done
     *   QUEUED       in the queue, in the inbox or the ready queue (or between the wheel and the ready
     *                queue in a hand-over); Future: not done
     *   FILED        in the queue, in the wheel (the tick thread filed it)
     *   TAKEN        a worker took it off the queue and is about to run it
     *   RUNNING      run() in progress; outcome holds the runner thread
     *   COMPLETING   result being published
     *   NORMAL, EXCEPTIONAL, CANCELLED, INTERRUPTING, INTERRUPTED   as FutureTask
     * transitions:
     *   IDLE    -> QUEUED | RUNNING | CANCELLED | INTERRUPTING
     *   QUEUED  -> FILED (tick thread) | TAKEN | IDLE | RUNNING | CANCELLED | INTERRUPTING
     *   FILED   -> QUEUED (tick thread: due) | TAKEN | IDLE | RUNNING | CANCELLED | INTERRUPTING
     *   TAKEN   -> RUNNING | CANCELLED | INTERRUPTING
     *   RUNNING -> COMPLETING -> NORMAL | EXCEPTIONAL
     *   RUNNING -> CANCELLED | INTERRUPTING -> INTERRUPTED
     *   RUNNING -> QUEUED | IDLE                (periodic re-arm, see PeriodicTask; IDLE when decorated)
     * QUEUED and FILED are "in the queue". The thread that puts the task into the queue (IDLE or RUNNING to
     * QUEUED) has counted it in its queue first (TaskQueue.add, readd); the thread whose CAS takes it out of
     * the queue (QUEUED or FILED to any state but those) counts it out (TaskQueue.uncount; a cancel does it in
     * its one call to TaskQueue.cancelled, which also has the tick thread forget the task and tells the
     * executor). A cancel or removal that takes it out of FILED asks the tick thread to unlink it from the
     * wheel; one that takes it out of QUEUED needs no command (in the inbox, it is retracted if on top of the
     * caller's stripe, else the tick thread's tryFile fails and it drops the task; in the ready queue, it is
     * passed over when it comes to the head). A direct run (claimForRun) sends no command: a one-shot task
     * taken out of FILED stays in the wheel until it comes due (tryUnfile fails: the tick thread drops it) or
     * a snapshot finds it; a periodic one that is re-armed is re-filed (TaskQueue.readd).
     *
     * A task talks to its queue only. What STPE's task asks of its executor (may it run in the current run
     * state, the next fixed-delay time, re-queue me after a periodic run) it asks of its queue, which
     * declares those questions and leaves the answers to the executor (TaskQueue's abstract methods).
     *
     * outcome: the runner thread while RUNNING (published before the runner re-checks the state, so a
     * cancel(true) either sees the thread or the runner sees the cancel and never calls the task), then
     * the result or the Throwable; cleared when cancelled.
     * callable: the Runnable or Callable; cleared once done so the task does not pin user objects.
     *
     * Cold path. state, outcome and waiters are reached through field updaters (Unsafe underneath), not
     * VarHandles. Compiled by C2 both are the same instructions, but a cold JVM runs a task's schedule,
     * hand-over and run in the interpreter and in C1's profiled code for its first thousands of timers, where
     * a VarHandle call costs more than an updater's, and C2 compiles a VarHandle's linkage into every
     * caller (`punctuality cold` shows a fresh JVM's first timers). QueuedCount's and Sequencer's cells stay a
     * long[] with a VarHandle: cells as padded objects with updaters would cost the hot path
     * (ScheduleCancelBenchmark with -t 2 decides it).
     *
     * Layout with compressed oops: 12 header + 24 TimerEntry + 4 queue + 4 state + 4 callable + 4 outcome
     * + 4 waiters = 56 bytes per pending one-shot timer, its whole cost: the wheel and the inbox link the
     * entry itself (bench mode `memory` counts the bytes per pending timer).
     */

    static final int IDLE = 0;
    static final int QUEUED = 1;
    static final int FILED = 2;
    static final int TAKEN = 3;
    static final int RUNNING = 4;
    static final int COMPLETING = 5;
    static final int NORMAL = 6;
    static final int EXCEPTIONAL = 7;
    static final int CANCELLED = 8;
    static final int INTERRUPTING = 9;
    static final int INTERRUPTED = 10;

    /** See the state list above. Any thread, via CAS (and the release stores the notes list). */
    private volatile int state;
    /** Runnable or Callable; null once done. Written before publication and by the completing thread. */
    private Object callable;
    /**
     * Runner thread while RUNNING, then result or Throwable (see the notes). Written by the runner, the
     * completing thread or a cancel(true); read by any thread.
     */
    private volatile Object outcome;
    /** Treiber stack of threads waiting in get(). Any thread, via CAS. */
    private volatile WaitNode waiters;

    public ScheduledTask(TaskQueue queue, Object callable, long deadline) {
        super(queue, deadline);
        this.callable = callable;
    }

    /** A task with this sequence (a periodic task's, which it keeps for every run). */
    ScheduledTask(TaskQueue queue, Object callable, long deadline, int sequence) {
        super(queue, deadline, sequence);
        this.callable = callable;
    }

    // ---------------------------------------------------------------------------------------------
    // Queue membership (QueueEntry)

    @Override
    public final Runnable runnable() {
        return this;
    }

    /** The class of the Runnable or Callable it runs (its own once done). */
    @Override
    public final String taskClassName() {
        Object c = callable;
        return (c != null ? c : this).getClass().getName();
    }

    @Override
    public final boolean isQueued() {
        int s = state;
        return s == QUEUED || s == FILED;
    }

    @Override
    public final boolean tryFile() {
        // read first: an entry cancelled in the inbox costs the tick thread a shared read, not a failing CAS
        // that would take the cache line exclusive
        return state == QUEUED && STATE.compareAndSet(this, QUEUED, FILED);
    }

    @Override
    public final boolean tryUnfile() {
        return STATE.compareAndSet(this, FILED, QUEUED);
    }

    @Override
    public final boolean tryTake() {
        for (int s; (s = state) == QUEUED || s == FILED; ) {
            if (STATE.compareAndSet(this, s, TAKEN)) {
                queue.uncount();
                return true;
            }
        }
        return false;
    }

    @Override
    public final int tryRemove() {
        for (int s; (s = state) == QUEUED || s == FILED; ) {
            if (STATE.compareAndSet(this, s, IDLE)) {
                queue.uncount();
                return s == FILED ? REMOVED_UNLINK : REMOVED;
            }
        }
        return NOT_REMOVED;
    }

    /** Enqueue: IDLE to QUEUED, before the task is published. The caller has counted it. */
    @Override
    protected final void markQueued() {
        STATE.lazySet(this, QUEUED);
    }

    /** Periodic re-arm: RUNNING to QUEUED (or IDLE when a decorator's holder is queued instead). */
    @Override
    protected final boolean rearm(boolean queued) {
        return STATE.compareAndSet(this, RUNNING, queued ? QUEUED : IDLE);
    }

    // ---------------------------------------------------------------------------------------------
    // Delayed

    @Override
    public long getDelay(TimeUnit unit) {
        return unit.convert(nextDeadline() - queue.clock.nanoTime(), NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
        if (other == this) {
            return 0;
        }
        if (other instanceof ScheduledTask) {
            ScheduledTask<?> that = (ScheduledTask<?>) other;
            long diff = nextDeadline() - that.nextDeadline();
            if (diff != 0) {
                return diff < 0 ? -1 : 1;
            }
            int bySequence = Integer.compare(sequence(), that.sequence());
            return bySequence != 0 ? bySequence
                    : Integer.compare(System.identityHashCode(this), System.identityHashCode(that));
        }
        long diff = getDelay(NANOSECONDS) - other.getDelay(NANOSECONDS);
        return diff < 0 ? -1 : (diff > 0 ? 1 : 0);
    }

    @Override
    public boolean isPeriodic() {
        return false;
    }

    // ---------------------------------------------------------------------------------------------
    // Running

    @Override
    public void run() {
        if (beginRun() < 0) {
            return;
        }
        try {
            Object c = callable;
            if (c != null && state == RUNNING) {
                V result;
                try {
                    result = call(c);
                } catch (Throwable ex) {
                    setException(ex);
                    return;
                }
                set(result);
            }
        } finally {
            afterRun();
        }
    }

    /**
     * STPE's run prologue, for one-shot and periodic runs alike: cancels the task if the run state no longer
     * lets it run (canRunInCurrentRunState, as STPE's ScheduledFutureTask.run), else claims it (claimForRun).
     *
     * @return the state it was claimed from, or -1 if it is not to run
     */
    final int beginRun() {
        if (!queue.canRunInCurrentRunState(this)) {
            cancel(false);
            return -1;
        }
        return claimForRun();
    }

    /**
     * Claims the task for running: IDLE, QUEUED, FILED or TAKEN to RUNNING, publishing the runner thread.
     *
     * @return the state it was claimed from, or -1 if it can no longer run
     */
    final int claimForRun() {
        for (;;) {
            int s = state;
            if (s > TAKEN) {
                return -1;
            }
            if (STATE.compareAndSet(this, s, RUNNING)) {
                outcome = Thread.currentThread();
                if (s == QUEUED || s == FILED) {
                    queue.uncount();
                }
                return s;
            }
        }
    }

    /**
     * Runs a periodic body (unless {@code skipBody}: a missed run under PeriodicPolicy SKIP): true if it
     * completed normally, or its failure was reported and the task goes on ({@link #continueAfter}), and the
     * task is still RUNNING.
     */
    final boolean runAndReset(boolean skipBody) {
        boolean ran = false;
        try {
            Object c = callable;
            if (c != null && state == RUNNING) {
                if (skipBody) {
                    ran = true;
                } else {
                    try {
                        call(c);
                        ran = true;
                    } catch (Throwable ex) {
                        if (continueAfter(ex)) {
                            ran = true;
                        }
                    }
                }
            }
        } finally {
            int s = state;
            if (s == RUNNING) {
                outcome = null; // release the runner before re-arming
            } else {
                afterRun();
            }
        }
        return ran && state == RUNNING;
    }

    /**
     * A periodic run threw {@code ex} (on the thread that ran it): true if the task goes on (the failure was
     * reported), false if it stopped (its future now fails; this method has set the exception).
     */
    boolean continueAfter(Throwable ex) {
        setException(ex);
        return false;
    }

    /** After a run: waits out a cancel(true) in progress so its interrupt hits this run, and drops the runner. */
    private void afterRun() {
        int s = state;
        if (s == INTERRUPTING) {
            while (state == INTERRUPTING) {
                Thread.yield(); // the canceller is between interrupt() and INTERRUPTED: a few instructions
            }
        }
        if (state >= CANCELLED) {
            outcome = null;
        }
    }

    @SuppressWarnings("unchecked")
    private V call(Object c) throws Exception {
        if (c instanceof Callable) {
            return ((Callable<V>) c).call();
        }
        ((Runnable) c).run();
        return null;
    }

    private void set(V result) {
        if (STATE.compareAndSet(this, RUNNING, COMPLETING)) {
            OUTCOME.lazySet(this, result); // ordered before the state's release store, as a plain write was
            STATE.lazySet(this, NORMAL);
            finishCompletion();
        }
    }

    final void setException(Throwable ex) {
        if (STATE.compareAndSet(this, RUNNING, COMPLETING)) {
            OUTCOME.lazySet(this, ex);
            STATE.lazySet(this, EXCEPTIONAL);
            finishCompletion();
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Future

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        int s;
        do {
            s = state;
            if (s >= COMPLETING) {
                return false;
            }
        } while (!STATE.compareAndSet(this, s, mayInterruptIfRunning ? INTERRUPTING : CANCELLED));
        if (mayInterruptIfRunning) {
            try {
                if (s == RUNNING) {
                    Object runner = outcome;
                    if (runner instanceof Thread) {
                        ((Thread) runner).interrupt();
                    }
                }
            } finally {
                outcome = null;
                STATE.lazySet(this, INTERRUPTED);
            }
        }
        if (s == QUEUED || s == FILED) {
            queue.cancelled(this, s == FILED);
        }
        finishCompletion();
        return true;
    }

    @Override
    public boolean isCancelled() {
        return state >= CANCELLED;
    }

    @Override
    public boolean isDone() {
        return state >= COMPLETING;
    }

    @Override
    public V get() throws InterruptedException, ExecutionException {
        int s = state;
        if (s <= COMPLETING) {
            s = awaitDone(false, 0L);
        }
        return report(s);
    }

    @Override
    public V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        if (unit == null) {
            throw new NullPointerException();
        }
        int s = state;
        if (s <= COMPLETING && (s = awaitDone(true, unit.toNanos(timeout))) <= COMPLETING) {
            throw new TimeoutException();
        }
        return report(s);
    }

    @SuppressWarnings("unchecked")
    private V report(int s) throws ExecutionException {
        Object x = outcome;
        if (s == NORMAL) {
            return (V) x;
        }
        if (s >= CANCELLED) {
            throw new CancellationException();
        }
        throw new ExecutionException((Throwable) x);
    }

    /** Blocks until done, interrupted or timed out; returns the state seen last. */
    private int awaitDone(boolean timed, long nanos) throws InterruptedException {
        long startTime = 0L;
        WaitNode node = null;
        boolean queued = false;
        for (;;) {
            int s = state;
            if (s > COMPLETING) {
                if (node != null) {
                    node.thread = null;
                }
                return s;
            } else if (s == COMPLETING) {
                Thread.yield(); // the result is being published: a few instructions
            } else if (Thread.interrupted()) {
                removeWaiter(node);
                throw new InterruptedException();
            } else if (node == null) {
                if (timed && nanos <= 0L) {
                    return s;
                }
                node = new WaitNode();
            } else if (!queued) {
                node.next = waiters;
                queued = WAITERS.compareAndSet(this, node.next, node);
            } else if (timed) {
                long parkNanos;
                if (startTime == 0L) {
                    startTime = System.nanoTime();
                    if (startTime == 0L) {
                        startTime = 1L;
                    }
                    parkNanos = nanos;
                } else {
                    long elapsed = System.nanoTime() - startTime;
                    if (elapsed >= nanos) {
                        removeWaiter(node);
                        return state;
                    }
                    parkNanos = nanos - elapsed;
                }
                if (state < COMPLETING) {
                    LockSupport.parkNanos(this, parkNanos);
                }
            } else {
                LockSupport.park(this);
            }
        }
    }

    private void removeWaiter(WaitNode node) {
        if (node == null) {
            return;
        }
        node.thread = null;
        retry:
        for (;;) {
            for (WaitNode pred = null, q = waiters, s; q != null; q = s) {
                s = q.next;
                if (q.thread != null) {
                    pred = q;
                } else if (pred != null) {
                    pred.next = s;
                    if (pred.thread == null) {
                        continue retry; // pred was removed concurrently: start over
                    }
                } else if (!WAITERS.compareAndSet(this, q, s)) {
                    continue retry;
                }
            }
            break;
        }
    }

    private void finishCompletion() {
        for (WaitNode q; (q = waiters) != null; ) {
            if (WAITERS.compareAndSet(this, q, null)) {
                for (;;) {
                    Thread t = q.thread;
                    if (t != null) {
                        q.thread = null;
                        LockSupport.unpark(t);
                    }
                    WaitNode next = q.next;
                    if (next == null) {
                        break;
                    }
                    q.next = null;
                    q = next;
                }
                break;
            }
        }
        callable = null;
    }

    @Override
    public String toString() {
        String status;
        switch (state) {
            case NORMAL:
                status = "[Completed normally]";
                break;
            case EXCEPTIONAL:
                status = "[Completed exceptionally: " + outcome + "]";
                break;
            case CANCELLED:
            case INTERRUPTING:
            case INTERRUPTED:
                status = "[Cancelled]";
                break;
            default:
                Object c = callable;
                status = c == null ? "[Not completed]" : "[Not completed, task = " + c + "]";
        }
        return super.toString() + status;
    }

    static final class WaitNode {
        volatile Thread thread = Thread.currentThread();
        volatile WaitNode next;
    }

    // Field updaters, not VarHandles (the notes, "Cold path").
    private static final AtomicIntegerFieldUpdater<ScheduledTask> STATE =
            AtomicIntegerFieldUpdater.newUpdater(ScheduledTask.class, "state");
    private static final AtomicReferenceFieldUpdater<ScheduledTask, Object> OUTCOME =
            AtomicReferenceFieldUpdater.newUpdater(ScheduledTask.class, Object.class, "outcome");
    private static final AtomicReferenceFieldUpdater<ScheduledTask, WaitNode> WAITERS =
            AtomicReferenceFieldUpdater.newUpdater(ScheduledTask.class, WaitNode.class, "waiters");
}
