package sampleapp;

import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.Executors;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;

/** A named subclass overriding every hook; its super(..) call computes its arguments. */
public class HookedScheduler extends ScheduledThreadPoolExecutor {

    final Set<String> calls = new ConcurrentSkipListSet<>();

    public HookedScheduler(int threads, ThreadFactory factory) {
        super(Math.max(1, threads), factory != null ? factory : Executors.defaultThreadFactory(), new AbortPolicy());
    }

    @Override
    protected <V> RunnableScheduledFuture<V> decorateTask(Runnable runnable, RunnableScheduledFuture<V> task) {
        calls.add("decorateTask(Runnable)");
        return super.decorateTask(runnable, task);
    }

    @Override
    protected <V> RunnableScheduledFuture<V> decorateTask(Callable<V> callable, RunnableScheduledFuture<V> task) {
        calls.add("decorateTask(Callable)");
        return super.decorateTask(callable, task);
    }

    @Override
    protected void beforeExecute(Thread t, Runnable r) {
        calls.add("beforeExecute");
        super.beforeExecute(t, r);
    }

    @Override
    protected void afterExecute(Runnable r, Throwable t) {
        calls.add("afterExecute");
        super.afterExecute(r, t);
    }

    @Override
    protected void terminated() {
        calls.add("terminated");
        super.terminated();
    }
}
