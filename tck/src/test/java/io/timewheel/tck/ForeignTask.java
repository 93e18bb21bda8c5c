package io.timewheel.tck;

import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RunnableScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A RunnableScheduledFuture of a class the executor has never seen, as a decorateTask override may return:
 * it delegates everything to the executor's own task and counts its runs, ordered by remaining delay as such
 * user classes usually are. Used by the differential tests and the soak suite. Any thread.
 */
public class ForeignTask<V> implements RunnableScheduledFuture<V> {
    final RunnableScheduledFuture<V> inner;
    final AtomicInteger runs = new AtomicInteger();

    public ForeignTask(RunnableScheduledFuture<V> inner) {
        this.inner = inner;
    }

    @Override
    public void run() {
        runs.incrementAndGet();
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
        // Long.compare, not a difference: delays run from Long.MIN_VALUE to Long.MAX_VALUE (the soak suite)
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
