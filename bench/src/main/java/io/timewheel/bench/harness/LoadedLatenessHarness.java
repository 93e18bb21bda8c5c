package io.timewheel.bench.harness;

import io.timewheel.bench.peer.Peer;
import io.timewheel.bench.peer.TimerService;
import io.timewheel.bench.peer.Workloads;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Lateness under load: while {@code producers} threads schedule and cancel 30 s timers as fast as they
 * can (the timeout pattern at full tilt), a probe thread schedules one 10 ms timer at a time, waits for it
 * and sleeps 10 ms, for {@code millis}. Reports the probes' lateness (start minus deadline) and the
 * producers' throughput: how well the implementation keeps firing timers while it is flooded with work.
 *
 * <p>Run: {@code java -jar bench/target/timewheel-bench.jar lateness-under-load [--producers 1] [--millis 3000] [--peers all]}
 */
public final class LoadedLatenessHarness {

    public static final class Result {
        public final Peer peer;
        public final Histogram probes;
        public final int missed;
        public final double producerMops;

        public Result(Peer peer, Histogram probes, int missed, double producerMops) {
            this.peer = peer;
            this.probes = probes;
            this.missed = missed;
            this.producerMops = producerMops;
        }

        public double percentileMillis(double p) {
            return probes.getTotalCount() == 0 ? Double.NaN : probes.getValueAtPercentile(p) / 1e6;
        }

        public double maxMillis() {
            return probes.getTotalCount() == 0 ? Double.NaN : probes.getMaxValue() / 1e6;
        }
    }

    private LoadedLatenessHarness() {
    }

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        boolean smoke = args.flag("smoke");
        run(Peer.parse(args.get("peers", "all")), args.getInt("producers", 1), args.getInt("millis", smoke ? 300 : 3_000), System.out);
    }

    public static Map<Peer, Result> run(List<Peer> peers, int producers, int millis, PrintStream out) throws InterruptedException {
        out.printf("lateness under load: %d producer thread(s) scheduling+cancelling 30 s timers non-stop; 10 ms probe timers,"
                + " one at a time, for %.1f s%n", producers, millis / 1000.0);
        out.printf("%-12s %10s %10s %10s %8s %8s %14s%n", "peer", "p50 ms", "p99 ms", "max ms", "probes", "missed", "producer Mops/s");
        Map<Peer, Result> results = new LinkedHashMap<>();
        for (Peer peer : peers) {
            Result r = measure(peer, producers, millis);
            results.put(peer, r);
            out.printf("%-12s %10.3f %10.3f %10.3f %8d %8d %14.2f%n", peer.id(), r.percentileMillis(50), r.percentileMillis(99),
                    r.maxMillis(), r.probes.getTotalCount(), r.missed, r.producerMops);
        }
        return results;
    }

    public static Result measure(Peer peer, int producers, int millis) throws InterruptedException {
        try (TimerService service = peer.create()) {
            Workloads.warmUp(service);
            AtomicBoolean stop = new AtomicBoolean();
            LongAdder ops = new LongAdder();
            Thread[] threads = new Thread[producers];
            for (int i = 0; i < producers; i++) {
                threads[i] = new Thread(() -> {
                    long n = 0;
                    while (!stop.get()) {
                        service.cancel(service.schedule(Workloads.NOOP, 30, TimeUnit.SECONDS));
                        n++;
                    }
                    ops.add(n);
                }, "bench-producer-" + i);
                threads[i].start();
            }
            Thread.sleep(Math.min(500, millis / 4)); // the producers reach full speed
            Histogram histogram = new Histogram(3);
            int missed = 0;
            long t0 = System.nanoTime();
            long end = t0 + TimeUnit.MILLISECONDS.toNanos(millis);
            while (System.nanoTime() < end) {
                long[] start = new long[1];
                CountDownLatch ran = new CountDownLatch(1);
                long deadline = System.nanoTime() + 10_000_000L;
                service.schedule(() -> {
                    start[0] = System.nanoTime();
                    ran.countDown();
                }, 10, TimeUnit.MILLISECONDS);
                if (!ran.await(10, TimeUnit.SECONDS)) {
                    missed++; // not run within 10 s: counted, not waited for
                } else {
                    histogram.recordValue(Math.max(0, start[0] - deadline));
                }
                Thread.sleep(10);
            }
            double seconds = (System.nanoTime() - t0) / 1e9;
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
            return new Result(peer, histogram, missed, ops.sum() / 1e6 / (seconds + Math.min(500, millis / 4) / 1000.0));
        }
    }
}
