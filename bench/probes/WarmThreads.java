/*
 * Probe (not built with the project): which threads of the JVM ran, and which waited for a CPU, in each warm
 * round of issue 24's shape (20,000 timers of 1-100 ms, one producer, one worker, timewheel and STPE rounds
 * interleaved, a fresh executor each), from /proc/self/task/N/schedstat (run ns, run-queue wait ns, time
 * slices), with the round's flood time and p99. -Dprestart=1 starts the worker before the flood. The summary
 * lines count per kind the rounds whose p99 was over 0.5 ms ("bad" rounds: warm rounds are bimodal, ~0.1 or
 * ~1 ms, and the median of their p99s is the share of bad ones):
 *
 *   javac -cp executor/target/timewheel-executor-0.1.0-SNAPSHOT.jar -d /tmp/wt bench/probes/WarmThreads.java
 *   java -cp executor/target/timewheel-executor-0.1.0-SNAPSHOT.jar:/tmp/wt WarmThreads 24
 *
 * With -XX:StartFlightRecording and jdk.ThreadPark at a 50 us threshold it shows who parked on the ready
 * queue's lock. What it showed: bench/results/jdk17/warm-lock-parks.txt. Each round's line starts with "T0 <nanoTime at
 * the flood's start> TID <the worker's thread id> MAIN <the producer's>", for bench/probes/sched-waits.py (where the
 * worker waited for a CPU, from a `perf sched record` of this probe).
 */
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;

public class WarmThreads {
    static Map<String, long[]> snap() throws Exception {
        Map<String, long[]> m = new HashMap<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(Paths.get("/proc/self/task"))) {
            for (Path t : ds) {
                try {
                    String comm = Files.readString(t.resolve("comm")).trim();
                    String[] s = Files.readString(t.resolve("schedstat")).trim().split(" ");
                    String key = comm.replaceAll("[0-9]+$", "#") ;
                    long[] v = m.computeIfAbsent(key, k -> new long[3]);
                    v[0] += Long.parseLong(s[0]); v[1] += Long.parseLong(s[1]); v[2] += Long.parseLong(s[2]);
                } catch (Exception e) { }
            }
        }
        return m;
    }
    /** The calling thread's Linux thread id (what perf and /proc name it by). */
    static String tid() {
        try {
            return Files.readSymbolicLink(Paths.get("/proc/thread-self")).getFileName().toString();
        } catch (Exception e) {
            return "?";
        }
    }

    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a[0]);
        String mainTid = tid();
        int n = 20000;
        Map<String, long[]> tot = new TreeMap<>();
        Map<String, List<Double>> p99s = new TreeMap<>();
        for (int r = 0; r < rounds; r++) {
            for (String kind : (r % 2 == 0 ? new String[]{"tw", "stpe"} : new String[]{"stpe", "tw"})) {
                ScheduledThreadPoolExecutor ex = kind.equals("tw")
                        ? new io.timewheel.executor.WheelScheduledExecutorService(1)
                        : new ScheduledThreadPoolExecutor(1);
                ex.setRemoveOnCancelPolicy(true);
                if (System.getProperty("prestart") != null) ex.prestartAllCoreThreads();
                long[] dl = new long[n], st = new long[n];
                int[] delay = new int[n];
                SplittableRandom rnd = new SplittableRandom(r);
                CountDownLatch done = new CountDownLatch(n);
                final String[] tid = new String[1];
                for (int i = 0; i < n; i++) delay[i] = 1 + rnd.nextInt(100);
                Map<String, long[]> before = snap();
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    final int k = i;
                    long now = System.nanoTime();
                    dl[i] = now + delay[i] * 1_000_000L;
                    ex.schedule(() -> { st[k] = System.nanoTime(); if (tid[0] == null) tid[0] = tid(); done.countDown(); }, delay[i], TimeUnit.MILLISECONDS);
                }
                long flood = System.nanoTime() - t0;
                done.await();
                Map<String, long[]> after = snap();
                ex.shutdown();
                ex.awaitTermination(10, TimeUnit.SECONDS);
                long[] late = new long[n];
                for (int i = 0; i < n; i++) late[i] = st[i] - dl[i];
                Arrays.sort(late);
                StringBuilder sb = new StringBuilder(String.format("T0 %d TID %s MAIN %s ", t0, tid[0], mainTid) + String.format("r%02d %-4s flood %5.1f p99 %6.3f |", r, kind, flood / 1e6, late[n * 99 / 100] / 1e6));
                for (Map.Entry<String, long[]> e : new TreeMap<>(after).entrySet()) {
                    long[] b = before.getOrDefault(e.getKey(), new long[3]);
                    long run = e.getValue()[0] - b[0], wait = e.getValue()[1] - b[1], sl = e.getValue()[2] - b[2];
                    if (run > 1_000_000 || wait > 1_000_000) sb.append(String.format(" %s run %.1f wait %.1f sl %d;", e.getKey(), run / 1e6, wait / 1e6, sl));
                    if (r > 0) { long[] t = tot.computeIfAbsent(kind + " " + e.getKey(), k -> new long[3]); t[0] += run; t[1] += wait; t[2] += sl; }
                }
                System.out.println(sb);
                if (r > 0) p99s.computeIfAbsent(kind, k -> new ArrayList<>()).add(late[n * 99 / 100] / 1e6);
            }
        }
        for (Map.Entry<String, long[]> e : tot.entrySet()) if (e.getValue()[0] > 5_000_000) System.out.printf("%-30s run %8.1f ms wait %8.1f ms slices %d%n", e.getKey(), e.getValue()[0] / 1e6, e.getValue()[1] / 1e6, e.getValue()[2]);
        for (Map.Entry<String, List<Double>> e : p99s.entrySet()) {
            List<Double> v = new ArrayList<>(e.getValue());
            Collections.sort(v);
            long bad = v.stream().filter(x -> x > 0.5).count();
            System.out.printf("%s rounds %d median p99 %.3f ms, rounds with p99 > 0.5 ms: %d%n", e.getKey(), v.size(), v.get((v.size() - 1) / 2), bad);
        }
    }
}
