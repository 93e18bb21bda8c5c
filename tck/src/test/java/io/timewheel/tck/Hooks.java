package io.timewheel.tck;

import java.util.concurrent.Callable;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * What a test wants a subclass of the executor to do. {@link HookedJdkExecutor} (extends the JDK's STPE) and
 * {@link HookedWheelExecutor} (extends WheelScheduledExecutorService) have the same body and forward every
 * protected hook here, so one scenario exercises both the same way.
 *
 * <p>The {@code on*} methods only observe a call (a subclass overriding that method and then calling super);
 * the others replace the hook. Every default keeps the superclass behaviour. Called on whatever thread the
 * executor calls the hook on.
 */
public interface Hooks {

    default void beforeExecute(ScheduledThreadPoolExecutor self, Thread t, Runnable r) {}

    default void afterExecute(ScheduledThreadPoolExecutor self, Runnable r, Throwable t) {}

    default void terminated(ScheduledThreadPoolExecutor self) {}

    default <V> RunnableScheduledFuture<V> decorateTask(Runnable runnable, RunnableScheduledFuture<V> task) {
        return task;
    }

    default <V> RunnableScheduledFuture<V> decorateTask(Callable<V> callable, RunnableScheduledFuture<V> task) {
        return task;
    }

    /** {@code null} means: use the superclass's {@code newTaskFor}. */
    default <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
        return null;
    }

    /** {@code null} means: use the superclass's {@code newTaskFor}. */
    default <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
        return null;
    }

    default void onExecute(Runnable command) {}

    default void onScheduleRunnable(Runnable command, long delay, TimeUnit unit) {}

    default void onScheduleCallable(Callable<?> callable, long delay, TimeUnit unit) {}

    default void onSubmit(Object task) {}

    default void onShutdown() {}

    default void onShutdownNow() {}
}
