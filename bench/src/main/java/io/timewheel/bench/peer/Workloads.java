package io.timewheel.bench.peer;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/** The shared pieces of every workload: the no-op task and the far timers that sit pending. */
public final class Workloads {

    /** The task every timer runs when the benchmark does not care: one instance, so it costs no memory per timer. */
    public static final Runnable NOOP = new Runnable() {
        @Override
        public void run() {
        }

        @Override
        public String toString() {
            return "noop";
        }
    };

    /** One hour, in milliseconds: far timers wait between one and two hours. */
    public static final long HOUR_MS = 3_600_000L;

    private Workloads() {
    }

    /**
     * Schedules {@code count} no-op timers between one and two hours away (whole milliseconds, uniformly
     * spread, a fixed seed), so they stay pending for any benchmark run.
     */
    public static void scheduleFar(TimerService service, int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < count; i++) {
            service.schedule(NOOP, HOUR_MS + random.nextLong(HOUR_MS), TimeUnit.MILLISECONDS);
        }
    }

    /** Runs one task at once and waits for it: every peer has started its threads afterwards. */
    public static void warmUp(TimerService service) throws InterruptedException {
        java.util.concurrent.CountDownLatch ran = new java.util.concurrent.CountDownLatch(1);
        service.schedule(ran::countDown, 1, TimeUnit.MILLISECONDS);
        if (!ran.await(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException(service + ": a 1 ms timer did not run within 30 s");
        }
    }
}
