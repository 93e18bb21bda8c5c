import io.timewheel.executor.WheelScheduledExecutorService;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.SplittableRandom;
import java.util.concurrent.*;

/**
 * Issue 24: the tick thread's CPU per far timer, the claimant a worker waits behind in a flood (lateness's shape:
 * one thread schedules N timers back to back). Per round, on a fresh executor (one worker): the producer's ns per
 * schedule, the tick thread's CPU per timer while it files them (delays 1000-1300 ms: nothing handed over yet,
 * read 300 ms after the flood), and its CPU per timer over their whole life (delays 200-500 ms, read after the
 * last one ran). A probe, not part of the build:
 * <pre>
 * javac -d /tmp/tc -cp executor/target/timewheel-executor-0.1.0-SNAPSHOT.jar bench/probes/TickCpu.java
 * java -cp executor/target/timewheel-executor-0.1.0-SNAPSHOT.jar:/tmp/tc TickCpu 100000 8
 * </pre>
 */
public class TickCpu {
    static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]);
        int rounds = Integer.parseInt(a[1]);
        SplittableRandom random = new SplittableRandom(42);
        for (int r = 1; r <= rounds; r++) {
            double[] file = round(n, 1000, 300, random, false);
            double[] life = round(n, 200, 300, random, true);
            System.out.printf("round %2d  produce %6.1f ns/op  tick filing %6.1f ns/timer  | produce %6.1f  tick whole life %6.1f ns/timer%n",
                    r, file[0], file[1], life[0], life[1]);
        }
    }

    static double[] round(int n, long minMs, long spanMs, SplittableRandom random, boolean life) throws Exception {
        ScheduledThreadPoolExecutor ex = WheelScheduledExecutorService.builder().corePoolSize(1).build();
        ex.prestartAllCoreThreads();
        CountDownLatch done = new CountDownLatch(n);
        Runnable task = done::countDown;
        ex.schedule(() -> {}, 5, TimeUnit.SECONDS); // a far timer: the tick thread starts serving this executor
        Thread.sleep(50);
        long tickId = tickThreadId();
        long cpu0 = MX.getThreadCpuTime(tickId);
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            ex.schedule(task, (minMs + random.nextLong(spanMs)) * 1_000_000L, TimeUnit.NANOSECONDS);
        }
        long produce = System.nanoTime() - t0;
        if (life) {
            done.await();
        } else {
            Thread.sleep(300);
        }
        long cpu = MX.getThreadCpuTime(tickId) - cpu0;
        ex.shutdownNow();
        ex.awaitTermination(10, TimeUnit.SECONDS);
        return new double[] {(double) produce / n, (double) cpu / n};
    }

    static long tickThreadId() {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("timewheel-tick")) {
                return t.getId();
            }
        }
        throw new IllegalStateException("no tick thread");
    }
}
