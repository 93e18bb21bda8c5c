package sampleapp.netty;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * An unmodified application's use of Netty's HashedWheelTimer, through Netty's API only: every
 * constructor, and what a timer promises (fires, never early, in deadline order, cancel, stop returns
 * the pending timeouts, no new timeouts after stop, the pending count and limit, the task executor, a
 * throwing task). Reports {@code key=value}, the same keys with or without the agent, so a test can
 * compare the two runs. {@code NettyTimerApp} loads it in the system class loader or in a plugin loader.
 */
public final class TimerChecks implements Supplier<Map<String, String>> {

    private static final long DELAY_MILLIS = 30;

    private final Map<String, String> seen = new LinkedHashMap<>();

    @Override
    public Map<String, String> get() {
        try {
            seen.put("loader", loaderOf(HashedWheelTimer.class));
            seen.put("swapped", Boolean.toString(swapped()));
            constructors();
            oneTimer();
            arguments();
            internals();
            manyInstances();
        } catch (Throwable failure) {
            seen.put("failure", failure.toString());
        }
        return seen;
    }

    /** Whether the agent rewrote HashedWheelTimer (its delegate field); a debugging aid, not a behaviour. */
    private static boolean swapped() {
        for (Field field : HashedWheelTimer.class.getDeclaredFields()) {
            if (field.getName().equals("timewheel$timer")) {
                return true;
            }
        }
        return false;
    }

    private static String loaderOf(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        return loader == ClassLoader.getSystemClassLoader() ? "system" : loader == null ? "boot" : loader.getName();
    }

    private void constructors() throws Exception {
        ThreadFactory factory = Executors.defaultThreadFactory();
        Executor direct = Runnable::run;
        Map<String, HashedWheelTimer> timers = new LinkedHashMap<>();
        timers.put("new()", new HashedWheelTimer());
        timers.put("new(long,TimeUnit)", new HashedWheelTimer(10, TimeUnit.MILLISECONDS));
        timers.put("new(long,TimeUnit,int)", new HashedWheelTimer(10, TimeUnit.MILLISECONDS, 64));
        timers.put("new(ThreadFactory)", new HashedWheelTimer(factory));
        timers.put("new(ThreadFactory,long,TimeUnit)", new HashedWheelTimer(factory, 10, TimeUnit.MILLISECONDS));
        timers.put("new(ThreadFactory,long,TimeUnit,int)", new HashedWheelTimer(factory, 10, TimeUnit.MILLISECONDS, 64));
        timers.put("new(ThreadFactory,long,TimeUnit,int,boolean)",
                new HashedWheelTimer(factory, 10, TimeUnit.MILLISECONDS, 64, false));
        timers.put("new(ThreadFactory,long,TimeUnit,int,boolean,long)",
                new HashedWheelTimer(factory, 10, TimeUnit.MILLISECONDS, 64, false, 100));
        timers.put("new(ThreadFactory,long,TimeUnit,int,boolean,long,Executor)",
                new HashedWheelTimer(factory, 10, TimeUnit.MILLISECONDS, 64, false, 100, direct));
        for (Map.Entry<String, HashedWheelTimer> entry : timers.entrySet()) {
            HashedWheelTimer timer = entry.getValue();
            timer.start();
            seen.put(entry.getKey() + ".fires", firesNotEarly(timer));
            timer.stop();
        }
    }

