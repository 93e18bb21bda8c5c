package io.timewheel.bench.harness;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.timewheel.bench.peer.Peer;
import io.timewheel.bench.peer.TimerService;
import io.timewheel.executor.ExecutorStatistics;
import io.timewheel.executor.WheelScheduledExecutorService;
import org.HdrHistogram.Histogram;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Lateness: how long after its deadline each timer starts to run. Per implementation, in one run: a
 * warm-up of every implementation first (one round of the measured size and delays), then per round and
 * implementation a fresh instance, a warm-up round on it (a fifth of the timers, the same delays), then
 * {@code timers} timers with random whole-millisecond delays 1..{@code maxDelayMs}, scheduled back to back
 * from one thread. The warm-ups use the measured delays, so that the code of every path a measured timer takes
 * (beyond timewheel's near term, its tick thread's hand-over) has run as often before the measured rounds as in
 * one; warm-ups of short delays alone would leave that path to compile during them. The cold cost of that path is
 * what {@code punctuality cold --max-delay-ms 500} shows. Each task records {@code System.nanoTime()} when it
 * starts.
 *
 * <p>Heap: before each measured round the harness calls {@code System.gc()}, so that no peer's round collects
 * another's garbage. G1 would then shrink the heap to its minimum, and every round would run with an eden of a few
 * MB, its young pauses (3-25 ms, whichever peer a round measures; -Xlog:gc shows them) setting the p99s. So the
 * harness keeps the heap at the size it has (MaxHeapFreeRatio=100, a manageable flag, put back after), from the
 * warm-ups on: kept only from the first measured round, the heap would be back at its minimum there, and that
 * round, always the first peer's, would grow it again in a young pause. On the default heap no young pause then
 * falls in a round of 100k timers, as with -Xms2g.
 *
 * <p>The deadline of a timer is read as {@code nanoTime()} just before the schedule call plus the delay:
 * the implementation's own deadline is at or after it, so "early" (start before that) is early for
 * certain, and the lateness is overstated by at most the schedule call's duration.
 *
 * <p>Rounds: on a shared machine a burst of other work makes one round's tail meaningless, so the peers are
 * measured in {@code rounds} interleaved rounds (each on a fresh instance) and each peer's result is its
 * round with the median p99; early fires are summed over all rounds. For timewheel the table is followed by why
 * its median round was late: the two parts of lateness from its own {@code statistics()} over that
 * round, hand-over (the tick thread) and worker wait (the workers and the CPU).
 *
 * <p>Run: {@code java -jar bench/target/timewheel-bench.jar lateness [--timers 100000] [--max-delay-ms 500] [--rounds 3] [--peers all]}
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
        /** The p99 of every round, in milliseconds, in order. */
        public final List<Double> roundP99s = new java.util.ArrayList<>();
        /**
         * For timewheel: its own statistics() over the measured round (the histograms' difference across it):
         * hand-over and worker-wait histograms, log2 buckets (ExecutorStatistics); null for other peers.
         */
        long[] handOver, workerWait;

        public Result(Peer peer, Histogram lateness, int timers, int early, long worstEarlyNanos, int missing) {
            this.peer = peer;
            this.lateness = lateness;
            this.timers = timers;
            this.early = early;
            this.worstEarlyNanos = worstEarlyNanos;
            this.missing = missing;
        }

        /** The round with the median p99, with the early fires, timers and misses of all the rounds. */
        static Result combine(List<Result> rounds) {
            List<Result> byP99 = new java.util.ArrayList<>(rounds);
            byP99.sort(java.util.Comparator.comparingDouble(r -> r.percentileMillis(99)));
            Result median = byP99.get((byP99.size() - 1) / 2);
            int timers = 0, early = 0, missing = 0;
            long worstEarly = 0;
            for (Result r : rounds) {
                timers += r.timers;
                early += r.early;
                missing += r.missing;
                worstEarly = Math.max(worstEarly, r.worstEarlyNanos);
            }
            Result combined = new Result(median.peer, median.lateness, timers, early, worstEarly, missing);
            combined.handOver = median.handOver;
            combined.workerWait = median.workerWait;
            for (Result r : rounds) {
                combined.roundP99s.add(r.percentileMillis(99));
            }
            return combined;
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
                args.getInt("max-delay-ms", smoke ? 50 : 500), args.getInt("rounds", smoke ? 1 : 3), System.out);
    }

    public static Map<Peer, Result> run(List<Peer> peers, int timers, int maxDelayMs, int rounds, PrintStream out)
            throws InterruptedException {
        out.println(Console.wrap("", String.format("lateness: %,d timers per round, random delays 1..%d ms, scheduled from one"
                + " thread; %d interleaved round(s), the round with the median p99 shown", timers, maxDelayMs, rounds)));
        // JIT warm-up before any round counts: one round of the measured size and delays per peer, so that every
        // peer's code for those delays has run as often as in a measured round (timers beyond timewheel's near term
        // take its tick thread's path, which shorter delays never reach; STPE has one path for all)
        // The heap is kept from the warm-ups on, so that what they grew it to stays for the measured rounds (see
        // the class notes: kept only from the first measured round, the heap was back at its minimum there, and
        // that round, always timewheel's, grew it in a young pause of ~11 ms)
        Map<Peer, List<Result>> all = new LinkedHashMap<>();
        String maxHeapFreeRatio = keepHeap();
        try {
            for (Peer peer : peers) {
                measure(peer, timers, maxDelayMs, 1);
            }
            for (int round = 0; round < rounds; round++) {
                for (Peer peer : peers) {
                    all.computeIfAbsent(peer, p -> new java.util.ArrayList<>()).add(measure(peer, timers, maxDelayMs, 2 + round));
                }
            }
        } finally {
            restoreHeap(maxHeapFreeRatio);
        }
        out.printf("%-12s %8s %8s %8s %8s %8s %7s %7s  %s%n", "peer", "p50 ms", "p90 ms", "p99 ms", "p99.9 ms", "max ms",
                "early", "missing", "p99 of each round, ms");
        Map<Peer, Result> results = new LinkedHashMap<>();
        for (Map.Entry<Peer, List<Result>> e : all.entrySet()) {
            Peer peer = e.getKey();
            Result r = Result.combine(e.getValue());
            results.put(peer, r);
            StringBuilder p99s = new StringBuilder();
            for (double p : r.roundP99s) {
                p99s.append(p99s.length() == 0 ? "" : " ").append(String.format("%.2f", p));
            }
            out.printf("%-12s %8.3f %8.3f %8.3f %8.3f %8.3f %7d %7d  %s%n", peer.id(), r.percentileMillis(50),
                    r.percentileMillis(90), r.percentileMillis(99), r.percentileMillis(99.9), r.maxMillis(), r.early, r.missing, p99s);
            String indent = " ".repeat(15);
            if (r.early > 0) {
                out.println(Console.wrap(indent, String.format("%d of %d timers fired early, the earliest %.3f ms before its deadline",
                        r.early, r.timers, r.worstEarlyNanos / 1e6)));
            }
            if (r.handOver != null) {
                out.printf("%swhy, from its statistics() over that round:%n", indent);
                out.printf("%s  hand-over (deadline until a worker could take it) p50 / p99 <= %s / %s ms%n", indent,
                        upperMillis(r.handOver, 0.5), upperMillis(r.handOver, 0.99));
                out.printf("%s  worker wait (then until a worker started it) p50 / p99 <= %s / %s ms%n", indent,
                        upperMillis(r.workerWait, 0.5), upperMillis(r.workerWait, 0.99));
            }
        }
        return results;
    }

    /**
     * Keeps the heap from shrinking after the System.gc() before each measured round (see the class notes):
     * sets the manageable flag MaxHeapFreeRatio to 100 and returns its value before, or null where the JVM has
     * no such flag (then nothing changes).
     */
    public static String keepHeap() {
        try {
            HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            String before = hotSpot.getVMOption("MaxHeapFreeRatio").getValue();
            hotSpot.setVMOption("MaxHeapFreeRatio", "100");
            return before;
        } catch (RuntimeException notHotSpot) {
            return null;
        }
    }

    /** Puts MaxHeapFreeRatio back to {@code before} (a keepHeap result). */
    public static void restoreHeap(String before) {
        if (before != null) {
            ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class).setVMOption("MaxHeapFreeRatio", before);
        }
    }

    public static Result measure(Peer peer, int timers, int maxDelayMs, long seed) throws InterruptedException {
        try (TimerService service = peer.create()) {
            round(service, Math.max(1, timers / 5), maxDelayMs, 1); // warm-up of the instance: threads, its own paths
            System.gc();
            ExecutorStatistics before = statistics(service);
            Result result = round(service, timers, maxDelayMs, seed);
            ExecutorStatistics after = statistics(service);
            if (before != null && after != null) {
                result.handOver = minus(after.handOverHistogram(), before.handOverHistogram());
                result.workerWait = minus(after.workerWaitHistogram(), before.workerWaitHistogram());
            }
            return result;
        }
    }

    /** timewheel's own statistics, or null for a peer that is not a WheelScheduledExecutorService. */
    private static ExecutorStatistics statistics(TimerService service) {
        return service.root() instanceof WheelScheduledExecutorService wheel ? wheel.statistics() : null;
    }

    private static long[] minus(long[] a, long[] b) {
        long[] d = a.clone();
        for (int i = 0; i < d.length; i++) {
            d[i] -= b[i];
        }
        return d;
    }

    /** The upper end of the log2 bucket holding the quantile, in ms (ExecutorStatistics.quantileUpperBound). */
    private static String upperMillis(long[] histogram, double fraction) {
        return String.format("%.3f", ExecutorStatistics.quantileUpperBound(histogram, fraction) / 1e6);
    }

    /**
     * One round on {@code service} as it is (no warm-up): {@code n} timers with random whole-millisecond delays
     * 1..{@code maxDelayMs}, scheduled back to back from the calling thread.
     */
    public static Result round(TimerService service, int n, int maxDelayMs, long seed) throws InterruptedException {
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
