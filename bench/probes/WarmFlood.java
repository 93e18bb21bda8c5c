/*
 * Probe: does the worker run while the producer floods? Warm rounds in the shape of `punctuality warm` (20,000
 * timers of 1-100 ms scheduled back to back from one thread, one worker, remove-on-cancel, a fresh executor
 * each, a System.gc() before each), timewheel ("tw") and STPE rounds interleaved, the first round of each not
 * counted. Per round: when the first task started (ms after the flood began), how many tasks ran during the
 * flood of those that fell due during it, the flood's length, p99, max, the timers late by over 0.5 ms, and the
 * three latest timers (index, delay, when scheduled, due and started, ms after the flood began). At the end,
 * per kind: the rounds in which no task ran during the flood, the median p99 and max, the worst max, and the
 * rounds whose max passed 1 ms. -Dprestart=1 starts the worker before the flood.
 *
 *   bench/probe.sh WarmFlood 21
 *   JAVA_OPTS=-Dprestart=1 bench/probe.sh WarmFlood 21
 *
 * Reach for it when the warm rounds' worst max moves, or a change touches what a producer does while workers
 * run late (GiveWay's rule, the ready queue's lock): a worker that runs no task during a flood is the usual
 * cause of a late round, on STPE too, and the latest timers show when in the flood they fell due.
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
                    ex.schedule(() -> { st[k] = System.nanoTime(); done.countDown(); }, delay[i], TimeUnit.MILLISECONDS);
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
}
