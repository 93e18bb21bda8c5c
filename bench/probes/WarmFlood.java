/*
 * Probe (not built with the project): does the worker run while the producer floods? Warm rounds of issue 24's
 * shape (20,000 timers of 1-100 ms scheduled back to back from one thread, one worker, remove-on-cancel, a fresh
 * executor each, a System.gc() before each), timewheel and STPE interleaved. Per round: when the first task
 * started (ms after the flood began), how many tasks ran during the flood of those that fell due during it,
 * the flood's length, p99, max, the number of timers late by over 0.5 ms, and the three latest timers (index,
 * delay, when scheduled, due and started, ms after the flood began); at the end, per kind over the rounds after
 * the first: the rounds in which no task ran during the flood, the median p99 and max, the worst max, and the
 * rounds whose max passed 1 ms. -Dprestart=1 starts the worker first. Each round's line ends with the latest
 * timer's due and start times as System.nanoTime values and the worker's and producer's Linux thread ids (the
 * first task of a round reads /proc/thread-self once), for sched-stalls.py to find, in a `perf sched record -k
 * CLOCK_MONOTONIC` trace of the run, what held the CPUs while that timer waited.
 *
 *   ./mvnw -B -q -pl executor package -DskipTests
 *   javac -cp executor/target/timewheel-executor-0.1.0-SNAPSHOT.jar -d /tmp/wf bench/probes/WarmFlood.java
 *   java -cp executor/target/timewheel-executor-0.1.0-SNAPSHOT.jar:/tmp/wf WarmFlood 21
 *
 * What it showed (bench/results/jdk17/give-way.txt): in about half the rounds of either kind the worker ran no
 * task during a ~2 ms flood, and the timers of 1 ms scheduled first were late by the rest of it (started ~0.15
 * ms after the flood ended). Reading /proc/self/task/N/stat during the flood put the worker on the producer's
 * CPU and a C2 compiler thread running on the other. The fix: GiveWay's notes. What the worst rounds that
 * remain waited behind (bench/results/jdk25/warm-stalls.txt): JIT compiler threads' 4 ms runs, the producer's
 * flood, and once the kernel's kdamond.0 for 2.9 ms with the other CPU idle.
 */
import java.util.*;
import java.util.concurrent.*;

public class WarmFlood {
    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a.length > 0 ? a[0] : "21");
        int n = 20000;
        Map<String, List<double[]>> all = new TreeMap<>(); // per kind, per round: ran in flood, p99, max
        for (int r = 0; r < rounds; r++) {
            for (String kind : (r % 2 == 0 ? new String[]{"tw", "stpe"} : new String[]{"stpe", "tw"})) {
                System.gc();
                ScheduledThreadPoolExecutor ex = kind.equals("tw")
                        ? new io.timewheel.executor.WheelScheduledExecutorService(1)
                        : new ScheduledThreadPoolExecutor(1);
                ex.setRemoveOnCancelPolicy(true);
                if (System.getProperty("prestart") != null) {
                    ex.prestartAllCoreThreads();
                }
                long[] dl = new long[n], st = new long[n], sched = new long[n];
                String[] wtid = new String[1];
                int[] delay = new int[n];
                SplittableRandom rnd = new SplittableRandom(100 + r);
                CountDownLatch done = new CountDownLatch(n);
                for (int i = 0; i < n; i++) {
                    delay[i] = 1 + rnd.nextInt(100);
                }
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    final int k = i;
                    long now = System.nanoTime();
                    sched[i] = now - t0;
                    dl[i] = now + delay[i] * 1_000_000L;
                    ex.schedule(() -> { st[k] = System.nanoTime(); if (wtid[0] == null) wtid[0] = tid(); done.countDown(); }, delay[i], TimeUnit.MILLISECONDS);
                }
                long flood = System.nanoTime() - t0;
                done.await();
                ex.shutdown();
                ex.awaitTermination(10, TimeUnit.SECONDS);
                if (r == 0) {
                    continue; // cold
                }
                long first = Long.MAX_VALUE;
                int ranInFlood = 0, dueInFlood = 0;
                long[] late = new long[n];
                for (int i = 0; i < n; i++) {
                    first = Math.min(first, st[i] - t0);
                    if (st[i] - t0 < flood) ranInFlood++;
                    if (dl[i] - t0 < flood) dueInFlood++;
                    late[i] = st[i] - dl[i];
                }
                long[] sorted = late.clone();
                Arrays.sort(sorted);
                int over = 0;
                for (long x : late) if (x > 500_000) over++;
                StringBuilder sb = new StringBuilder(String.format(
                        "first %.2f ran/due in flood %d/%d round %2d %-4s flood %.2fms p99 %.3f max %.3f late>0.5:%d |",
                        first / 1e6, ranInFlood, dueInFlood, r, kind, flood / 1e6, sorted[n * 99 / 100] / 1e6, sorted[n - 1] / 1e6, over));
                Integer[] idx = new Integer[n];
                for (int i = 0; i < n; i++) idx[i] = i;
                Arrays.sort(idx, (x, y) -> Long.compare(late[y], late[x]));
                for (int j = 0; j < 3; j++) {
                    int i = idx[j];
                    sb.append(String.format(" [i=%d d=%dms sched@%.2f due@%.2f start@%.2f late %.3f]",
                            i, delay[i], sched[i] / 1e6, (dl[i] - t0) / 1e6, (st[i] - t0) / 1e6, late[i] / 1e6));
                }
                sb.append(String.format(" abs t0 %d worst due %d start %d wtid %s main %s", t0, dl[idx[0]], st[idx[0]], wtid[0], tid()));
                System.out.println(sb);
                all.computeIfAbsent(kind, k -> new ArrayList<>()).add(new double[]{ranInFlood, sorted[n * 99 / 100] / 1e6, sorted[n - 1] / 1e6});
            }
        }
        for (Map.Entry<String, List<double[]>> e : all.entrySet()) {
            List<double[]> v = e.getValue();
            double[] p99 = v.stream().mapToDouble(x -> x[1]).sorted().toArray();
            double[] max = v.stream().mapToDouble(x -> x[2]).sorted().toArray();
            System.out.printf("summary %-4s rounds %d ran-none-in-flood %d median p99 %.3f median max %.3f worst max %.3f max>1ms %d%n",
                    e.getKey(), v.size(), v.stream().filter(x -> x[0] == 0).count(), p99[p99.length / 2], max[max.length / 2],
                    max[max.length - 1], Arrays.stream(max).filter(x -> x > 1).count());
        }
    }
    /** The calling thread's Linux thread id, or "?". */
    static String tid() {
        try {
            String p = java.nio.file.Files.readSymbolicLink(java.nio.file.Paths.get("/proc/thread-self")).toString();
            return p.substring(p.lastIndexOf('/') + 1);
        } catch (Exception e) {
            return "?";
        }
    }
}
