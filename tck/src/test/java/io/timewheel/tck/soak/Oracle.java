package io.timewheel.tck.soak;

import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * The accounting at the end of a round, once every executor has terminated: every task has exactly one
 * fate, and each executor's final state is consistent. See {@link SoakTest} for the list of promises.
 */
final class Oracle {
    private final SoakRound round;
    private final Violations violations;
    private final Tally tally;
    /**
     * Per executor: one-shot tasks the executor cancelled that neither raced a shutdown nor may have been
     * dropped by a shutdown pass under a false delayed-task policy. STPE does that to a task a worker had
     * already taken from the queue when shutdownNow came (ScheduledFutureTask.run: canRunInCurrentRunState is
     * false once the pool is STOP, so it cancels instead of running): at most one per worker that may have
     * held one when the pool stopped (SoakExecutor.mayHoldAtStop).
     */
    private long[] stoppedBeforeRun;

    Oracle(SoakRound round) {
        this.round = round;
        this.violations = round.violations;
        this.tally = round.tally;
    }

    void account() {
        long[] unknownTaken = new long[round.executors.size()];
        long[] unknownMaybe = new long[round.executors.size()];
        resolve(unknownTaken, unknownMaybe);
        stoppedBeforeRun = new long[round.executors.size()];
        long[] executeNotRun = new long[round.executors.size()];
        for (int id = 0; id < round.taskCount(); id++) {
            SoakTask t = round.task(id);
            if (t != null && account(t)) {
                executeNotRun[t.owner.index]++;
            }
        }
        for (SoakExecutor ex : round.executors) {
            checkExecutor(ex, executeNotRun[ex.index], unknownTaken[ex.index], unknownMaybe[ex.index],
                    stoppedBeforeRun[ex.index]);
        }
    }

    /** Sets the flags of known tasks that were taken out before their future was registered. */
    private void resolve(long[] unknownTaken, long[] unknownMaybe) {
        for (SoakExecutor ex : round.executors) {
            for (Object e : round.returnedElements.get(ex.index)) {
                SoakTask t = round.taskOf(e);
                if (t == null) {
                    unknownTaken[ex.index]++;
                } else {
                    t.returnedByShutdownNow = true;
                    t.taken = true;
                }
            }
            for (Object e : round.takenElements.get(ex.index)) {
                SoakTask t = round.taskOf(e);
                if (t == null) {
                    unknownTaken[ex.index]++;
                } else {
                    t.taken = true;
                }
            }
            for (Object e : round.maybeTakenElements.get(ex.index)) {
                SoakTask t = round.taskOf(e);
                if (t == null) {
                    unknownMaybe[ex.index]++;
                } else {
                    t.maybeTaken = true;
                }
            }
        }
    }

