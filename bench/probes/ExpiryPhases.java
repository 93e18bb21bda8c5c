/*
 * Probe (not built with the project): ExpiryBenchmark's shot split into its two phases, timewheel ("tw") or
 * STPE ("stpe"): 1M timers with random delays of 0-999 ms scheduled back to back from one thread (one worker),
 * then the wait until all have run. Prints per round (6, a fresh executor each) how long the schedule loop took,
 * the total, and what is left beyond "schedule + 1000 ms" (the last timer's lateness, roughly).
 *
 *   ./mvnw -B -q -o -pl executor package -DskipTests
 *   javac -cp executor/target/timewheel-executor-0.1.0-SNAPSHOT.jar -d /tmp/ep bench/probes/ExpiryPhases.java
 *   java -Xms1g -Xmx4g -cp executor/target/timewheel-executor-0.1.0-SNAPSHOT.jar:/tmp/ep ExpiryPhases tw
 *   java -XX:+UseParallelGC -Xms1g -Xmx4g -cp executor/target/timewheel-executor-0.1.0-SNAPSHOT.jar:/tmp/ep ExpiryPhases tw
 *
 * What it showed: bench/results/jdk17/expiry-phases.txt.
 */
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

public class ExpiryPhases {
    public static void main(String[] args) throws Exception {
        String kind = args[0];
        int n = 1_000_000;
        long[] delays = new long[n];
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < n; i++) {
            delays[i] = random.nextInt(1000);
        }
        for (int round = 0; round < 6; round++) {
            ScheduledThreadPoolExecutor executor = kind.equals("tw")
                    ? new io.timewheel.executor.WheelScheduledExecutorService(1) : new ScheduledThreadPoolExecutor(1);
            AtomicInteger left = new AtomicInteger(n);
            CountDownLatch done = new CountDownLatch(1);
            Runnable task = new Runnable() {
                @Override
                public void run() {
                    if (left.decrementAndGet() == 0) {
                        done.countDown();
                    }
                }
            };
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                executor.schedule(task, delays[i], TimeUnit.MILLISECONDS);
            }
            long t1 = System.nanoTime();
            done.await();
            long t2 = System.nanoTime();
            System.out.printf("%s round %d: schedule %.0f ms, total %.0f ms, beyond schedule + 1000 ms: %.0f ms%n", kind, round,
                    (t1 - t0) / 1e6, (t2 - t0) / 1e6, (t2 - t1) / 1e6 - 1000);
            executor.shutdown();
            executor.awaitTermination(10, TimeUnit.SECONDS);
            System.gc();
        }
    }
}
