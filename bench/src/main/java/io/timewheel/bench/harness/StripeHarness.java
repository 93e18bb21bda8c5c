package io.timewheel.bench.harness;

import io.timewheel.executor.WheelScheduledExecutorService;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Two producer threads scheduling and cancelling 30 s timers on one executor (1M far timers pending), with
 * thread ids a chosen distance apart. The striped inbox and the striped queued count pick a stripe by thread
 * id modulo the stripe count, so two threads whose ids differ by a multiple of it share a stripe: this shows
 * what that costs. Rounds alternate between ids next to each other ({@code apart}) and ids {@code --gap}
 * apart (dummy threads are created in between), each round a fresh pair of threads for {@code --millis}.
 *
 * <p>Run: {@code java -jar bench/target/timewheel-bench.jar stripes [--gap 16] [--rounds 6] [--millis 2000]}
 * ({@code --gap} a multiple of the executor's stripe count shares a stripe: with 16 stripes {@code --gap 16}
 * does and {@code --gap 4} does not).
 */
public final class StripeHarness {
    private StripeHarness() {
    }

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        int gap = args.getInt("gap", 16);
        int rounds = args.getInt("rounds", 6);
        int millis = args.getInt("millis", 2000);
        WheelScheduledExecutorService executor = new WheelScheduledExecutorService(1);
        try {
            for (int i = 0; i < 1_000_000; i++) {
                executor.schedule(() -> { }, 3600 + (i % 3600), TimeUnit.SECONDS);
            }
            System.out.printf("stripes: 2 producers, schedule+cancel of 30 s timers, 1M pending; ids adjacent vs %d apart, %d rounds of %d ms%n",
                    gap, rounds, millis);
            for (int r = 0; r < rounds; r++) {
                int distance = r % 2 == 0 ? 1 : gap;
                round(executor, distance, millis);
            }
        } finally {
            executor.shutdownNow();
        }
    }

    private static void round(WheelScheduledExecutorService executor, int distance, int millis) throws InterruptedException {
        AtomicLong ops = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch go = new CountDownLatch(1);
        Runnable noop = () -> { };
        Runnable body = () -> {
            try {
                go.await();
            } catch (InterruptedException e) {
                return;
            }
            long n = 0;
            while (!stop.get()) {
                for (int k = 0; k < 1000; k++) {
                    ScheduledFuture<?> f = executor.schedule(noop, 30, TimeUnit.SECONDS);
                    f.cancel(false);
                }
                n += 1000;
            }
            ops.addAndGet(n);
        };
        Thread first = new Thread(body, "stripes-producer-1");
        for (int d = 1; d < distance; d++) {
            new Thread(() -> { }); // takes an id, never started
        }
        Thread second = new Thread(body, "stripes-producer-2");
        first.start();
        second.start();
        long t0 = System.nanoTime();
        go.countDown();
        Thread.sleep(millis);
        stop.set(true);
        first.join();
        second.join();
        double seconds = (System.nanoTime() - t0) / 1e9;
        @SuppressWarnings("deprecation") // Thread.getId(): threadId() needs Java 19
        long a = first.getId(), b = second.getId();
        System.out.printf("  ids %d and %d (%s): %.1f Mops/s%n", a, b, distance == 1 ? "adjacent" : distance + " apart",
                ops.get() / seconds / 1e6);
    }
}
