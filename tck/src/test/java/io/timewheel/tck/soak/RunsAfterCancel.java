package io.timewheel.tck.soak;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether a task's body started after a {@code cancel} of its future had returned true, told apart from the
 * race that FutureTask allows. One per task: the body calls {@link #ticket()} as its first action and then
 * {@link #started}; whoever's cancel returned true calls {@link #cancelReturnedTrue} right after; the
 * beforeExecute hook of a subclass, if any, calls {@link #beforeExecuteReturning()} as its last action. Read
 * with {@link #violation()} once the executor has terminated. Used by the soak suite and by StressTest.
 */
public final class RunsAfterCancel {
    /*
     * Implementation notes
     *
     * One counter orders events of different threads: a body takes a ticket as its first action, a
     * canceller takes one right after its cancel returned true, a beforeExecute hook takes one as its last
     * action. Ticket a < ticket b means a's increment came first in the counter's order, so what a's thread
     * did before a happens-before what b's thread does after b.
     *
     * A start whose ticket is above the cancel's is not a broken promise by itself. FutureTask (and the wheel's
     * ScheduledTask) decide to run by a state check and then call the body; a cancel that lands between the
     * check and the body's first instruction returns true, and the body starts after the cancel returned.
     * That is the legal race: the run was committed to before the cancel. It is counted (startedAfterCancel),
     * and forbidden only where it cannot be that race:
     *   1. the run was not due when the cancel returned (its earliest start, a lower bound of the executor's
     *      own trigger time, is at or after that instant): no state check could come before the cancel
     *      without an early start;
     *   2. the cancel was cancel(true) and the body does not see its thread interrupted: in the race the
     *      runner thread is published before the state check (FutureTask.run's runner CAS; ScheduledTask.
     *      claimForRun), the cancel reads it after its own CAS and interrupts it before returning, and nothing
     *      clears the interrupt between the check and the body (workers clear stale interrupts before
     *      beforeExecute). A stale interrupt can only hide a violation, never invent one;
     *   3. the beforeExecute hook for this run returned after the cancel did: run() had not been called when
     *      the cancel returned, so its state check saw the cancel;
     *   4. an earlier run also started after the cancel: the race covers one run at most.
     *
     * The body's fields are written by its runs, which never overlap and each happen-before the next (both
     * checked elsewhere); the cancel's once, by the one cancel that returned true; all are read after the
     * executor terminated.
     */

    private static final AtomicLong TICKETS = new AtomicLong();
    /** Per worker thread: the ticket its last beforeExecute took on returning, 0 once a body read it. */
    private static final ThreadLocal<long[]> BEFORE_EXECUTE = ThreadLocal.withInitial(() -> new long[1]);

    // The latest run and the one before it (see the notes).
    private long lastStart;
    private long previousStart;
    private long lastReference;
    private long lastNeeded;
    private boolean lastInterrupted;
    private long lastBeforeExecute;
    private int starts;

    // The cancel that returned true, if any; guarded by this.
    private long cancelTicket;
    private long cancelReturned;
    private boolean cancelInterrupts;

    /** The body's first action: a ticket for {@link #started}. */
    public static long ticket() {
        return TICKETS.incrementAndGet();
    }

    /** The last action of a subclass's beforeExecute: the body this thread runs next knows run() came after. */
    public static void beforeExecuteReturning() {
        BEFORE_EXECUTE.get()[0] = TICKETS.incrementAndGet();
    }

    /**
     * Records a start, from the body (after {@link #ticket()}, which must be its first action). The run's
     * earliest start is {@code reference + needed} (System.nanoTime(), {@code needed} saturated, never
     * negative): a lower bound of the executor's own trigger time for this run.
     */
    public void started(long ticket, long reference, long needed) {
        long[] before = BEFORE_EXECUTE.get();
        previousStart = lastStart;
        lastStart = ticket;
        lastReference = reference;
        lastNeeded = needed;
        lastInterrupted = Thread.currentThread().isInterrupted(); // after the ticket: sees a cancel's interrupt
        lastBeforeExecute = before[0];
        before[0] = 0;
        starts++;
    }

    /** Call right after {@code cancel(mayInterrupt)} returned true. A second true (itself wrong) is ignored. */
    public void cancelReturnedTrue(boolean mayInterrupt) {
        long returned = System.nanoTime();
        long ticket = TICKETS.incrementAndGet();
        synchronized (this) {
            if (cancelTicket == 0) {
                cancelTicket = ticket;
                cancelReturned = returned;
                cancelInterrupts = mayInterrupt;
            }
        }
    }

    /** Whether a run started after the successful cancel returned (the legal race, or a violation). */
    public synchronized boolean startedAfterCancel() {
        return cancelTicket != 0 && lastStart > cancelTicket;
    }

    /** Null, or why a run that started after the successful cancel returned cannot have been the legal race. */
    public synchronized String violation() {
        if (!startedAfterCancel()) {
            return null;
        }
        String why;
        if (previousStart > cancelTicket) {
            why = "two runs started after it";
        } else if (lastNeeded >= cancelReturned - lastReference) {
            why = "the run was due " + lastNeeded + " ns after its reference instant, the cancel returned "
                    + (cancelReturned - lastReference) + " ns after it";
        } else if (cancelInterrupts && !lastInterrupted) {
            why = "it was cancel(true), yet the body's thread was not interrupted";
        } else if (lastBeforeExecute > cancelTicket) {
            why = "beforeExecute for the run returned after it";
        } else {
            return null;
        }
        return "started after cancel(" + cancelInterrupts + ") returned true (" + why + "; start #" + starts
                + ", tickets: start " + lastStart + ", cancel " + cancelTicket + ", beforeExecute "
                + lastBeforeExecute + ")";
    }
}
