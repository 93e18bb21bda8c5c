/*
 * Probe (not built with the project): `lateness`'s shape (100,000 timers of 1-500 ms from one thread, a fresh
 * executor per round, timewheel and STPE rounds interleaved) with each round's late timers (> 0.3 ms, or -Dthr ns) counted by
 * deadline (25 ms buckets since the flood began), and the quantiles of the near-term timers (<= 130 ms: straight to
 * the workers) apart from the far ones (> 140 ms: through the wheel and a hand-over). What it showed:
 * bench/results/jdk17/lateness-500-s36.txt. Each round's line starts with "T0 <nanoTime at the flood's start> TID <the
 * worker's thread id> MAIN <the producer's>", for bench/probes/sched-waits.py (where the worker waited for a CPU,
 * from a `perf sched record` of this probe: bench/results/jdk17/sched-waits-s37.txt).
 *
 *   javac -cp executor/target/timewheel-executor-0.1.0-SNAPSHOT.jar -d /tmp/l5 bench/probes/Late500.java
 *   java -cp executor/target/timewheel-executor-0.1.0-SNAPSHOT.jar:/tmp/l5 Late500 8
 */
import java.util.*;
import java.util.concurrent.*;

public class Late500 {
    /** The calling thread's Linux thread id (what perf and /proc name it by). */
    static String tid() {
        try {
            return java.nio.file.Files.readSymbolicLink(java.nio.file.Paths.get("/proc/thread-self")).getFileName().toString();
        } catch (Exception e) {
            return "?";
        }
    }

    static double q(long[] v, double p) { return v.length == 0 ? -1 : v[(int) Math.min(v.length - 1, p * v.length)] / 1e6; }
    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a[0]);
        int n = 100_000, maxMs = 500;
        String mainTid = tid();
        for (int r = 0; r < rounds; r++) {
            for (String kind : (r % 2 == 0 ? new String[]{"tw", "stpe"} : new String[]{"stpe", "tw"})) {
                ScheduledThreadPoolExecutor ex = kind.equals("tw")
                        ? new io.timewheel.executor.WheelScheduledExecutorService(1)
                        : new ScheduledThreadPoolExecutor(1);
                long[] dl = new long[n], st = new long[n]; int[] dms = new int[n];
                SplittableRandom rnd = new SplittableRandom(r);
                CountDownLatch done = new CountDownLatch(n);
                final String[] tid = new String[1];
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    final int k = i;
                    int d = 1 + rnd.nextInt(maxMs); dms[i] = d;
                    long now = System.nanoTime();
                    dl[i] = now + d * 1_000_000L;
                    ex.schedule(() -> { st[k] = System.nanoTime(); if (tid[0] == null) tid[0] = tid(); done.countDown(); }, d, TimeUnit.MILLISECONDS);
                }
                long flood = System.nanoTime() - t0;
                done.await();
                ex.shutdown();
                long[] late = new long[n];
                int[] buckets = new int[maxMs / 25 + 40];
                long thr = Long.getLong("thr", 300_000); // -Dthr=120000: count those over 0.12 ms
                for (int i = 0; i < n; i++) {
                    late[i] = st[i] - dl[i];
                    if (late[i] > thr) buckets[(int) ((dl[i] - t0) / 25_000_000L)]++;
                }
                long[] nearL = Arrays.stream(java.util.stream.IntStream.range(0, n).filter(i -> dms[i] <= 130).mapToLong(i -> late[i]).toArray()).sorted().toArray();
                long[] farL = Arrays.stream(java.util.stream.IntStream.range(0, n).filter(i -> dms[i] > 140).mapToLong(i -> late[i]).toArray()).sorted().toArray();
                long[] farLate = java.util.stream.IntStream.range(0, n).filter(i -> dms[i] > 140 && dl[i] - t0 > 200_000_000L).mapToLong(i -> late[i]).sorted().toArray();
                System.out.printf("   near(<=130ms) p50 %.3f p90 %.3f p99 %.3f | far(>140ms) p50 %.3f p90 %.3f p99 %.3f | far, due after 200ms p90 %.3f p99 %.3f%n",
                    q(nearL, .5), q(nearL, .9), q(nearL, .99), q(farL, .5), q(farL, .9), q(farL, .99), q(farLate, .9), q(farLate, .99));
                Arrays.sort(late);
                StringBuilder sb = new StringBuilder();
                for (int b = 0; b < buckets.length; b++) if (buckets[b] > 0) sb.append(' ').append(b * 25).append(':').append(buckets[b]);
                System.out.printf("T0 %d TID %s MAIN %s ", t0, tid[0], mainTid);
                System.out.printf("r%02d %-4s flood %5.1f ms p99 %6.3f  late>%sms by deadline (ms since flood start, 25 ms buckets):%s%n",
                        r, kind, flood / 1e6, late[n * 99 / 100] / 1e6, thr / 1e6, sb);
                ex.awaitTermination(10, TimeUnit.SECONDS);
            }
        }
    }
}
