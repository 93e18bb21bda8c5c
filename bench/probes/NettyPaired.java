import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import io.timewheel.executor.WheelScheduledExecutorService;
import io.timewheel.netty.WheelTimer;

import java.util.Arrays;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * WheelTimer, HashedWheelTimer (1 ms tick) and the bare WheelScheduledExecutorService side by side in ONE JVM, in
 * short interleaved slices: the timeout pattern (schedule a 30 s timeout, cancel it at once), each with its own 1M
 * far timeouts pending, by {@code producers} threads; slice after slice the three take turns (order rotating), so
 * a load that comes and goes on a shared machine falls on all three alike, and the ratios of their summed
 * throughputs hold where a JMH fork per figure would not. Warm-up slices first (not counted). A probe, not part of
 * the build:
 * <pre>
 * ./mvnw -B -q -pl bench -am package -DskipTests
 * javac -d /tmp/np -cp bench/target/timewheel-bench.jar bench/probes/NettyPaired.java
 * java -Xms2g -Xmx6g -cp bench/target/timewheel-bench.jar:/tmp/np NettyPaired 1 60    # producers, slices of 100 ms each
 * </pre>
 */
public class NettyPaired {
    static final TimerTask NOOP = t -> { };
    static final Runnable NOOP_RUNNABLE = () -> { };
    static final String[] NAMES = {"wheel-timer", "netty-1ms", "executor"};
    static final long SLICE_NANOS = 100_000_000L;

    interface Op {
        boolean scheduleCancel();
    }

    public static void main(String[] a) throws Exception {
        int producers = Integer.parseInt(a[0]);
        int slices = Integer.parseInt(a[1]);
        WheelTimer wheel = new WheelTimer();
        HashedWheelTimer netty = new HashedWheelTimer(1, TimeUnit.MILLISECONDS, 512);
        netty.start();
        WheelScheduledExecutorService executor = WheelScheduledExecutorService.builder().corePoolSize(1).build();
        executor.setRemoveOnCancelPolicy(true);
        fill(wheel);
        fill(netty);
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 1_000_000; i++) {
            executor.schedule(NOOP_RUNNABLE, 3_600_000L + random.nextLong(3_600_000L), TimeUnit.MILLISECONDS);
        }
        Thread.sleep(2_000); // HashedWheelTimer moves 100k a tick into its wheel
        System.gc();
        Op[] ops = {
            () -> wheel.newTimeout(NOOP, 30, TimeUnit.SECONDS).cancel(),
            () -> netty.newTimeout(NOOP, 30, TimeUnit.SECONDS).cancel(),
            () -> {
                ScheduledFuture<?> f = executor.schedule(NOOP_RUNNABLE, 30, TimeUnit.SECONDS);
                return f.cancel(false);
            }
        };
        long[][] counts = new long[3][];
        long[][] nanos = new long[3][];
        int warmup = Math.max(6, slices / 5);
        for (int k = 0; k < 3; k++) {
            counts[k] = new long[slices];
            nanos[k] = new long[slices];
        }
        for (int s = -warmup; s < slices; s++) {
            for (int j = 0; j < 3; j++) {
                int k = (j + Math.floorMod(s, 3)) % 3; // rotate the order every slice
                long[] r = slice(ops[k], producers);
                if (s >= 0) {
                    counts[k][s] = r[0];
                    nanos[k][s] = r[1];
                }
            }
        }
        double[] rate = new double[3];
        for (int k = 0; k < 3; k++) {
            rate[k] = (double) Arrays.stream(counts[k]).sum() / (Arrays.stream(nanos[k]).sum() / 1e3);
        }
        System.out.printf(Locale.ROOT, "%d producer(s), %d slices of %d ms each (load %s)%n", producers, slices,
                SLICE_NANOS / 1_000_000, new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/loadavg"))).trim());
        for (int k = 0; k < 3; k++) {
            System.out.printf(Locale.ROOT, "  %-12s %7.3f ops/us   per-slice ratio to netty-1ms: median %.2fx%n", NAMES[k], rate[k],
                    medianRatio(counts[k], nanos[k], counts[1], nanos[1]));
        }
        System.out.printf(Locale.ROOT, "  wheel-timer / netty-1ms %.2fx   wheel-timer / executor %.2fx   executor / netty-1ms %.2fx%n",
                rate[0] / rate[1], rate[0] / rate[2], rate[2] / rate[1]);
        wheel.stop();
        netty.stop();
        executor.shutdownNow();
        System.exit(0);
    }

    static double medianRatio(long[] c, long[] n, long[] c1, long[] n1) {
        double[] r = new double[c.length];
        for (int i = 0; i < c.length; i++) {
            r[i] = ((double) c[i] / n[i]) / ((double) c1[i] / n1[i]);
        }
        Arrays.sort(r);
        return r[r.length / 2];
    }

    static void fill(Timer timer) {
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 1_000_000; i++) {
            timer.newTimeout(NOOP, 3_600_000L + random.nextLong(3_600_000L), TimeUnit.MILLISECONDS);
        }
    }

    /** {operations, wall nanos} of {@code producers} threads running {@code op} for one slice. */
    static long[] slice(Op op, int producers) throws Exception {
        long[] done = new long[producers];
        CyclicBarrier start = new CyclicBarrier(producers + 1);
        long[] t = new long[2];
        Thread[] ts = new Thread[producers];
        for (int p = 0; p < producers; p++) {
            int id = p;
            ts[p] = new Thread(() -> {
                try {
                    start.await();
                } catch (Exception e) {
                    return;
                }
                long end = System.nanoTime() + SLICE_NANOS;
                long n = 0;
                boolean sink = false;
                do {
                    for (int i = 0; i < 256; i++) {
                        sink ^= op.scheduleCancel();
                    }
                    n += 256;
                } while (System.nanoTime() < end);
                done[id] = sink ? n : n;
            });
            ts[p].start();
        }
        start.await();
        long t0 = System.nanoTime();
        for (Thread th : ts) {
            th.join();
        }
        long wall = System.nanoTime() - t0;
        return new long[] {Arrays.stream(done).sum(), wall};
    }
}
