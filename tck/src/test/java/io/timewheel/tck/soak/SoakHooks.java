package io.timewheel.tck.soak;

import io.timewheel.tck.ForeignTask;
import io.timewheel.tck.Hooks;
import java.util.concurrent.Callable;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * The hooks of a subclassed executor in a round: counts beforeExecute / afterExecute / terminated, checks
 * what they receive, and (if {@code decorate}) wraps every task in a {@link ForeignTask}. beforeExecute
 * cancels the task it precedes when the task's plan says so (a cancel that returns true before run() is
 * called: the body must not start), and tells {@link RunsAfterCancel} when it returns. Any thread.
 */
final class SoakHooks implements Hooks {
    private final boolean decorate;
    private final SoakRound round;
    private final Violations violations;
    final LongAdder before = new LongAdder();
    final LongAdder after = new LongAdder();
    final AtomicInteger terminated = new AtomicInteger();

    SoakHooks(boolean decorate, SoakRound round) {
        this.decorate = decorate;
        this.round = round;
        this.violations = round.violations;
    }

    @Override
    public void beforeExecute(ScheduledThreadPoolExecutor self, Thread t, Runnable r) {
        before.increment();
        violations.check(t == Thread.currentThread() && r != null, "beforeExecute(" + t + ", " + r
                + ") on " + Thread.currentThread());
        SoakTask task = round.taskOf(r); // null for execute()d commands and tasks not yet registered
        if (task != null && task.cancelBeforeRunAt >= 0 && task.cancelBeforeRunAt == task.runs.get()) {
            round.cancel(task, task.cancelBeforeRunInterrupts, "beforeExecute of task " + task.id);
        }
        RunsAfterCancel.beforeExecuteReturning(); // last
    }

    @Override
    public void afterExecute(ScheduledThreadPoolExecutor self, Runnable r, Throwable t) {
        after.increment();
        // Every task is a future, which keeps its exception: afterExecute never sees one (STPE's javadoc).
        violations.check(t == null && r != null, "afterExecute(" + r + ", " + t + ")");
    }

    @Override
    public void terminated(ScheduledThreadPoolExecutor self) {
        terminated.incrementAndGet();
    }

    @Override
    public <V> RunnableScheduledFuture<V> decorateTask(Runnable runnable, RunnableScheduledFuture<V> task) {
        return decorate ? new ForeignTask<>(task) : task;
    }

    @Override
    public <V> RunnableScheduledFuture<V> decorateTask(Callable<V> callable, RunnableScheduledFuture<V> task) {
        return decorate ? new ForeignTask<>(task) : task;
    }

    String describe() {
        return decorate ? "subclass, decorated" : "subclass";
    }
}
