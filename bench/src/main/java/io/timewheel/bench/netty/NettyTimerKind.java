package io.timewheel.bench.netty;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import io.timewheel.netty.WheelTimer;

import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Netty timers measured side by side: timewheel's WheelTimer and Netty's HashedWheelTimer with a 1 ms tick
 * and with its default 100 ms tick (512 slots each). All three run their tasks on one thread of their own.
 */
public enum NettyTimerKind {
    WHEEL("wheel-timer", "timewheel WheelTimer (shared tick thread, tasks on a thread of its own that ends when idle)"),
    NETTY_1MS("netty-1ms", "Netty HashedWheelTimer, 1 ms tick, 512 slots"),
    NETTY_100MS("netty-100ms", "Netty HashedWheelTimer, 100 ms tick (its default), 512 slots");

    /** The task every timer runs when the benchmark does not care: one instance, no memory per timeout. */
    public static final TimerTask NOOP = timeout -> { };

    /** One hour, in milliseconds: far timeouts wait between one and two hours. */
    static final long HOUR_MS = 3_600_000L;

    private final String id;
    private final String description;

    NettyTimerKind(String id, String description) {
        this.id = id;
        this.description = description;
    }

    public String id() {
        return id;
    }

    public String description() {
        return description;
    }

    /** A new timer whose threads are named "bench-ID-N" (daemon). The caller stops it. */
    public Timer create() {
        ThreadFactory threads = threads("bench-" + id);
        switch (this) {
            case WHEEL:
                return new WheelTimer(threads);
            case NETTY_1MS:
                return started(new HashedWheelTimer(threads, 1, TimeUnit.MILLISECONDS, 512));
            case NETTY_100MS:
                return started(new HashedWheelTimer(threads, 100, TimeUnit.MILLISECONDS, 512));
            default:
                throw new AssertionError(this);
        }
    }

    private static Timer started(HashedWheelTimer timer) {
        timer.start();
        return timer;
    }

    /**
     * Waits until the timeouts handed to {@code timer} so far sit in its wheel: HashedWheelTimer moves at most
     * 100,000 new timeouts from its queue into its buckets per tick; WheelTimer's tick thread files them as they
     * come (a short pause covers it).
     */
    public void settle(Timer timer) throws InterruptedException {
        long tickMillis = this == NETTY_100MS ? 100 : 1;
        long pending = timer instanceof HashedWheelTimer ? ((HashedWheelTimer) timer).pendingTimeouts()
                : ((WheelTimer) timer).pendingTimeouts();
        Thread.sleep(Math.max(200, (pending / 100_000 + 3) * tickMillis));
    }

    /** Runs one 1 ms timeout and waits for it: the timer has started its threads afterwards. */
    public static void warmUp(Timer timer) throws InterruptedException {
        CountDownLatch ran = new CountDownLatch(1);
        timer.newTimeout(t -> ran.countDown(), 1, TimeUnit.MILLISECONDS);
        if (!ran.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("a 1 ms timeout did not run within 30 s");
        }
    }

    /** Schedules {@code count} no-op timeouts one to two hours away (whole milliseconds, a fixed seed). */
    public static void scheduleFar(Timer timer, int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < count; i++) {
            timer.newTimeout(NOOP, HOUR_MS + random.nextLong(HOUR_MS), TimeUnit.MILLISECONDS);
        }
    }

    public static NettyTimerKind of(String id) {
        for (NettyTimerKind k : values()) {
            if (k.id.equals(id) || k.name().equalsIgnoreCase(id)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown Netty timer '" + id + "'; known: wheel-timer, netty-1ms, netty-100ms");
    }

    /** Names daemon threads "prefix-N", so harnesses can find them by name. */
    static ThreadFactory threads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
