package io.timewheel.tck.soak;

import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What a decorateTask override may return: a RunnableScheduledFuture of a class the executor has never
 * seen, delegating to the executor's own task. Ordered by remaining delay, as such user classes usually are.
 * Any thread.
 */
final class Decorated<V> implements RunnableScheduledFuture<V> {
    private final RunnableScheduledFuture<V> inner;

    Decorated(RunnableScheduledFuture<V> inner) {
        this.inner = inner;
    }

    @Override
    public void run() {
        inner.run();
    }

    @Override
    public boolean isPeriodic() {
        return inner.isPeriodic();
    }

    @Override
    public long getDelay(TimeUnit unit) {
        return inner.getDelay(unit);
    }

    @Override
    public int compareTo(Delayed other) {
        return other == this ? 0 : Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return inner.cancel(mayInterruptIfRunning);
    }

    @Override
    public boolean isCancelled() {
        return inner.isCancelled();
    }

    @Override
    public boolean isDone() {
        return inner.isDone();
    }

    @Override
    public V get() throws InterruptedException, ExecutionException {
        return inner.get();
    }

    @Override
    public V get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        return inner.get(timeout, unit);
    }
}
