package io.timewheel.bench.harness;

import io.timewheel.executor.WheelScheduledExecutorService;

import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Lateness of bursts of deadlines under CPU load: bursts of {@code timers} one-shot timers, each
 * due {@code deadline} ± {@code jitter} (uniform) after it is scheduled, scheduled from one thread over
 * {@code arrival} microseconds (spread evenly, the way requests with a deadline arrive), each callback
 * busy-spinning {@code work} microseconds, while {@code load} other threads keep CPUs busy. The same bursts
 * run on the JDK's {@link ScheduledThreadPoolExecutor} and on timewheel's
 * {@link WheelScheduledExecutorService}, side by side in one run.
 *
 * <p>What is measured: per timer, lateness = the callback's {@code System.nanoTime()} (read first thing,
 * before the busy work) minus (the {@code nanoTime()} read just before the schedule call + the delay). The
 * executor's own deadline is at or after ours, so a negative lateness is an early fire for certain; the
 * lateness is overstated by at most one schedule call. Per burst: p50, p99 (nearest rank) and max of its
 * timers, its early fires and the timers that never ran (within 30 s after the burst's last deadline). Per
 * executor kind: the median over bursts of the per-burst p50 and of the per-burst p99, the max over all
 * bursts, the early fires and misses summed. The goal: timewheel's median p50 and p99 no worse
 * than STPE's (ratio timewheel / STPE at most 1), and zero early fires.
 *
 * <p>How the kinds share the machine: each kind gets {@code executors} executors of {@code workers} core
 * threads, created once and reused by every burst (never fresh per burst: a long-lived executor is what a
 * server has; their threads are prestarted), all of them alive for the whole configuration. A burst's timers
 * go round-robin over the kind's executors; timewheel's executors share the JVM-wide tick thread. The bursts
 * run in slots, one kind per slot, interleaved stpe, timewheel, timewheel, stpe, stpe, ... so that drifts of
 * the machine fall on both kinds alike; {@code warmup} slots per kind first (the same pattern), not counted.
 * Twenty by default, which is 10,000 timers per kind: enough for the JIT to compile both kinds' paths. With
 * five, a fresh JVM measured its first row partly in interpreted and C1 code, where timewheel's longer path
 * (producer, tick thread, ready queue) was later than STPE's: p99 3.2-3.4x STPE's on JDK 17, against
 * 0.94-1.04x with twenty (default row alone, alternately, two runs each). That is the first seconds of an
 * application, not its bursts in steady state, which is what this harness measures.
 * A slot waits until all its timers have run, so the kinds never overlap. Without overlap ({@code gap >=
 * deadline + jitter}) a slot is one burst and the next slot starts {@code gap} after the previous one's start
 * at the earliest. With overlap ({@code gap < deadline + jitter}) a slot is a train of {@code train} bursts
 * started {@code gap} apart (default: twice the number of bursts in flight at once), the first ones of a
 * train overlapping less than the later ones.
 *
 * <p>Load: {@code load} daemon threads spin on arithmetic for the whole configuration (warm-up included).
 *
 * <p>Run:
 * <pre>
 * java -jar bench/target/timewheel-bench.jar lateness-burst                  # the default row, ~11 s
 * java -jar bench/target/timewheel-bench.jar lateness-burst --matrix         # every variant below, ~1.5 min
 * java -jar bench/target/timewheel-bench.jar lateness-burst [--workers 1] [--executors 1] [--work-us 5]
 *     [--bursts 30] [--timers 500] [--deadline-ms 50] [--jitter-ms 2.5] [--gap-ms 100] [--load 1]
 *     [--arrival-us 600] [--warmup 20] [--train N] [--seed 12] [--csv FILE]
 * </pre>
 * {@code --csv FILE} writes one line per measured burst (variant, kind, burst, slot, timers, p50/p99/max in
 * ns, early, missing). The matrix ({@link #matrix}): the default row (1 worker, 1 executor, 5 us, no overlap,
 * 1 load thread), 4 workers, 3 executors sharing the tick thread, 1 us callbacks, 100 us callbacks,
 * overlapping bursts (a burst every 10 ms), no load; and an A/A control, the default row with a second STPE in
 * timewheel's slots ({@link Config#control}): its ratios are the run's noise, what "no worse than STPE" is
 * read against.
 */
public final class BurstLatenessHarness {

    /** The executor kinds compared, in the order of the first slot. */
    public enum Kind {
        STPE("stpe"),
        TIMEWHEEL("timewheel");

        private final String id;

        Kind(String id) {
            this.id = id;
        }

        public String id() {
            return id;
        }

        ScheduledThreadPoolExecutor create(int workers, ThreadFactory threads) {
            if (this == STPE) {
                return new ScheduledThreadPoolExecutor(workers, threads);
            }
            return WheelScheduledExecutorService.builder().corePoolSize(workers).threadFactory(threads).build();
        }
    }

    /** One configuration. Immutable; the {@code with*} methods return a changed copy. */
    public static final class Config {
        public final String name;
        public final int workers, executors, workUs, bursts, timers, deadlineMs, gapMs, load, arrivalUs, warmup, train;
        public final double jitterMs;
        public final long seed;
        /** An A/A control: the timewheel slots run on a second STPE, so the ratios show this run's noise. */
        public final boolean control;

        public Config(String name, int workers, int executors, int workUs, int bursts, int timers, int deadlineMs, double jitterMs,
                      int gapMs, int load, int arrivalUs, int warmup, int train, long seed) {
            this(name, workers, executors, workUs, bursts, timers, deadlineMs, jitterMs, gapMs, load, arrivalUs, warmup, train, seed, false);
        }

        public Config(String name, int workers, int executors, int workUs, int bursts, int timers, int deadlineMs, double jitterMs,
                      int gapMs, int load, int arrivalUs, int warmup, int train, long seed, boolean control) {
            if (workers < 1 || executors < 1 || workUs < 0 || bursts < 1 || timers < 1 || deadlineMs < 1 || jitterMs < 0
                    || jitterMs >= deadlineMs || gapMs < 1 || load < 0 || arrivalUs < 0 || warmup < 0 || train < 0) {
                throw new IllegalArgumentException("bad burst configuration: workers " + workers + ", executors " + executors
                        + ", work " + workUs + " us, bursts " + bursts + ", timers " + timers + ", deadline " + deadlineMs
                        + " ms, jitter " + jitterMs + " ms (below the deadline), gap " + gapMs + " ms, load " + load
                        + ", arrival " + arrivalUs + " us, warm-up " + warmup + ", train " + train);
            }
            this.name = name;
            this.workers = workers;
            this.executors = executors;
            this.workUs = workUs;
            this.bursts = bursts;
            this.timers = timers;
            this.deadlineMs = deadlineMs;
            this.jitterMs = jitterMs;
            this.gapMs = gapMs;
            this.load = load;
            this.arrivalUs = arrivalUs;
            this.warmup = warmup;
            this.train = train;
            this.seed = seed;
            this.control = control;
        }

        /** The default row: 500 timers due 50 ± 2.5 ms over 0.6 ms, 5 us callbacks, 1 worker, 1 load thread. */
        public static Config defaults() {
            return new Config("default", 1, 1, 5, 30, 500, 50, 2.5, 100, 1, 600, 20, 0, 12);
        }

        public Config named(String n) {
            return new Config(n, workers, executors, workUs, bursts, timers, deadlineMs, jitterMs, gapMs, load, arrivalUs, warmup, train, seed, control);
        }

        public Config workers(int n) {
            return new Config(name, n, executors, workUs, bursts, timers, deadlineMs, jitterMs, gapMs, load, arrivalUs, warmup, train, seed, control);
        }

        public Config executors(int n) {
            return new Config(name, workers, n, workUs, bursts, timers, deadlineMs, jitterMs, gapMs, load, arrivalUs, warmup, train, seed, control);
        }

        public Config workUs(int us) {
            return new Config(name, workers, executors, us, bursts, timers, deadlineMs, jitterMs, gapMs, load, arrivalUs, warmup, train, seed, control);
        }

        public Config bursts(int n) {
            return new Config(name, workers, executors, workUs, n, timers, deadlineMs, jitterMs, gapMs, load, arrivalUs, warmup, train, seed, control);
        }

        public Config timers(int n) {
            return new Config(name, workers, executors, workUs, bursts, n, deadlineMs, jitterMs, gapMs, load, arrivalUs, warmup, train, seed, control);
        }

        public Config deadline(int ms, double jitter) {
            return new Config(name, workers, executors, workUs, bursts, timers, ms, jitter, gapMs, load, arrivalUs, warmup, train, seed, control);
        }

        public Config gapMs(int ms) {
            return new Config(name, workers, executors, workUs, bursts, timers, deadlineMs, jitterMs, ms, load, arrivalUs, warmup, train, seed, control);
        }

        public Config load(int n) {
            return new Config(name, workers, executors, workUs, bursts, timers, deadlineMs, jitterMs, gapMs, n, arrivalUs, warmup, train, seed, control);
        }

        public Config arrivalUs(int us) {
            return new Config(name, workers, executors, workUs, bursts, timers, deadlineMs, jitterMs, gapMs, load, us, warmup, train, seed, control);
        }

        public Config warmup(int n) {
            return new Config(name, workers, executors, workUs, bursts, timers, deadlineMs, jitterMs, gapMs, load, arrivalUs, n, train, seed, control);
        }

        public Config train(int n) {
            return new Config(name, workers, executors, workUs, bursts, timers, deadlineMs, jitterMs, gapMs, load, arrivalUs, warmup, n, seed, control);
        }

        public Config seed(long s) {
            return new Config(name, workers, executors, workUs, bursts, timers, deadlineMs, jitterMs, gapMs, load, arrivalUs, warmup, train, s, control);
        }

        /** This configuration as an A/A control: both kinds' slots on the JDK's STPE. */
        public Config control() {
            return new Config(name, workers, executors, workUs, bursts, timers, deadlineMs, jitterMs, gapMs, load, arrivalUs, warmup, train, seed, true);
        }

        /** Whether a burst's timers can still be pending when the next one starts. */
        public boolean overlapping() {
            return gapMs < deadlineMs + jitterMs;
        }

        /** Bursts per slot: 1 without overlap, else {@code train} or twice the bursts in flight at once. */
        public int burstsPerSlot() {
            if (!overlapping()) {
                return 1;
            }
            int inFlight = (int) Math.ceil((deadlineMs + jitterMs) / gapMs);
            return Math.min(bursts, train > 0 ? train : 2 * inFlight);
        }

        /** One line saying what runs. */
        public String describe() {
            return String.format("%,d timers per burst due %d ms ± %s ms after scheduling, arriving over %d us; callbacks busy %d us;"
                            + " %d worker(s) per executor, %d executor(s) per kind%s; %d load thread(s); %s",
                    timers, deadlineMs, trim(jitterMs), arrivalUs, workUs, workers, executors,
                    executors > 1 ? " (the burst spread over them, timewheel's sharing the tick thread)" : "", load,
                    overlapping() ? String.format("a burst every %d ms, overlapping, %d per slot", gapMs, burstsPerSlot())
                            : String.format("a burst every %d ms at the earliest, no overlap", gapMs))
                    + (control ? "; A/A control: the timewheel column runs on a second STPE (this run's noise)" : "");
        }
    }

    /** One measured burst. Lateness figures in nanoseconds. */
    public static final class Burst {
        public final Kind kind;
        public final int index, slot, timers, early, missing;
        public final long p50, p99, max, worstEarly;

        /**
         * The figures of one burst from its timers' deadlines and start times ({@code Long.MIN_VALUE}: never
         * ran). Lateness = start - deadline; negative is early (and counted in the percentiles as it is).
         */
        static Burst of(Kind kind, int index, int slot, long[] deadlines, long[] starts) {
            int n = deadlines.length;
            long[] late = new long[n];
            int ran = 0, early = 0;
            long worstEarly = 0;
            for (int i = 0; i < n; i++) {
                long s = starts[i];
                if (s == Long.MIN_VALUE) {
                    continue;
                }
                long l = s - deadlines[i];
                late[ran++] = l;
                if (l < 0) {
                    early++;
                    worstEarly = Math.max(worstEarly, -l);
                }
            }
            if (ran == 0) {
                return new Burst(kind, index, slot, n, 0, 0, 0, 0, 0, n);
            }
            long[] sorted = Arrays.copyOf(late, ran);
            Arrays.sort(sorted);
            return new Burst(kind, index, slot, n, rank(sorted, 50), rank(sorted, 99), sorted[ran - 1], early, worstEarly, n - ran);
        }

        /** Nearest-rank percentile of a sorted, non-empty array: the smallest value with at least p% at or below it. */
        static long rank(long[] sorted, double p) {
            int i = (int) Math.ceil(p / 100 * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
        }

        Burst(Kind kind, int index, int slot, int timers, long p50, long p99, long max, int early, long worstEarly, int missing) {
            this.kind = kind;
            this.index = index;
            this.slot = slot;
            this.timers = timers;
            this.p50 = p50;
            this.p99 = p99;
            this.max = max;
            this.early = early;
            this.worstEarly = worstEarly;
            this.missing = missing;
        }
    }

    /** One kind's bursts of one configuration. */
    public static final class Summary {
        public final Kind kind;
        public final List<Burst> bursts = new ArrayList<>();

        Summary(Kind kind) {
            this.kind = kind;
        }

        /** Median over bursts of the per-burst p50, in microseconds (NaN if no burst had a timer run). */
        public double medianP50Micros() {
            return median(bursts.stream().filter(b -> b.missing < b.timers).mapToLong(b -> b.p50).toArray()) / 1e3;
        }

        /** Median over bursts of the per-burst p99, in microseconds. */
        public double medianP99Micros() {
            return median(bursts.stream().filter(b -> b.missing < b.timers).mapToLong(b -> b.p99).toArray()) / 1e3;
        }

        /** The largest lateness of any timer, in microseconds. */
        public double maxMicros() {
            return bursts.stream().filter(b -> b.missing < b.timers).mapToLong(b -> b.max).max().orElse(Long.MIN_VALUE) / 1e3;
        }

        public int timers() {
            return bursts.stream().mapToInt(b -> b.timers).sum();
        }

        public int early() {
            return bursts.stream().mapToInt(b -> b.early).sum();
        }

        public double worstEarlyMicros() {
            return bursts.stream().mapToLong(b -> b.worstEarly).max().orElse(0) / 1e3;
        }

        public int missing() {
            return bursts.stream().mapToInt(b -> b.missing).sum();
        }

        static double median(long[] values) {
            if (values.length == 0) {
                return Double.NaN;
            }
            Arrays.sort(values);
            int n = values.length;
            return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
        }
    }

    /** Both kinds' results for one configuration. */
    public static final class Result {
        public final Config config;
        public final Map<Kind, Summary> kinds;
        /** Wall time of the configuration, warm-up included. */
        public final double seconds;

        Result(Config config, Map<Kind, Summary> kinds, double seconds) {
            this.config = config;
            this.kinds = kinds;
            this.seconds = seconds;
        }

        public Summary stpe() {
            return kinds.get(Kind.STPE);
        }

        public Summary timewheel() {
            return kinds.get(Kind.TIMEWHEEL);
        }

        /** timewheel's median p50 over STPE's. */
        public double p50Ratio() {
            return timewheel().medianP50Micros() / stpe().medianP50Micros();
        }

        /** timewheel's median p99 over STPE's. */
        public double p99Ratio() {
            return timewheel().medianP99Micros() / stpe().medianP99Micros();
        }

        /**
         * The median over slots of timewheel's p50 over STPE's p50 in the same slot (the i-th burst of each
         * kind: run next to each other), pairs where either burst had no timer run or STPE's p50 is not
         * positive left out. Less moved than {@link #p50Ratio} by other work on the machine that comes and goes
         * over seconds, which falls on both bursts of a pair; not the goal's figure, a cross-check.
         */
        public double pairedP50Ratio() {
            return paired(true);
        }

        /** As {@link #pairedP50Ratio()}, for the p99. */
        public double pairedP99Ratio() {
            return paired(false);
        }

        private double paired(boolean p50) {
            List<Burst> s = stpe().bursts, w = timewheel().bursts;
            int n = Math.min(s.size(), w.size());
            double[] ratios = new double[n];
            int k = 0;
            for (int i = 0; i < n; i++) {
                Burst a = s.get(i), b = w.get(i);
                long x = p50 ? a.p50 : a.p99, y = p50 ? b.p50 : b.p99;
                if (a.missing < a.timers && b.missing < b.timers && x > 0) {
                    ratios[k++] = (double) y / x;
                }
            }
            if (k == 0) {
                return Double.NaN;
            }
            Arrays.sort(ratios, 0, k);
            return k % 2 == 1 ? ratios[k / 2] : (ratios[k / 2 - 1] + ratios[k / 2]) / 2;
        }

        /**
         * A paired sign test of "timewheel later than STPE": over the pairs of bursts run next to each other (as
         * for {@link #pairedP50Ratio}), how many had timewheel's p50 (or p99) later than STPE's, of the pairs that
         * differ; and the one-sided p-value of that many or more if neither were later than the other (each
         * pair a fair coin). A small p-value (below 0.05) says timewheel is later, beyond this run's noise.
         *
         * @return {later, pairs, p-value}
         */
        public double[] signTest(boolean p50) {
            List<Burst> s = stpe().bursts, w = timewheel().bursts;
            int n = Math.min(s.size(), w.size()), later = 0, pairs = 0;
            for (int i = 0; i < n; i++) {
                Burst a = s.get(i), b = w.get(i);
                long x = p50 ? a.p50 : a.p99, y = p50 ? b.p50 : b.p99;
                if (a.missing < a.timers && b.missing < b.timers && x != y) {
                    pairs++;
                    later += y > x ? 1 : 0;
                }
            }
            return new double[] {later, pairs, binomialTail(later, pairs)};
        }

        /** Whether timewheel's p50 or p99 is later than STPE's beyond this run's noise (sign test, p < 0.05). */
        public boolean significantlyLater() {
            return signTest(true)[2] < 0.05 || signTest(false)[2] < 0.05;
        }

        /** P(X >= k) for X ~ Binomial(n, 1/2). */
        static double binomialTail(int k, int n) {
            double p = 0, term = Math.pow(0.5, n); // C(n, 0) / 2^n
            for (int i = 0; i <= n; i++) {
                if (i >= k) {
                    p += term;
                }
                term = term * (n - i) / (i + 1);
            }
            return Math.min(1, p);
        }

        /** The goal: timewheel's median p50 and p99 no worse than STPE's, no early fire, no timer lost. */
        public boolean goalMet() {
            return p50Ratio() <= 1 && p99Ratio() <= 1 && timewheel().early() == 0 && timewheel().missing() == 0;
        }

        /** Why the goal is met, missed or not measured (a ratio without a figure: no timer of a kind ran), in a few words. */
        public String verdict() {
            if (config.control) {
                return "control (STPE twice)";
            }
            List<String> missed = new ArrayList<>();
            if (Double.isFinite(p50Ratio()) && p50Ratio() > 1) {
                missed.add("p50");
            }
            if (Double.isFinite(p99Ratio()) && p99Ratio() > 1) {
                missed.add("p99");
            }
            if (timewheel().early() > 0) {
                missed.add(timewheel().early() + " early");
            }
            if (timewheel().missing() > 0) {
                missed.add(timewheel().missing() + " never ran");
            }
            boolean measured = Double.isFinite(p50Ratio()) && Double.isFinite(p99Ratio());
            return !missed.isEmpty() ? "MISSED (" + String.join(", ", missed) + ")" : measured ? "met" : "not measured (no ratio)";
        }
    }

    private BurstLatenessHarness() {
    }

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        Config base = Config.defaults();
        base = base.workers(args.getInt("workers", base.workers)).executors(args.getInt("executors", base.executors))
                .workUs(args.getInt("work-us", base.workUs)).bursts(args.getInt("bursts", base.bursts))
                .timers(args.getInt("timers", base.timers))
                .deadline(args.getInt("deadline-ms", base.deadlineMs), Double.parseDouble(args.get("jitter-ms", trim(base.jitterMs))))
                .load(args.getInt("load", base.load)).arrivalUs(args.getInt("arrival-us", base.arrivalUs))
                .warmup(args.getInt("warmup", base.warmup)).train(args.getInt("train", base.train))
                .seed(args.getInt("seed", (int) base.seed));
        base = base.gapMs(args.getInt("gap-ms", 2 * base.deadlineMs));
        String csv = args.get("csv", null);
        boolean custom = Arrays.stream(argv).anyMatch(a -> a.startsWith("--") && !a.startsWith("--csv") && !a.startsWith("--matrix"));
        List<Config> configs = args.flag("matrix") ? matrix(base) : List.of(base.named(custom ? "custom" : "default"));
        try (PrintWriter w = csv == null ? null : csvWriter(Path.of(csv))) {
            run(configs, System.out, w);
        }
    }

    /**
     * The variants: {@code base} (the default row) first, then one change each. Counts are those of
     * {@code base}, except the overlapping variant, which runs twice the bursts in trains of 12 (a burst every
     * 10 ms: six in flight at once) so that it still has five slots per kind.
     */
    public static List<Config> matrix(Config base) {
        int overlapGap = Math.max(1, base.deadlineMs / 5);
        return List.of(
                base.named("default"),
                base.named("4 workers").workers(4),
                base.named("3 executors").executors(3),
                base.named("work 1 us").workUs(1),
                base.named("work 100 us").workUs(100),
                base.named("overlapping").gapMs(overlapGap).bursts(2 * base.bursts).train(Math.min(2 * base.bursts, 12)),
                base.named("no load").load(0),
                base.named("A/A control").control());
    }

    /** Runs each configuration in turn, printing each one's figures and, for several, a summary table. */
    public static List<Result> run(List<Config> configs, PrintStream out, PrintWriter csv) throws InterruptedException {
        out.println(Console.wrap("", String.format("lateness in bursts under load: STPE and timewheel side by side, %d"
                + " configuration(s); Java %s, %d CPUs", configs.size(), Runtime.version(), Runtime.getRuntime().availableProcessors())));
        if (csv != null) {
            csv.println("variant,kind,burst,slot,timers,p50_ns,p99_ns,max_ns,early,missing");
        }
        List<Result> results = new ArrayList<>();
        for (Config c : configs) {
            Result r = run(c, out);
            results.add(r);
            if (csv != null) {
                for (Summary s : r.kinds.values()) {
                    for (Burst b : s.bursts) {
                        csv.printf("%s,%s,%d,%d,%d,%d,%d,%d,%d,%d%n", c.name.replace(',', ';'), s.kind.id(), b.index, b.slot, b.timers,
                                b.p50, b.p99, b.max, b.early, b.missing);
                    }
                }
                csv.flush();
            }
        }
        if (results.size() > 1) {
            out.printf("%nus; p50, p99: medians over bursts; tw: timewheel; early and paired ratios: stpe / tw%n");
            out.printf("%-11s %8s %8s %6s %8s %8s %6s %8s %8s %9s %13s  %s%n", "variant", "stpe p50", "tw p50", "ratio", "stpe p99",
                    "tw p99", "ratio", "stpe max", "tw max", "early", "paired", "goal");
            for (Result r : results) {
                out.printf("%-11s %8.1f %8.1f %5.2fx %8.1f %8.1f %5.2fx %8.1f %8.1f %4d/%-4d %5.2fx/%5.2fx  %s%n", r.config.name,
                        r.stpe().medianP50Micros(), r.timewheel().medianP50Micros(), r.p50Ratio(), r.stpe().medianP99Micros(),
                        r.timewheel().medianP99Micros(), r.p99Ratio(), r.stpe().maxMicros(), r.timewheel().maxMicros(),
                        r.stpe().early(), r.timewheel().early(), r.pairedP50Ratio(), r.pairedP99Ratio(), r.verdict());
            }
        }
        return results;
    }

    /** One configuration: both kinds, interleaved slots, warm-up first. */
    public static Result run(Config c, PrintStream out) throws InterruptedException {
        out.printf("%n%s%n", Console.wrap("", "[" + c.name + "] " + c.describe()));
        int perSlot = c.burstsPerSlot();
        int slots = (c.bursts + perSlot - 1) / perSlot;
        out.println(Console.wrap("  ", String.format("%d bursts per kind in %d slot(s), kinds interleaved stpe, timewheel,"
                + " timewheel, stpe, ...; %d warm-up slot(s) per kind first, not counted; executors reused by every burst",
                c.bursts, slots, c.warmup)));
        long t0 = System.nanoTime();
        String loadBefore = loadAverage();
        Load load = new Load(c.load);
        Map<Kind, List<ScheduledThreadPoolExecutor>> executors = new EnumMap<>(Kind.class);
        try {
            for (Kind k : Kind.values()) {
                List<ScheduledThreadPoolExecutor> list = new ArrayList<>();
                for (int e = 0; e < c.executors; e++) {
                    Kind made = c.control ? Kind.STPE : k; // an A/A control runs STPE in both kinds' slots
                    ScheduledThreadPoolExecutor ex = made.create(c.workers, threads("burst-" + k.id() + "-" + e));
                    ex.prestartAllCoreThreads();
                    list.add(ex);
                }
                executors.put(k, list);
            }
            SplittableRandom random = new SplittableRandom(c.seed);
            Clock clock = new Clock();
            for (int s = 0; s < c.warmup; s++) {
                for (Kind k : order(s)) {
                    slot(c, executors.get(k), k, s, perSlot, random, clock, null);
                }
            }
            Map<Kind, Summary> kinds = new EnumMap<>(Kind.class);
            for (Kind k : Kind.values()) {
                kinds.put(k, new Summary(k));
            }
            for (int s = 0; s < slots; s++) {
                int n = Math.min(perSlot, c.bursts - s * perSlot);
                for (Kind k : order(s)) {
                    slot(c, executors.get(k), k, s, n, random, clock, kinds.get(k).bursts);
                }
            }
            Result result = new Result(c, kinds, (System.nanoTime() - t0) / 1e9);
            print(result, out);
            out.println(Console.wrap("  ", String.format("load average before -> after: %s -> %s (other work on the machine;"
                    + " this run adds %d spinning thread(s))", loadBefore, loadAverage(), c.load)));
            return result;
        } finally {
            load.stop();
            for (List<ScheduledThreadPoolExecutor> list : executors.values()) {
                for (ScheduledThreadPoolExecutor ex : list) {
                    ex.shutdownNow();
                }
            }
            for (List<ScheduledThreadPoolExecutor> list : executors.values()) {
                for (ScheduledThreadPoolExecutor ex : list) {
                    if (!ex.awaitTermination(60, TimeUnit.SECONDS)) {
                        out.println("  " + ex + " did not terminate within 60 s");
                    }
                }
            }
        }
    }

    private static void print(Result r, PrintStream out) {
        out.printf("  us; p50, p99: the median over bursts of each burst's; max: of all timers%n");
        out.printf("  %-10s %10s %10s %10s %7s %8s%n", "kind", "p50 us", "p99 us", "max us", "early", "missing");
        for (Summary s : r.kinds.values()) {
            out.printf("  %-10s %10.1f %10.1f %10.1f %7d %8d%n", s.kind.id(), s.medianP50Micros(), s.medianP99Micros(), s.maxMicros(),
                    s.early(), s.missing());
            if (s.early() > 0) {
                out.println(Console.wrap("             ", String.format("%d of %d timers fired early, the earliest %.1f us before"
                        + " its deadline", s.early(), s.timers(), s.worstEarlyMicros())));
            }
        }
        out.println(Console.wrap("  ", String.format("timewheel / stpe: p50 %.2fx, p99 %.2fx, max %.2fx; goal (p50 and p99 no worse"
                + " than STPE's, none early): %s  [%.1f s]", r.p50Ratio(), r.p99Ratio(), r.timewheel().maxMicros() / r.stpe().maxMicros(),
                r.verdict(), r.seconds)));
        out.printf("  paired cross-check (median over slots of timewheel / stpe in the same slot): p50 %.2fx, p99 %.2fx%n",
                r.pairedP50Ratio(), r.pairedP99Ratio());
        double[] s50 = r.signTest(true), s99 = r.signTest(false);
        out.println(Console.wrap("  ", String.format("sign test (pairs where timewheel was later): p50 %d of %d (p %.2f), p99 %d of"
                + " %d (p %.2f) -> %s", (int) s50[0], (int) s50[1], s50[2], (int) s99[0], (int) s99[1], s99[2],
                r.significantlyLater() ? "later beyond this run's noise" : "not later beyond this run's noise")));
    }

    /** Slot {@code s}'s order of the kinds: forward on even slots, backward on odd ones (ABBA). */
    private static List<Kind> order(int s) {
        List<Kind> kinds = new ArrayList<>(Arrays.asList(Kind.values()));
        if (s % 2 == 1) {
            java.util.Collections.reverse(kinds);
        }
        return kinds;
    }

    /** When the next burst may start: {@code gap} after the previous burst's start. */
    private static final class Clock {
        long notBefore = System.nanoTime();
    }

    /**
     * Runs {@code n} bursts on {@code executors}, {@code gap} apart, then waits until every timer has run (or
     * for 30 s past the last deadline) and adds each burst's figures to {@code into} (null: warm-up).
     */
    private static void slot(Config c, List<ScheduledThreadPoolExecutor> executors, Kind kind, int slot, int n, SplittableRandom random,
                             Clock clock, List<Burst> into) throws InterruptedException {
        long gapNanos = TimeUnit.MILLISECONDS.toNanos(c.gapMs);
        BurstRun[] runs = new BurstRun[n];
        for (int i = 0; i < n; i++) {
            runs[i] = new BurstRun(c, random);
            waitUntil(clock.notBefore);
            long start = runs[i].start(executors);
            clock.notBefore = start + gapNanos;
        }
        for (int i = 0; i < n; i++) {
            Burst b = runs[i].finish(kind, into == null ? -1 : into.size(), slot);
            if (into != null) {
                into.add(b);
            }
        }
    }

    private static void waitUntil(long deadline) {
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(left);
        }
    }

    /** One burst: its timers' delays, deadlines and start times. Used by the harness thread and, for starts, the callbacks. */
    private static final class BurstRun {
        private final Config c;
        private final long[] delays, deadlines, starts;
        private final Probe[] probes;
        private final CountDownLatch done;

        BurstRun(Config c, SplittableRandom random) {
            this.c = c;
            int n = c.timers;
            delays = new long[n];
            deadlines = new long[n];
            starts = new long[n];
            Arrays.fill(starts, Long.MIN_VALUE);
            probes = new Probe[n];
            done = new CountDownLatch(n);
            long deadline = TimeUnit.MILLISECONDS.toNanos(c.deadlineMs);
            long jitter = (long) (c.jitterMs * 1e6);
            long work = TimeUnit.MICROSECONDS.toNanos(c.workUs);
            for (int i = 0; i < n; i++) {
                delays[i] = deadline - jitter + (jitter == 0 ? 0 : random.nextLong(2 * jitter + 1));
                probes[i] = new Probe(i, starts, work, done);
            }
        }

        /** Schedules the timers, timer i at {@code i * arrival / timers} after the first, round-robin over the executors. */
        long start(List<ScheduledThreadPoolExecutor> executors) {
            int n = c.timers;
            long arrival = TimeUnit.MICROSECONDS.toNanos(c.arrivalUs);
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                long at = t0 + arrival * i / n;
                long now;
                while ((now = System.nanoTime()) < at) {
                    Thread.onSpinWait();
                }
                deadlines[i] = now + delays[i];
                executors.get(i % executors.size()).schedule(probes[i], delays[i], TimeUnit.NANOSECONDS);
            }
            return t0;
        }

        Burst finish(Kind kind, int index, int slot) throws InterruptedException {
            long longest = 0;
            for (long d : delays) {
                longest = Math.max(longest, d);
            }
            long wait = longest + TimeUnit.MICROSECONDS.toNanos((long) c.workUs * c.timers) + TimeUnit.SECONDS.toNanos(30);
            done.await(wait, TimeUnit.NANOSECONDS);
            return Burst.of(kind, index, slot, deadlines, starts); // starts written before countDown: visible once counted
        }
    }

    /** A timer's callback: records its start, then busy-spins {@code work} ns. */
    private static final class Probe implements Runnable {
        private final int index;
        private final long[] starts;
        private final long work;
        private final CountDownLatch done;

        Probe(int index, long[] starts, long work, CountDownLatch done) {
            this.index = index;
            this.starts = starts;
            this.work = work;
            this.done = done;
        }

        @Override
        public void run() {
            long start = System.nanoTime();
            starts[index] = start;
            while (System.nanoTime() - start < work) {
                // busy: the callback's own work
            }
            done.countDown(); // publishes the write to the harness thread
        }
    }

    /** Threads that keep CPUs busy until stopped. */
    private static final class Load {
        private final Thread[] threads;
        private volatile boolean stop;
        private volatile long sink;

        Load(int n) {
            threads = new Thread[n];
            for (int i = 0; i < n; i++) {
                long seed = 0x9E3779B97F4A7C15L * (i + 1);
                threads[i] = new Thread(() -> {
                    long x = seed;
                    while (!stop) {
                        x = x * 6364136223846793005L + 1442695040888963407L;
                    }
                    sink = x;
                }, "burst-load-" + i);
                threads[i].setDaemon(true);
                threads[i].start();
            }
        }

        void stop() throws InterruptedException {
            stop = true;
            for (Thread t : threads) {
                t.join();
            }
        }
    }

    private static ThreadFactory threads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** The 1, 5 and 15 minute load averages (Linux), or "n/a". */
    private static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "n/a";
        }
    }

    private static PrintWriter csvWriter(Path path) throws IOException {
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        return new PrintWriter(Files.newBufferedWriter(path));
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