    /** "fired" when the task ran no earlier than its delay after newTimeout, and timer() is the timer. */
    private static String firesNotEarly(Timer timer) throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(1);
        long[] ranAt = new long[1];
        long scheduledAt = System.nanoTime();
        Timeout timeout = timer.newTimeout(t -> {
            ranAt[0] = System.nanoTime();
            ran.countDown();
        }, DELAY_MILLIS, TimeUnit.MILLISECONDS);
        if (!ran.await(10, TimeUnit.SECONDS)) {
            return "did not fire";
        }
        long early = TimeUnit.MILLISECONDS.toNanos(DELAY_MILLIS) - (ranAt[0] - scheduledAt);
        if (early > 0) {
            return "early by " + early + " ns";
        }
        if (timeout.timer() != timer) {
            return "timer() is " + timeout.timer();
        }
        return timeout.isExpired() && !timeout.isCancelled() ? "fired" : "fired, but isExpired=" + timeout.isExpired();
    }

    private void oneTimer() throws Exception {
        HashedWheelTimer timer = new HashedWheelTimer();
        // Deadline order, whatever the order of newTimeout (deadlines more than Netty's 100 ms tick apart).
        List<Integer> order = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch three = new CountDownLatch(3);
        for (int millis : new int[]{350, 150, 250}) {
            timer.newTimeout(t -> {
                order.add(millis);
                three.countDown();
            }, millis, TimeUnit.MILLISECONDS);
        }
        three.await(10, TimeUnit.SECONDS);
        seen.put("order", order.toString());
        // A throwing task is reported by Netty's logger and the timer goes on.
        timer.newTimeout(t -> {
            throw new IllegalStateException("a task that throws (expected)");
        }, 1, TimeUnit.MILLISECONDS);
        seen.put("afterThrowingTask", firesNotEarly(timer));
        // Cancel: true once, never runs, not even once a later timeout has run (150 ms ahead: cancel() comes first
        // even on a busy machine).
        AtomicInteger cancelledRuns = new AtomicInteger();
        Timeout cancelled = timer.newTimeout(t -> cancelledRuns.incrementAndGet(), 150, TimeUnit.MILLISECONDS);
        boolean first = cancelled.cancel();
        boolean second = cancelled.cancel();
        CountDownLatch later = new CountDownLatch(1);
        timer.newTimeout(t -> later.countDown(), 300, TimeUnit.MILLISECONDS);
        later.await(10, TimeUnit.SECONDS);
        seen.put("cancel", first + "," + second + "," + cancelled.isCancelled() + "," + cancelled.isExpired()
                + ",runs=" + cancelledRuns.get());
        timer.stop();

        // Pending count, then stop: the pending timeouts, not the cancelled one; none of them runs.
        HashedWheelTimer stopping = new HashedWheelTimer();
        AtomicInteger neverRuns = new AtomicInteger();
        TimerTask never = t -> neverRuns.incrementAndGet();
        Timeout farA = stopping.newTimeout(never, 1, TimeUnit.HOURS);
        Timeout farB = stopping.newTimeout(never, 2, TimeUnit.HOURS);
        seen.put("pending", Long.toString(stopping.pendingTimeouts()));
        stopping.newTimeout(never, 3, TimeUnit.HOURS).cancel();
        Set<Timeout> stopped = stopping.stop();
        seen.put("stop", stopped.size() + "," + stopped.equals(new HashSet<>(List.of(farA, farB))));
        seen.put("stop.timeoutsCancelled", farA.isCancelled() + "," + farB.isCancelled());
        seen.put("stop.again", Integer.toString(stopping.stop().size()));
        seen.put("afterStop.newTimeout", outcome(() -> stopping.newTimeout(never, 1, TimeUnit.MILLISECONDS)));
        seen.put("afterStop.start", outcome(stopping::start));
        seen.put("stop.stoppedTimeoutsRan", Integer.toString(neverRuns.get()));

        // The pending limit and the task executor.
        HashedWheelTimer limited = new HashedWheelTimer(Executors.defaultThreadFactory(), 10, TimeUnit.MILLISECONDS,
                64, false, 2);
        limited.newTimeout(never, 1, TimeUnit.HOURS);
        limited.newTimeout(never, 1, TimeUnit.HOURS);
        seen.put("maxPending", outcome(() -> limited.newTimeout(never, 1, TimeUnit.HOURS)));
        limited.stop();
        AtomicInteger executed = new AtomicInteger();
        Executor counting = task -> {
            executed.incrementAndGet();
            task.run();
        };
        HashedWheelTimer withExecutor = new HashedWheelTimer(Executors.defaultThreadFactory(), 10,
                TimeUnit.MILLISECONDS, 64, false, 0, counting);
        seen.put("taskExecutor", firesNotEarly(withExecutor) + ",executed=" + executed.get());
        withExecutor.stop();
    }

    /** Netty's argument checks: the same exception types with or without the agent. */
    private void arguments() {
        ThreadFactory factory = Executors.defaultThreadFactory();
        seen.put("check.nullThreadFactory", outcome(() -> new HashedWheelTimer((ThreadFactory) null)));
        seen.put("check.nullUnit", outcome(() -> new HashedWheelTimer(factory, 10, null)));
        seen.put("check.zeroTick", outcome(() -> new HashedWheelTimer(factory, 0, TimeUnit.MILLISECONDS)));
        seen.put("check.zeroTicksPerWheel", outcome(() -> new HashedWheelTimer(factory, 10, TimeUnit.MILLISECONDS, 0)));
        seen.put("check.tickOverflow", outcome(() -> new HashedWheelTimer(factory, Long.MAX_VALUE, TimeUnit.DAYS)));
        seen.put("check.nullExecutor", outcome(() -> new HashedWheelTimer(factory, 10, TimeUnit.MILLISECONDS, 64,
                false, 0, null)));
        HashedWheelTimer timer = new HashedWheelTimer();
        seen.put("check.nullTask", outcome(() -> timer.newTimeout(null, 1, TimeUnit.SECONDS)));
        seen.put("check.nullDelayUnit", outcome(() -> timer.newTimeout(t -> { }, 1, null)));
        timer.stop();
    }

    /**
     * What the swap changes, reported for the test to expect per run: whether starting a timer starts a
     * thread, whether the leak detector tracks it.
     */
    private void internals() throws Exception {
        Set<Thread> before = Thread.getAllStackTraces().keySet();
        HashedWheelTimer timer = new HashedWheelTimer(Executors.defaultThreadFactory(), 10, TimeUnit.MILLISECONDS, 64,
                true);
        timer.start();
        Set<Thread> after = new HashSet<>(Thread.getAllStackTraces().keySet());
        after.removeAll(before);
        seen.put("internal.threadsStartedByStart", Integer.toString(after.size()));
        Field leak = HashedWheelTimer.class.getDeclaredField("leak");
        leak.setAccessible(true);
        seen.put("internal.leakTracked", Boolean.toString(leak.get(timer) != null));
        timer.stop();
    }

    /** Netty logs an error past 64 live instances; the IT reads stderr for it. */
    private void manyInstances() {
        List<HashedWheelTimer> timers = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            timers.add(new HashedWheelTimer());
        }
        for (HashedWheelTimer timer : timers) {
            timer.stop();
        }
        seen.put("manyInstances", Integer.toString(timers.size()));
    }

    private interface Action {
        void run() throws Exception;
    }

    /** "ok" or the class of what it threw. */
    private static String outcome(Action action) {
        try {
            action.run();
            return "ok";
        } catch (Throwable t) {
            return t.getClass().getName();
        }
    }
}