    /** Checks one task's fate; returns true for an execute()d command that never ran and did not race a shutdown. */
    private boolean account(SoakTask t) {
        int runs = t.runs.get();
        violations.check(t.early.get() == 0, t, "started before its deadline: " + t.earlyDetail + ": ");
        violations.check(t.overlaps.get() == 0, t, "overlapping runs: ");
        violations.check(t.startsAfterTaken.get() == 0, t, "ran after it was taken out of the queue: ");
        violations.check(t.startsAfterThrow.get() == 0, t, "ran again after it threw: ");
        String afterCancel = t.afterCancel.violation();
        if (afterCancel != null) {
            violations.add(afterCancel + ": " + t.describe());
        } else if (t.afterCancel.startedAfterCancel()) {
            tally.startedAfterCancel.increment(); // FutureTask's race: the run was committed to before the cancel
        }
        if (!t.kind.periodic()) {
            violations.check(runs <= 1, t, "a one-shot task ran " + runs + " times: ");
        }
        if (t.rejected) {
            tally.rejected.increment();
            violations.check(runs == 0, t, "rejected yet ran: ");
            return false;
        }
        Future<?> f = t.future;
        if (t.kind == SoakTask.Kind.INVOKE_ALL || t.kind == SoakTask.Kind.INVOKE_ANY) {
            if (f != null && f.isDone() && !f.isCancelled()) {
                t.checkOutcome(f, "invokeAll task", violations);
            }
            return false; // invokeAny's futures are internal, and a call that threw cancelled its own
        }
        if (!t.accepted) {
            return false; // the scheduling call threw something else: already a violation
        }
        if (t.kind == SoakTask.Kind.EXECUTE) {
            if (runs == 0) {
                tally.executeNotRun.increment();
                return !t.owner.racedShutdown(t.callEnd);
            }
            tally.ran.increment();
            return false;
        }
        if (f == null) {
            violations.check(false, t, "accepted without a future: ");
            return false;
        }
        boolean periodic = t.kind.periodic();
        if (t.taken) {
            if (t.returnedByShutdownNow) {
                tally.returned.increment();
            } else {
                tally.removed.increment();
            }
            violations.check(periodic || runs == 0, t, "taken out of the queue, yet ran: ");
            violations.check(!f.isDone() || f.isCancelled() && t.cancelReturnedTrue, t,
                    "taken out of the queue, yet done: ");
            return false;
        }
        if (!f.isDone()) {
            if (t.maybeTaken) {
                tally.removed.increment();
            } else {
                violations.check(false, t, "lost: not done, not returned by shutdownNow, not taken out: ");
            }
            return false;
        }
        if (f.isCancelled()) {
            if (t.cancelReturnedTrue) {
                tally.cancelledByCaller.increment();
                return false;
            }
            tally.cancelledByExecutor.increment();
            SoakExecutor ex = t.owner;
            if (periodic) {
                violations.check(ex.shutdownBegan, t, "cancelled by an executor never shut down: ");
            } else {
                violations.check(runs == 0, t, "cancelled by the executor after it ran: ");
                if (!ex.racedShutdown(t.callEnd) && !ex.mayHaveDropped(t.callEnd, t.delayNanos)) {
                    stoppedBeforeRun[ex.index]++;
                    // held by a worker when the pool stopped: due before the shutdownNow that stopped it returned
                    violations.check(ex.shutdownNows.get() > 0 && ex.stoppingCallEnd - t.accept >= t.delayNanos, t,
                            "cancelled by the executor, though no shutdown pass read a false delayed-task policy "
                                    + "before it was due" + (ex.delayedMayBeDropped ? " (the first that may have began "
                                    + (ex.dropPassSince - t.callEnd) + " ns after its scheduling call returned)" : "")
                                    + ", it was scheduled before the shutdown and not due before the shutdownNow "
                                    + "that stopped the pool: ");
                }
            }
            return false;
        }
        t.checkOutcome(f, "at the end", violations);
        if (t.threw) {
            tally.failed.increment();
        } else {
            tally.ran.increment();
        }
        return false;
    }

    private void checkExecutor(SoakExecutor ex, long executeNotRun, long unknownTaken, long unknownMaybe,
                               long stopped) {
        ScheduledThreadPoolExecutor e = ex.executor;
        String what = ex + " after termination: " + e;
        if (!e.isTerminated()) {
            return; // already reported
        }
        violations.check(e.isShutdown() && !e.isTerminating(), what + ": isShutdown/isTerminating");
        violations.check(e.getPoolSize() == 0 && e.getActiveCount() == 0, what + ": threads left");
        violations.check(e.getQueue().isEmpty() && e.getQueue().size() == 0, what + ": queue not empty");
        long completed = e.getCompletedTaskCount();
        violations.check(completed == e.getTaskCount(), what + ": completed " + completed + " != task count "
                + e.getTaskCount());
        violations.check(completed >= ex.bodyRuns.sum(), what + ": completed " + completed + " < "
                + ex.bodyRuns.sum() + " task bodies run");
        SoakHooks hooks = ex.hooks;
        if (hooks != null) {
            violations.check(hooks.terminated.get() == 1, what + ": terminated() called " + hooks.terminated.get()
                    + " times");
            violations.check(hooks.before.sum() == hooks.after.sum() && hooks.after.sum() >= ex.bodyRuns.sum(),
                    what + ": beforeExecute " + hooks.before.sum() + " times, afterExecute " + hooks.after.sum()
                            + " times, " + ex.bodyRuns.sum() + " task bodies run");
        }
        // Commands and tasks that never ran and that no shutdownNow returned: only those a worker held when
        // the pool stopped (one per worker that may have held one), unless the caller took them out of the queue.
        long held = ex.mayHoldAtStop.get();
        violations.check(executeNotRun + stopped <= unknownTaken + unknownMaybe + held, what + ": "
                + executeNotRun + " execute()d commands never ran (not racing a shutdown) and " + stopped
                + " one-shots were cancelled as the pool stopped, but only " + unknownTaken + " (+" + unknownMaybe
                + " perhaps) unknown queue elements were taken out, and " + held
                + " workers could hold one when the pool stopped");
    }
}
