import io.timewheel.executor.ProbeLog;
import io.timewheel.executor.WheelScheduledExecutorService;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Issue 24: when timewheel's late timers fall due, next to what its tick thread was doing then. Rounds of
 * `lateness`'s shape (100,000 timers of 1..500 ms from one thread, one worker, a fresh executor per round after a
 * warm-up round of 20,000), the first round not printed; per round its p50 / p99 / max, the timers late by
 * over 1 ms by the millisecond of their deadline (count / worst ms), and the tick thread's wheel advances that
 * took over 0.4 ms (start ms + duration ms (entries expired); until 2026-11-26 the patch timed only advances that
 * expired something, and gave the entries handed over). Needs an executor built with
 * bench/probes/tick-events.patch (ProbeLog). A probe, not part of the build:
 * <pre>
 * git apply bench/probes/tick-events.patch
 * ./mvnw -B -q -o -pl executor package -DskipTests &amp;&amp; cp executor/target/timewheel-executor-*-SNAPSHOT.jar /tmp/tw-events.jar
 * git apply -R bench/probes/tick-events.patch
 * javac -d /tmp/lbd -cp /tmp/tw-events.jar bench/probes/LateByDeadline.java
 * java -Xms2g -Xmx2g -Xmn1g -cp /tmp/tw-events.jar:/tmp/lbd LateByDeadline 4
 * </pre>
 */
public class LateByDeadline {
    public static void main(String[] a) throws Exception {
        int n = 100_000, max = 500, rounds = a.length > 0 ? Integer.parseInt(a[0]) : 3;
        for (int r = 0; r <= rounds; r++) {
            ScheduledThreadPoolExecutor ex = WheelScheduledExecutorService.builder().corePoolSize(1).build();
            round(ex, n / 5, max, 1);
            System.gc();
            ProbeLog.n = 0;
            long t0 = System.nanoTime();
            long[][] res = round(ex, n, max, 2 + r);
            ex.shutdown();
            ex.awaitTermination(10, TimeUnit.SECONDS);
            if (r == 0) {
                continue;
            }
            int[] late = new int[max + 1];
            double[] worst = new double[max + 1];
            for (int i = 0; i < n; i++) {
                int ms = (int) ((res[0][i] - t0) / 1_000_000);
                if (res[1][i] > 1_000_000 && ms >= 0 && ms <= max) {
                    late[ms]++;
                    worst[ms] = Math.max(worst[ms], res[1][i] / 1e6);
                }
            }
            StringBuilder clusters = new StringBuilder();
            for (int ms = 0; ms <= max; ms++) {
                if (late[ms] > 0) {
                    clusters.append(String.format(" %d:%d/%.1f", ms, late[ms], worst[ms]));
                }
            }
            StringBuilder slow = new StringBuilder();
            for (int i = 0; i < ProbeLog.n; i += 4) {
                long took = ProbeLog.a[i + 2] - ProbeLog.a[i + 1];
                if (ProbeLog.a[i] == 1 && took > 400_000) {
                    slow.append(String.format(" %.1f+%.2f(%d)", (ProbeLog.a[i + 1] - t0) / 1e6, took / 1e6, ProbeLog.a[i + 3]));
                }
            }
            long[] sorted = res[1].clone();
            Arrays.sort(sorted);
            System.out.printf("round %d: p50 %.3f p99 %.3f max %.3f ms%n  late > 1 ms by deadline ms (count/worst ms):%s%n"
                    + "  advances over 0.4 ms (at ms + took ms (entries expired)):%s%n", r, sorted[n / 2] / 1e6, sorted[n * 99 / 100] / 1e6,
                    sorted[n - 1] / 1e6, clusters, slow);
        }
    }

    /** n timers of random 1..max ms from this thread; returns each one's deadline and lateness (ns). */
    static long[][] round(ScheduledThreadPoolExecutor ex, int n, int max, long seed) throws InterruptedException {
        long[] deadlines = new long[n], started = new long[n];
        CountDownLatch done = new CountDownLatch(n);
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < n; i++) {
            int id = i;
            long delay = 1 + random.nextInt(max);
            deadlines[i] = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delay);
            ex.schedule(() -> {
                started[id] = System.nanoTime();
                done.countDown();
            }, delay, TimeUnit.MILLISECONDS);
        }
        done.await(max + 30_000L, TimeUnit.MILLISECONDS);
        long[] lateness = new long[n];
        for (int i = 0; i < n; i++) {
            lateness[i] = started[i] - deadlines[i];
        }
        return new long[][] {deadlines, lateness};
    }
}
