/*
 * Probe (not built with the project): the near term's cost per task, without contention, timewheel ("tw") or
 * STPE ("stpe"). Per round: a fresh executor with one worker, held by a first task; N schedules with random
 * delays under 1 ms (all within the near term, in random deadline order: the ready queue's heap, not its
 * ring); 2 ms later the worker is released and drains them. Prints us per schedule ("produce") and per task
 * taken and run ("drain"); with a 4th argument only the last round.
 *
 *   ./mvnw -B -q -o -pl executor package -DskipTests
 *   javac -cp executor/target/timewheel-executor-0.1.0-SNAPSHOT.jar -d /tmp/ntc bench/probes/NearTermCost.java
 *   java -Xint -cp executor/target/timewheel-executor-0.1.0-SNAPSHOT.jar:/tmp/ntc NearTermCost tw 5000 2
 *   java -cp executor/target/timewheel-executor-0.1.0-SNAPSHOT.jar:/tmp/ntc NearTermCost stpe 20000 12 last
 *
 * What it showed (JDK 17, 2026-11-26; bench/results/jdk17/cold-path-compare.txt): interpreted, timewheel's
 * schedule costs ~2x STPE's (10-13 against 5-6.5 us) and its take-and-run ~1.3x (18-19 against 14-15 us);
 * warm (round 8+ of 20,000), 0.10-0.14 against 0.06-0.08 us and 0.34-0.50 against 0.27-0.29 us.
 */
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

public class NearTermCost {
    public static void main(String[] args) throws Exception {
        String kind = args[0];
        int n = Integer.parseInt(args[1]);
        int rounds = Integer.parseInt(args[2]);
        boolean lastOnly = args.length > 3;
        StringBuilder out = new StringBuilder(kind);
        for (int r = 0; r < rounds; r++) {
            ScheduledThreadPoolExecutor executor = kind.equals("tw")
                    ? new io.timewheel.executor.WheelScheduledExecutorService(1) : new ScheduledThreadPoolExecutor(1);
            CountDownLatch gate = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(n);
            executor.execute(new Runnable() {
                @Override
                public void run() {
                    try {
                        gate.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            Runnable task = new Runnable() {
                @Override
                public void run() {
                    done.countDown();
                }
            };
            SplittableRandom random = new SplittableRandom(r);
            long p0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                executor.schedule(task, random.nextInt(1_000_000), TimeUnit.NANOSECONDS);
            }
            long p1 = System.nanoTime();
            Thread.sleep(2); // every task due
            long d0 = System.nanoTime();
            gate.countDown();
            done.await();
            long d1 = System.nanoTime();
            if (!lastOnly || r == rounds - 1) {
                out.append(String.format("  r%d produce %.2f us/op drain %.2f us/op", r, (p1 - p0) / 1e3 / n, (d1 - d0) / 1e3 / n));
            }
            executor.shutdown();
            executor.awaitTermination(10, TimeUnit.SECONDS);
        }
        System.out.println(out);
    }
}
