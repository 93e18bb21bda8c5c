package io.timewheel.tck.soak;

import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An instrumented task: the body checks, at each start, the promises that can be checked from inside (not
 * before its deadline, no overlap with its own previous run, no start after the task was taken out or after
 * it threw), records its start for {@link RunsAfterCancel} (no start after a cancel returned true, but for
 * FutureTask's race), and does what its plan says (cancel itself or another task, schedule another task,
 * purge or query and edit an executor's queue, throw; on a subclass, be cancelled by beforeExecute). The plan
 * is drawn from the producer's seeded random when the task is made. Flags the callers set (taken) are
 * written after the call returned, so a body that sees one started after that call.
 */
final class SoakTask implements Runnable, Callable<Object> {
    enum Kind {
        SCHEDULE_RUNNABLE, SCHEDULE_CALLABLE, FIXED_RATE, FIXED_DELAY, SUBMIT_RUNNABLE, SUBMIT_RESULT,
        SUBMIT_CALLABLE, EXECUTE, INVOKE_ALL, INVOKE_ANY;

        boolean periodic() {
            return this == FIXED_RATE || this == FIXED_DELAY;
        }

        /** Whether the future's get() returns the task itself (else null). */
        boolean returnsTask() {
            return this == SCHEDULE_CALLABLE || this == SUBMIT_RESULT || this == SUBMIT_CALLABLE
                    || this == INVOKE_ALL || this == INVOKE_ANY;
        }
    }

    /** The exception a task throws when its plan says so. */
    static final class Planned extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int id;

        Planned(int id) {
            super("planned failure of task " + id, null, false, false);
            this.id = id;
        }
    }

    final int id;
    final Kind kind;
    final SoakExecutor owner;
    final SoakRound round;
    final Delays.Delay delay;
    final Delays.Delay period; // null for one-shots
    final long delayNanos;     // >= 0, saturated
    final long periodNanos;    // > 0 for periodic tasks
    /** System.nanoTime() just before the scheduling call: the earliest start is accept + delayNanos. */
    final long accept;

    // The plan: run numbers (0-based) at which to act, or -1.
    int throwAt = -1;
    int selfCancelAt = -1;
    boolean selfCancelInterrupts;
    int otherCancelAt = -1;
    long otherPick;
    int nestAt = -1;
    long nestSeed;
    int queueOpAt = -1;
    long queueOpSeed;
    /** On a subclass: the run whose beforeExecute cancels the task (SoakHooks). */
    int cancelBeforeRunAt = -1;
    boolean cancelBeforeRunInterrupts;

    /** Set by the producer after the scheduling call returned. */
    volatile Future<?> future;
    volatile boolean rejected;
    volatile long callEnd;
    volatile boolean accepted;

    // Outcomes, written by callers after their call returned.
    volatile boolean cancelReturnedTrue;
    /** Taken out of the queue for sure: remove()/poll/drainTo returned it, or shutdownNow did. */
    volatile boolean taken;
    volatile boolean returnedByShutdownNow;
    /** The iterator's remove() was called on it: it may have been taken out. */
    volatile boolean maybeTaken;

    // What the body saw.
    final AtomicInteger runs = new AtomicInteger();
    private final AtomicBoolean running = new AtomicBoolean();
    final AtomicInteger overlaps = new AtomicInteger();
    final AtomicInteger early = new AtomicInteger();
    /** Starts against the cancel that returned true, if any (written by the body and by that canceller). */
    final RunsAfterCancel afterCancel = new RunsAfterCancel();
    final AtomicInteger startsAfterTaken = new AtomicInteger();
    final AtomicInteger startsAfterThrow = new AtomicInteger();
    volatile boolean threw;
    private volatile long lastEnd;
    volatile String earlyDetail;
    /** Diagnostics: the cancel calls made on it and their results. */
    private final StringBuffer cancels = new StringBuffer();

    SoakTask(int id, Kind kind, SoakExecutor owner, SoakRound round, Delays.Delay delay, Delays.Delay period,
             long accept) {
        this.id = id;
        this.kind = kind;
        this.owner = owner;
        this.round = round;
        this.delay = delay;
        this.period = period;
        this.delayNanos = delay.nanos();
        this.periodNanos = period == null ? 0 : period.nanos();
        this.accept = accept;
    }

    @Override
    public void run() {
        body();
    }

    @Override
    public Object call() {
        body();
        return this;
    }

    private void body() {
        long ticket = RunsAfterCancel.ticket(); // first: orders this start against a cancel's return
        long start = System.nanoTime();
        Thread me = Thread.currentThread();
        owner.bodyStarted(me, this);
        try {
            if (!running.compareAndSet(false, true)) {
                overlaps.incrementAndGet();
            }
            int k = runs.getAndIncrement();
            checkStart(ticket, start, k);
            if (taken) {
                startsAfterTaken.incrementAndGet();
            }
            if (threw) {
                startsAfterThrow.incrementAndGet();
            }
            owner.bodyRuns.increment();
            round.tally.runs.increment();
            if (k == selfCancelAt) {
                round.cancel(this, selfCancelInterrupts, "task " + id + " cancelling itself");
            }
            if (k == otherCancelAt) {
                SoakTask other = round.pick(otherPick);
                if (other != null) {
                    round.cancel(other, (otherPick & 1) == 0, "task " + id + " cancelling task " + other.id);
                }
            }
            if (k == nestAt) {
                round.nest(nestSeed, id);
            }
            if (k == queueOpAt) {
                round.queueOpFromTask(queueOpSeed, id);
            }
            boolean fail = k == throwAt;
            if (fail) {
                threw = true;
            }
            lastEnd = System.nanoTime();
            running.set(false);
            if (fail) {
                throw new Planned(id);
            }
        } finally {
            owner.bodyEnded(me, this);
        }
    }

    /**
     * The k-th run (0-based) must not start before its earliest instant, reference + needed (elapsed times
     * never overflow); records the start, with that instant, against a cancel.
     */
    private void checkStart(long ticket, long start, int k) {
        long reference;
        long needed;
        if (kind == Kind.FIXED_DELAY && k > 0) {
            reference = lastEnd;
            needed = periodNanos;
        } else {
            reference = accept;
            needed = kind == Kind.FIXED_RATE ? Delays.add(delayNanos, Delays.multiply(k, periodNanos)) : delayNanos;
        }
        afterCancel.started(ticket, reference, needed);
        long elapsed = start - reference;
        if (elapsed < needed) {
            early.incrementAndGet();
            earlyDetail = "run " + k + " started " + elapsed + " ns after its reference instant, needed " + needed;
        }
    }

    void cancelled(String who, boolean mayInterrupt, boolean result) {
        if (cancels.length() < 400) {
            cancels.append(who).append(": cancel(").append(mayInterrupt).append(")=").append(result).append("; ");
        }
    }

    /** What get() returns when the task completed normally. */
    Object expectedResult() {
        return kind.returnsTask() ? this : null;
    }

    /** Checks a done, not cancelled future of this task: its result (or failure) must be this task's own. */
    void checkOutcome(Future<?> f, String what, Violations violations) {
        try {
            Object v = f.get();
            if (kind.periodic()) {
                violations.add(what + ": a periodic task's future completed normally (get() returned " + v
                        + "): " + describe());
            } else if (v != expectedResult() || runs.get() != 1 || threw) {
                violations.add(what + ": get() returned " + v + ", expected " + expectedResult()
                        + " after one run that did not throw: " + describe());
            }
        } catch (ExecutionException x) {
            if (!(x.getCause() instanceof Planned p && p.id == id && threw)) {
                violations.add(what + ": ExecutionException with cause " + x.getCause() + " for " + describe());
            }
        } catch (CancellationException x) {
            violations.add(what + ": get() threw CancellationException though isCancelled() was false: "
                    + describe());
        } catch (InterruptedException x) {
            // Only a get() that waits checks for interrupts (FutureTask.awaitDone), and this future is done.
            violations.add(what + ": get() of a done future threw InterruptedException: " + describe());
            Thread.currentThread().interrupt(); // the caller's thread was interrupted: keep it so
        }
    }

    @Override
    public String toString() {
        return "SoakTask " + id;
    }

    String describe() {
        Future<?> f = future;
        return "task " + id + " " + kind + " on " + owner + " delay=" + delay
                + (period != null ? " period=" + period : "") + " runs=" + runs.get()
                + (rejected ? " rejected" : "") + (cancelReturnedTrue ? " cancelReturnedTrue" : "")
                + (taken ? " taken" : "") + (returnedByShutdownNow ? " returnedByShutdownNow" : "")
                + (maybeTaken ? " maybeTaken" : "") + (threw ? " threw" : "")
                + (f != null ? " done=" + f.isDone() + " cancelled=" + f.isCancelled() : " no future")
                + " plan[throwAt=" + throwAt + " selfCancelAt=" + selfCancelAt + " otherCancelAt=" + otherCancelAt
                + " nestAt=" + nestAt + " queueOpAt=" + queueOpAt + " cancelBeforeRunAt=" + cancelBeforeRunAt + "]" + (cancels.length() > 0 ? " cancels[" + cancels + "]" : "");
    }
}
