/*
 * Probe: where a fresh JVM's first round spends CPU, on timewheel ("tw") or on the JDK's STPE ("stpe"): 20,000
 * timers of 1-100 ms scheduled back to back from the main thread (all within the near term), one worker.
 * Prints the main thread's CPU time while it constructs the executor and while it schedules (the flood), the
 * worker's CPU time for the round, the JIT's compilation time (CompilationMXBean) and the CPU of every thread of
 * the JVM; then the round's p50 and p99 lateness, and, by deadline in 10 ms buckets from the first schedule,
 * how many timers were late by over 1 ms and the worst of them (ms). One round per JVM; alternate the kinds:
 *
 *   for i in 1 2 3 4 5 6 7 8; do for k in tw stpe; do bench/probe.sh ColdCpu $k; done; done
 *
 * Reach for it when a change touches the code a fresh JVM runs first (the schedule, hand-over and run paths,
 * the atomics they go through): CPU times are far steadier than lateness on a shared machine, and on 2 CPUs
 * what the JIT and the producer take is what the worker waits for. Compare two builds with their launches
 * alternating; `punctuality cold` gives the lateness that results. JAVA_OPTS="-XX:+UnlockDiagnosticVMOptions
 * -XX:+LogCompilation" shows which compilations take the JIT's time.
 */
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

public class ColdCpu {
    public static void main(String[] args) throws Exception {
        String kind = args[0];
        int n = 20_000;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        long compiled0 = jit.getTotalCompilationTime();
        long main0 = threads.getCurrentThreadCpuTime();
        ScheduledThreadPoolExecutor executor = kind.equals("tw")
                ? new io.timewheel.executor.WheelScheduledExecutorService(1) : new ScheduledThreadPoolExecutor(1);
        long[] workerId = new long[1];
        CountDownLatch done = new CountDownLatch(n);
        long[] deadlines = new long[n];
        long[] starts = new long[n];
        SplittableRandom random = new SplittableRandom(42);
        long main1 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            int k = i;
            int delay = 1 + random.nextInt(100);
            deadlines[i] = System.nanoTime() + delay * 1_000_000L;
            executor.schedule(new Runnable() {
                @Override
                public void run() {
                    starts[k] = System.nanoTime();
                    workerId[0] = Thread.currentThread().getId();
                    done.countDown();
                }
            }, delay, TimeUnit.MILLISECONDS);
        }
        long main2 = threads.getCurrentThreadCpuTime();
        done.await();
        long workerCpu = threads.getThreadCpuTime(workerId[0]);
        long compiled1 = jit.getTotalCompilationTime();
        double[] late = new double[n];
        // by deadline, in 10 ms buckets from the first schedule: timers late by over 1 ms / the worst, ms
        int[] over = new int[11];
        double[] worst = new double[11];
        for (int i = 0; i < n; i++) {
            late[i] = (starts[i] - deadlines[i]) / 1e6;
            int bucket = (int) Math.max(0, Math.min(10, (deadlines[i] - t0) / 10_000_000L));
            over[bucket] += late[i] > 1 ? 1 : 0;
            worst[bucket] = Math.max(worst[bucket], late[i]);
        }
        StringBuilder byDeadline = new StringBuilder();
        for (int b = 0; b < 11; b++) {
            byDeadline.append(String.format(" %d:%d/%.1f", b * 10, over[b], worst[b]));
        }
        Arrays.sort(late);
        long all = 0;
        for (long id : threads.getAllThreadIds()) {
            long cpu = threads.getThreadCpuTime(id);
            if (cpu > 0) {
                all += cpu;
            }
        }
        System.out.printf("%s construct-cpu %.1f flood-cpu %.1f worker-cpu %.1f compile-ms %d all-threads-cpu %.1f | p50 %.2f p99 %.2f |%s%n",
                kind, (main1 - main0) / 1e6, (main2 - main1) / 1e6, workerCpu / 1e6, compiled1 - compiled0, all / 1e6,
                late[n / 2], late[n * 99 / 100], byDeadline);
        executor.shutdown();
    }
}
