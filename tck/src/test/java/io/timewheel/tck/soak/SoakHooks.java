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
 * what they receive, and (if {@code decorate}) wraps every task in a {@link ForeignTask}. Any thread.
 */
final class SoakHooks implements Hooks {
    private final boolean decorate;
    private final Violations violations;
    final LongAdder before = new LongAdder();
    final LongAdder after = new LongAdder();
    final AtomicInteger terminated = new AtomicInteger();

    SoakHooks(boolean decorate, Violations violations) {
        this.decorate = decorate;
        this.violations = violations;
    }

    @Override
    public void beforeExecute(ScheduledThreadPoolExecutor self, Thread t, Runnable r) {
        before.increment();
        violations.check(t == Thread.currentThread() && r != null, "beforeExecute(" + t + ", " + r
                + ") on " + Thread.currentThread());
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
