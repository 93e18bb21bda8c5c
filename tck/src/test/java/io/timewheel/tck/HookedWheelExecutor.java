package io.timewheel.tck;

import io.timewheel.executor.WheelScheduledExecutorService;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * A subclass of {@code WheelScheduledExecutorService} that forwards every protected hook, and observes the self-used
 * public
 * methods, through {@link Hooks}. Kept textually identical to {@link HookedJdkExecutor} apart from the superclass
 * and the last constructor, which takes a builder ({@link Impl#WHEEL_VT}: the wheel's protected constructor).
 */
final class HookedWheelExecutor extends WheelScheduledExecutorService {
    private final Hooks hooks;

    HookedWheelExecutor(int corePoolSize, Hooks hooks) {
        super(corePoolSize);
        this.hooks = Objects.requireNonNull(hooks);
    }

    HookedWheelExecutor(int corePoolSize, ThreadFactory threadFactory, Hooks hooks) {
        super(corePoolSize, threadFactory);
        this.hooks = Objects.requireNonNull(hooks);
    }

    HookedWheelExecutor(int corePoolSize, RejectedExecutionHandler handler, Hooks hooks) {
        super(corePoolSize, handler);
        this.hooks = Objects.requireNonNull(hooks);
    }

    HookedWheelExecutor(int corePoolSize, ThreadFactory threadFactory, RejectedExecutionHandler handler, Hooks hooks) {
        super(corePoolSize, threadFactory, handler);
        this.hooks = Objects.requireNonNull(hooks);
    }

    HookedWheelExecutor(WheelScheduledExecutorService.Builder builder, Hooks hooks) {
        super(builder);
        this.hooks = Objects.requireNonNull(hooks);
    }

    @Override
    protected void beforeExecute(Thread t, Runnable r) {
        super.beforeExecute(t, r);
        hooks.beforeExecute(this, t, r);
    }

    @Override
    protected void afterExecute(Runnable r, Throwable t) {
        super.afterExecute(r, t);
        hooks.afterExecute(this, r, t);
    }

    @Override
    protected void terminated() {
        super.terminated();
        hooks.terminated(this);
    }

    @Override
    protected <V> RunnableScheduledFuture<V> decorateTask(Runnable runnable, RunnableScheduledFuture<V> task) {
        return hooks.decorateTask(runnable, super.decorateTask(runnable, task));
    }

    @Override
    protected <V> RunnableScheduledFuture<V> decorateTask(Callable<V> callable, RunnableScheduledFuture<V> task) {
        return hooks.decorateTask(callable, super.decorateTask(callable, task));
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
        RunnableFuture<T> mine = hooks.newTaskFor(callable);
        return mine != null ? mine : super.newTaskFor(callable);
    }

    @Override
    protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
        RunnableFuture<T> mine = hooks.newTaskFor(runnable, value);
        return mine != null ? mine : super.newTaskFor(runnable, value);
    }

    @Override
    public void execute(Runnable command) {
        hooks.onExecute(command);
        super.execute(command);
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        hooks.onScheduleRunnable(command, delay, unit);
        return super.schedule(command, delay, unit);
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        hooks.onScheduleCallable(callable, delay, unit);
        return super.schedule(callable, delay, unit);
    }

    @Override
    public Future<?> submit(Runnable task) {
        hooks.onSubmit(task);
        return super.submit(task);
    }

    @Override
    public <T> Future<T> submit(Runnable task, T result) {
        hooks.onSubmit(task);
        return super.submit(task, result);
    }

    @Override
    public <T> Future<T> submit(Callable<T> task) {
        hooks.onSubmit(task);
        return super.submit(task);
    }

    @Override
    public void shutdown() {
        hooks.onShutdown();
        super.shutdown();
    }

    @Override
    public List<Runnable> shutdownNow() {
        hooks.onShutdownNow();
        return super.shutdownNow();
    }
}
