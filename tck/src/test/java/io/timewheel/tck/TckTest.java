package io.timewheel.tck;

import static java.util.concurrent.TimeUnit.NANOSECONDS;
import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.InvocationTargetException;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Shared plumbing of the conformance tests: executors that are always shut down, gates that are always
 * opened, bounded waits. Nothing here sleeps: waits are latches, futures or Awaitility polls, and every wait
 * has a generous bound because the build machine is small and shared. {@link VirtualThreadMode} skips the
 * invocations on {@link Impl#WHEEL_VT} that do not apply to it.
 */
@ExtendWith(VirtualThreadMode.class)
abstract class TckTest {
    /** Upper bound of any wait for something that must happen. Never an expectation of speed. */
    static final long WAIT_SECONDS = 30;

    /** A delay that no test outlives: a task scheduled with it stays pending for the whole test. */
    static final long FAR = 1;
    static final TimeUnit FAR_UNIT = TimeUnit.HOURS;

    @RegisterExtension
    final ExecutorCleanup cleanup = new ExecutorCleanup();

    ScheduledThreadPoolExecutor executor(Impl impl, int core) {
        return cleanup.track(impl.create(core));
    }

    ScheduledThreadPoolExecutor executor(Impl impl, int core, ThreadFactory factory) {
        return cleanup.track(impl.create(core, factory));
    }

    ScheduledThreadPoolExecutor executor(Impl impl, int core, RejectedExecutionHandler handler) {
        return cleanup.track(impl.create(core, handler));
    }

    ScheduledThreadPoolExecutor executor(Impl impl, int core, ThreadFactory factory, RejectedExecutionHandler handler) {
        return cleanup.track(impl.create(core, factory, handler));
    }

    ScheduledThreadPoolExecutor subclass(Impl impl, int core, Hooks hooks) {
        return cleanup.track(impl.subclass(core, hooks));
    }

    ScheduledThreadPoolExecutor subclass(Impl impl, int core, ThreadFactory factory, Hooks hooks) {
        return cleanup.track(impl.subclass(core, factory, hooks));
    }

    ScheduledThreadPoolExecutor subclass(Impl impl, int core, RejectedExecutionHandler handler, Hooks hooks) {
        return cleanup.track(impl.subclass(core, handler, hooks));
    }

    <E extends ExecutorService> E track(E executor) {
        return cleanup.track(executor);
    }

    Gate gate() {
        return cleanup.gate();
    }

    /**
     * Occupies one worker of {@code executor} with a task that waits on the returned gate, and returns once
     * that task has started. With one worker, nothing else starts until the gate opens.
     */
    Gate blockWorker(ScheduledThreadPoolExecutor executor) throws InterruptedException {
        Gate started = new Gate();
        Gate release = gate();
        executor.execute(() -> {
            started.open();
            release.awaitUninterruptibly();
        });
        started.await();
        return release;
    }

    /**
     * Schedules a no-op with the given delay and waits until it has run. On a single-worker executor, every
     * task whose trigger time is earlier has been taken and run (or skipped, if cancelled) by then.
     */
    static void flush(ScheduledThreadPoolExecutor executor, long delay, TimeUnit unit) throws Exception {
        get(executor.schedule(() -> { }, delay, unit));
    }

    /** A Runnable (not a Callable, whatever the overload resolution) that counts its runs. */
    static Runnable counting(AtomicInteger runs) {
        return () -> {
            runs.incrementAndGet();
        };
    }

    static <T> T get(Future<T> future) throws InterruptedException, ExecutionException {
        try {
            return future.get(WAIT_SECONDS, SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("future not done within " + WAIT_SECONDS + " s: " + future, e);
        }
    }

    static void awaitUntil(String what, Callable<Boolean> condition) {
        Awaitility.await(what)
                .atMost(Duration.ofSeconds(WAIT_SECONDS))
                .pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(1))
                .pollInSameThread()
                .until(condition);
    }

    static void awaitTerminated(ExecutorService executor) throws InterruptedException {
        if (!executor.awaitTermination(WAIT_SECONDS, SECONDS)) {
            throw new AssertionError("not terminated within " + WAIT_SECONDS + " s: " + executor);
        }
    }

    /**
     * Waits until System.nanoTime() has passed {@code deadline}: a wait for a condition (the real clock reaching
     * an instant the differential tests need behind them, e.g. a task's trigger time), not a guessed delay.
     */
    static void pauseUntil(long deadline) {
        CountDownLatch never = new CountDownLatch(1);
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            try {
                never.await(left, NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Waits until a scheduled task's trigger time has passed, by its own getDelay. */
    static void awaitDue(ScheduledFuture<?> future) {
        awaitUntil("task due", () -> future.getDelay(NANOSECONDS) <= 0);
    }

    static Set<Object> identitySet(Collection<?> elements) {
        Set<Object> set = Collections.newSetFromMap(new IdentityHashMap<>());
        set.addAll(elements);
        return set;
    }

    static void assertSameElements(Collection<?> expected, Collection<?> actual) {
        assertEquals(expected.size(), actual.size(), "size of " + actual);
        assertEquals(identitySet(expected), identitySet(actual));
    }

    static int javaFeature() {
        return Runtime.version().feature();
    }

    /** {@code ExecutorService.close()} (Java 19+), called reflectively so the suite compiles for release 17. */
    static void close(ExecutorService executor) throws Throwable {
        try {
            ExecutorService.class.getMethod("close").invoke(executor);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** {@code Future.state()} (Java 19+) by name: RUNNING, SUCCESS, FAILED or CANCELLED. */
    static String state(Future<?> future) throws Exception {
        return String.valueOf(Future.class.getMethod("state").invoke(future));
    }
}
