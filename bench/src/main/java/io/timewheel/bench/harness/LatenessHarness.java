package io.timewheel.bench.harness;

import io.timewheel.bench.peer.Peer;
import io.timewheel.bench.peer.TimerService;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Lateness: how long after its deadline each timer starts to run. Per implementation, in one run: a
 * warm-up round, then {@code timers} timers with random whole-millisecond delays 1..{@code maxDelayMs},
 * scheduled back to back from one thread. Each task records {@code System.nanoTime()} when it starts.
 *
 * <p>The deadline of a timer is read as {@code nanoTime()} just before the schedule call plus the delay:
 * the implementation's own deadline is at or after it, so "early" (start before that) is early for
 * certain, and the lateness is overstated by at most the schedule call's duration.
 *
 * <p>Run: {@code java -jar bench/target/timewheel-bench.jar lateness [--timers 100000] [--max-delay-ms 500] [--peers all]}
 */
public final class LatenessHarness {

    /** One implementation's result. */
    public static final class Result {
        public final Peer peer;
        /** Lateness of the timers that were not early, in nanoseconds. */
        public final Histogram lateness;
        public final int timers;
        public final int early;
        public final long worstEarlyNanos;
        public final int missing;

        Result(Peer peer, Histogram lateness, int timers, int early, long worstEarlyNanos, int missing) {
            this.peer = peer;
            this.lateness = lateness;
            this.timers = timers;
            this.early = early;
            this.worstEarlyNanos = worstEarlyNanos;
            this.missing = missing;
        }

        public double percentileMillis(double p) {
            return lateness.getTotalCount() == 0 ? Double.NaN : lateness.getValueAtPercentile(p) / 1e6;
        }

        public double maxMillis() {
            return lateness.getTotalCount() == 0 ? Double.NaN : lateness.getMaxValue() / 1e6;
        }
    }

    private LatenessHarness() {
    }

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        boolean smoke = args.flag("smoke");
        run(Peer.parse(args.get("peers", "all")), args.getInt("timers", smoke ? 2_000 : 100_000),
                args.getInt("max-delay-ms", smoke ? 50 : 500), System.out);
    }

    public static Map<Peer, Result> run(List<Peer> peers, int timers, int maxDelayMs, PrintStream out) throws InterruptedException {
        out.printf("lateness: %,d timers, random delays 1..%d ms, scheduled from one thread%n", timers, maxDelayMs);
        out.printf("%-12s %10s %10s %10s %10s %10s %7s %8s%n", "peer", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms", "early", "missing");
        Map<Peer, Result> results = new LinkedHashMap<>();
        for (Peer peer : peers) {
            Result r = measure(peer, timers, maxDelayMs);
            results.put(peer, r);
            out.printf("%-12s %10.3f %10.3f %10.3f %10.3f %10.3f %7d %8d%n", peer.id(), r.percentileMillis(50),
                    r.percentileMillis(90), r.percentileMillis(99), r.percentileMillis(99.9), r.maxMillis(), r.early, r.missing);
            if (r.early > 0) {
                out.printf("%-12s   %d early fires, the earliest %.3f ms before its deadline%n", "", r.early, r.worstEarlyNanos / 1e6);
            }
        }
        return results;
    }

    public static Result measure(Peer peer, int timers, int maxDelayMs) throws InterruptedException {
        try (TimerService service = peer.create()) {
            round(service, Math.max(1, timers / 5), Math.min(maxDelayMs, 50), 1); // warm-up: JIT and threads
            System.gc();
            return round(service, timers, maxDelayMs, 2);
        }
    }

    private static Result round(TimerService service, int n, int maxDelayMs, long seed) throws InterruptedException {
        long[] deadlines = new long[n];
        long[] starts = new long[n];
        java.util.Arrays.fill(starts, Long.MIN_VALUE);
        CountDownLatch done = new CountDownLatch(n);
        Probe[] probes = new Probe[n];
        long[] delays = new long[n];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < n; i++) {
            probes[i] = new Probe(i, starts, done);
            delays[i] = 1 + random.nextInt(maxDelayMs);
        }
        for (int i = 0; i < n; i++) {
            long now = System.nanoTime();
            deadlines[i] = now + TimeUnit.MILLISECONDS.toNanos(delays[i]);
            service.schedule(probes[i], delays[i], TimeUnit.MILLISECONDS);
        }
        done.await(maxDelayMs + 30_000L, TimeUnit.MILLISECONDS);
        Histogram histogram = new Histogram(3);
        int early = 0, missing = 0;
        long worstEarly = 0;
        for (int i = 0; i < n; i++) {
            long start = starts[i];
            if (start == Long.MIN_VALUE) {
                missing++;
                continue;
            }
            long late = start - deadlines[i];
            if (late < 0) {
                early++;
                worstEarly = Math.max(worstEarly, -late);
            } else {
                histogram.recordValue(late);
            }
        }
        return new Result(service.peer(), histogram, n, early, worstEarly, missing);
    }

    /** Records when it starts. One per timer. */
    private static final class Probe implements Runnable {
        private final int index;
        private final long[] starts;
        private final CountDownLatch done;

        Probe(int index, long[] starts, CountDownLatch done) {
            this.index = index;
            this.starts = starts;
            this.done = done;
        }

        @Override
        public void run() {
            starts[index] = System.nanoTime();
            done.countDown(); // publishes the write to the harness thread
        }
    }
}
