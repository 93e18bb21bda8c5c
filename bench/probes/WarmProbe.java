/*
 * Probe (not built with the project): where the warm-round tail of issue 24 comes from. Rounds of 20,000
 * timers (random 1..100 ms, one producer, one worker, remove-on-cancel), timewheel and STPE interleaved, as
 * PunctualityHarness's warm mode; per round it prints p50 / p99 / max, how many timers were late by more than
 * 0.5 ms per delay range and per 10 ms of deadline, the clusters of such timers (absolute deadlines, in us), and
 * the gaps of more than 300 us between consecutive task starts while a task was due (the worker stopped).
 *
 *   ./mvnw -B -q -pl executor package -DskipTests
 *   javac -cp executor/target/timewheel-executor-0.1.0-SNAPSHOT.jar -d /tmp/probe bench/probes/WarmProbe.java
 *   java -cp executor/target/timewheel-executor-0.1.0-SNAPSHOT.jar:/tmp/probe WarmProbe 12
 *
 * Add a line to QueueWheel.expire printing System.nanoTime() / 1000 and the advance / takeExpired / pushBatch
 * times to set the clusters beside the hand-overs (issue 24's closing note of 2026-11-26 has what it showed).
 */
import java.util.*;
import java.util.concurrent.*;

public class WarmProbe {
    static int upper(long[] a, long v) { int lo = 0, hi = a.length; while (lo < hi) { int m = (lo + hi) >>> 1; if (a[m] <= v) lo = m + 1; else hi = m; } return lo; }
    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a.length > 0 ? a[0] : "12");
        int n = 20000;
        for (int r = 0; r < rounds; r++) {
            for (String kind : (r % 2 == 0 ? new String[]{"tw", "stpe"} : new String[]{"stpe", "tw"})) {
                ScheduledThreadPoolExecutor ex = kind.equals("tw")
                        ? new io.timewheel.executor.WheelScheduledExecutorService(1)
                        : new ScheduledThreadPoolExecutor(1);
                ex.setRemoveOnCancelPolicy(true);
                long[] dl = new long[n], st = new long[n], sched = new long[n];
                int[] delay = new int[n];
                SplittableRandom rnd = new SplittableRandom(r);
                CountDownLatch done = new CountDownLatch(n);
                for (int i = 0; i < n; i++) delay[i] = 1 + rnd.nextInt(100);
                long t0 = System.nanoTime(); long up0 = t0 / 1000;
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
                if (r == 0) continue;
                long[] late = new long[n];
                for (int i = 0; i < n; i++) late[i] = st[i] - dl[i];
                long[] s = late.clone(); Arrays.sort(s);
                StringBuilder sb = new StringBuilder();
                sb.append(String.format("t0=%dus round %2d %-4s flood %.1fms p50 %.3f p99 %.3f max %.3f | late>0.5ms by delay:", up0, r, kind, flood/1e6, s[n/2]/1e6, s[n*99/100]/1e6, s[n-1]/1e6));
                int[] edges = {1, 3, 9, 34, 60, 101};
                for (int b = 0; b + 1 < edges.length; b++) {
                    int c = 0, tot = 0;
                    for (int i = 0; i < n; i++) if (delay[i] >= edges[b] && delay[i] < edges[b+1]) { tot++; if (late[i] > 500_000) c++; }
                    sb.append(String.format(" [%d,%d):%d/%d", edges[b], edges[b+1], c, tot));
                }
                // by deadline time since t0 in 10 ms bins: count late > 0.5ms
                sb.append(" | by due(10ms bins):");
                int[] bins = new int[12];
                for (int i = 0; i < n; i++) if (late[i] > 500_000) { int bi = (int) Math.min(11, (dl[i]-t0)/10_000_000L); bins[bi]++; }
                for (int x : bins) sb.append(' ').append(x);
                // late clusters: deadlines (absolute us) of timers late > 0.5 ms, grouped when within 1 ms
                long[] lateDl = new long[n]; int m = 0;
                for (int i = 0; i < n; i++) if (late[i] > 500_000) lateDl[m++] = dl[i];
                long[] ld = Arrays.copyOf(lateDl, m); Arrays.sort(ld);
                sb.append(" | clusters:");
                for (int i = 0; i < m; ) { int j = i; long worst = 0; while (j + 1 < m && ld[j+1] - ld[j] < 1_000_000) j++; sb.append(String.format(" [%d..%d us:%d]", ld[i]/1000, ld[j]/1000, j-i+1)); i = j + 1; }
                // worker gaps: consecutive task starts more than 300 us apart while a task was overdue
                long[] ss = st.clone(); Arrays.sort(ss);
                long[] dd = dl.clone(); Arrays.sort(dd);
                sb.append(" | gaps:");
                for (int i = 1; i < n; i++) {
                    long gap = ss[i] - ss[i-1];
                    if (gap > 300_000) {
                        // was some task due before ss[i-1] + 100us and not started by then? count deadlines <= ss[i-1] minus starts <= ss[i-1]
                        int dueBy = upper(dd, ss[i-1] + 100_000);
                        if (dueBy > i) sb.append(String.format(" [%d us gap %d us, %d due]", (ss[i-1]-t0)/1000, gap/1000, dueBy - i));
                    }
                }
                System.out.println(sb);
            }
        }
    }
}
