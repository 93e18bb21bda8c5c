package io.timewheel.bench.netty;

import io.netty.util.Timeout;
import io.netty.util.Timer;
import io.netty.util.TimerTask;
import io.timewheel.bench.harness.Args;
import io.timewheel.bench.harness.ChildJvm;
import io.timewheel.bench.harness.LatenessHarness;
import io.timewheel.bench.harness.ProcThreads;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * WheelTimer against HashedWheelTimer (1 ms and 100 ms ticks) on what a Netty user feels: lateness and idle cost.
 *
 * <p>Lateness: per round and timer a fresh instance, a warm-up round on it (a fifth of the timeouts), then
 * {@code timeouts} timeouts with random whole-millisecond delays 1..{@code maxDelayMs}, scheduled back to back
 * from one thread; each task records {@code System.nanoTime()}. Lateness = that minus (the {@code nanoTime()} read
 * just before {@code newTimeout} + the delay), so "early" (below zero) is early for certain. Rounds interleave the
 * timers; each timer's figures are its round with the median p99, early fires summed over all rounds. The rounds
 * run in a JVM of their own with a fixed 2 GB heap (-Xms2g), kept at its size (LatenessHarness.keepHeap): on the
 * minimal heap G1 keeps after System.gc(), a round whose allocation passes the young generation (WheelTimer's
 * first: its timeout object comes on top of the executor's task) gets a young pause that copies every pending
 * timeout, which measures the heap's size rather than the timer ({@code -Xlog:gc} on an in-process run shows it).
 *
 * <p>Idle: {@code instances} timers in a fresh JVM per timer kind and scenario, each of which ran one task, and
 * either holds one timeout an hour away ("far") or nothing ("none"); after a settling time longer than
 * WheelTimer's keep-alive, the threads created since the start (ProcThreads: the timers' own, named after the
 * kind, and any other, such as timewheel's shared tick thread) are sampled over a window: context switches
 * (wake-ups), CPU time, and how many there are.
 *
 * <p>Run: {@code java -jar bench/target/timewheel-bench.jar netty-timers [--timeouts 100000] [--max-delay-ms 500] [--rounds 3] [--instances 100] [--seconds 5] [--timers wheel-timer,netty-1ms,netty-100ms]}
 */
public final class NettyTimersHarness {

    private static final String RESULT = "NETTY-IDLE-RESULT";
    private static final String LATENESS_RESULT = "NETTY-LATENESS-RESULT";
    /** Longer than WheelTimer's keep-alive plus a wake-up: its idle threads have ended before the window. */
    private static final long SETTLE_MILLIS = 1_500;

    /** One timer kind's lateness. */
    public static final class Lateness {
        public final NettyTimerKind kind;
        /** Lateness of the timeouts that were not early, in nanoseconds: the round with the median p99. */
        public final Histogram histogram;
        public final int timeouts;
        public final int early;
        public final int missing;
        public final List<Double> roundP99s = new ArrayList<>();

        Lateness(NettyTimerKind kind, Histogram histogram, int timeouts, int early, int missing) {
            this.kind = kind;
            this.histogram = histogram;
            this.timeouts = timeouts;
            this.early = early;
            this.missing = missing;
        }

        public double percentileMillis(double p) {
            return histogram.getTotalCount() == 0 ? Double.NaN : histogram.getValueAtPercentile(p) / 1e6;
        }

        public double maxMillis() {
            return histogram.getTotalCount() == 0 ? Double.NaN : histogram.getMaxValue() / 1e6;
        }
    }

    /** One timer kind's idle cost in one scenario. */
    public static final class Idle {
        public final NettyTimerKind kind;
        public final String scenario;
        public final int instances;
        public final double wakeupsPerSecond;
        public final double cpuMillisPerSecond;
        /** Threads named after the kind (the timers' own), and all threads created since the start. */
        public final int timerThreads, allThreads;
        /** Wake-ups per second of the timers' own threads alone. */
        public final double timerWakeupsPerSecond;

        Idle(NettyTimerKind kind, String scenario, int instances, double wakeupsPerSecond, double timerWakeupsPerSecond,
             double cpuMillisPerSecond, int timerThreads, int allThreads) {
            this.kind = kind;
            this.scenario = scenario;
            this.instances = instances;
            this.wakeupsPerSecond = wakeupsPerSecond;
            this.timerWakeupsPerSecond = timerWakeupsPerSecond;
            this.cpuMillisPerSecond = cpuMillisPerSecond;
            this.timerThreads = timerThreads;
            this.allThreads = allThreads;
        }
    }

    /** The idle scenarios: each timer holds one far timeout, or nothing. */
    public static final List<String> SCENARIOS = List.of("far", "none");

    private NettyTimersHarness() {
    }

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        if (args.flag("lateness-child")) {
            latenessChild(parse(args.get("timers", "all")), args.getInt("timeouts", 100_000), args.getInt("max-delay-ms", 500),
                    args.getInt("rounds", 3));
            return;
        }
        if (args.flag("child")) {
            child(NettyTimerKind.of(args.get("timer", "wheel-timer")), args.get("scenario", "far"),
                    args.getInt("instances", 100), args.getInt("millis", 5_000));
            return;
        }
        boolean smoke = args.flag("smoke");
        List<NettyTimerKind> kinds = parse(args.get("timers", "all"));
        lateness(kinds, args.getInt("timeouts", smoke ? 2_000 : 100_000), args.getInt("max-delay-ms", smoke ? 50 : 500),
                args.getInt("rounds", smoke ? 1 : 3), System.out);
        idle(kinds, args.getInt("instances", smoke ? 5 : 100), smoke ? 300 : args.getInt("seconds", 5) * 1000, System.out);
    }

    public static List<NettyTimerKind> parse(String ids) {
        if (ids == null || ids.isBlank() || ids.equals("all")) {
            return Arrays.asList(NettyTimerKind.values());
        }
        List<NettyTimerKind> kinds = new ArrayList<>();
        for (String id : ids.split(",")) {
            kinds.add(NettyTimerKind.of(id.trim()));
        }
        return kinds;
    }

    // ---------------------------------------------------------------------------------------------
    // Lateness

    /** The lateness rounds, in a child JVM with a fixed heap (see the class notes); its table goes to {@code out}. */
    public static Map<NettyTimerKind, Lateness> lateness(List<NettyTimerKind> kinds, int timeouts, int maxDelayMs, int rounds,
                                                         PrintStream out) throws Exception {
        StringBuilder ids = new StringBuilder();
        for (NettyTimerKind k : kinds) {
            ids.append(ids.length() == 0 ? "" : ",").append(k.id());
        }
        List<String> cmd = ChildJvm.command(List.of("-Xms2g", "-Xmx2g"), NettyTimersHarness.class, "--lateness-child",
                "--timers", ids.toString(), "--timeouts", Integer.toString(timeouts), "--max-delay-ms", Integer.toString(maxDelayMs),
                "--rounds", Integer.toString(rounds));
        Map<NettyTimerKind, Lateness> results = new LinkedHashMap<>();
        for (String line : ChildJvm.run(cmd, 600)) {
            if (!line.startsWith(LATENESS_RESULT)) {
                out.println(line);
                continue;
            }
            String[] f = line.split("\t");
            NettyTimerKind kind = NettyTimerKind.of(f[1]);
            Histogram h = Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(f[6])), 0);
            Lateness r = new Lateness(kind, h, Integer.parseInt(f[2]), Integer.parseInt(f[3]), Integer.parseInt(f[4]));
            for (String p : f[5].split(",")) {
                r.roundP99s.add(Double.parseDouble(p));
            }
            results.put(kind, r);
        }
        if (results.size() != kinds.size()) {
            throw new IllegalStateException("the lateness child gave " + results.size() + " results for " + kinds.size() + " timers");
        }
        return results;
    }

    /** In the child JVM: the rounds, the table, then one result line per timer (its histogram compressed, Base64). */
    static void latenessChild(List<NettyTimerKind> kinds, int timeouts, int maxDelayMs, int rounds) throws InterruptedException {
        PrintStream out = System.out;
        out.printf("netty timers, lateness: %,d timeouts per round, random delays 1..%d ms, scheduled from one thread;"
                + " %d interleaved round(s), the round with the median p99 shown (a JVM of its own, -Xms2g)%n", timeouts,
                maxDelayMs, rounds);
        Map<NettyTimerKind, List<Lateness>> all = new LinkedHashMap<>();
        String heap = LatenessHarness.keepHeap();
        try {
            for (NettyTimerKind kind : kinds) {
                measure(kind, timeouts, maxDelayMs, 1); // JIT warm-up of every kind's paths before any round counts
            }
            for (int round = 0; round < rounds; round++) {
                for (NettyTimerKind kind : kinds) {
                    all.computeIfAbsent(kind, k -> new ArrayList<>()).add(measure(kind, timeouts, maxDelayMs, 2 + round));
                }
            }
        } finally {
            LatenessHarness.restoreHeap(heap);
        }
        out.printf("%-12s %10s %10s %10s %10s %7s %8s  %s%n", "timer", "p50 ms", "p99 ms", "p99.9 ms", "max ms", "early",
                "missing", "p99 of each round");
        Map<NettyTimerKind, Lateness> results = new LinkedHashMap<>();
        for (Map.Entry<NettyTimerKind, List<Lateness>> e : all.entrySet()) {
            Lateness r = combine(e.getValue());
            results.put(e.getKey(), r);
            StringBuilder p99s = new StringBuilder();
            for (double p : r.roundP99s) {
                p99s.append(p99s.length() == 0 ? "" : " / ").append(String.format("%.3f", p));
            }
            out.printf("%-12s %10.3f %10.3f %10.3f %10.3f %7d %8d  %s%n", r.kind.id(), r.percentileMillis(50),
                    r.percentileMillis(99), r.percentileMillis(99.9), r.maxMillis(), r.early, r.missing, p99s);
        }
        for (Lateness r : results.values()) {
            ByteBuffer buffer = ByteBuffer.allocate(r.histogram.getNeededByteBufferCapacity());
            int length = r.histogram.encodeIntoCompressedByteBuffer(buffer);
            StringBuilder p99s = new StringBuilder();
            for (double p : r.roundP99s) {
                p99s.append(p99s.length() == 0 ? "" : ",").append(p);
            }
            out.println(LATENESS_RESULT + "\t" + r.kind.id() + "\t" + r.timeouts + "\t" + r.early + "\t" + r.missing + "\t" + p99s
                    + "\t" + Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length)));
        }
    }

    private static Lateness combine(List<Lateness> rounds) {
        List<Lateness> byP99 = new ArrayList<>(rounds);
        byP99.sort(Comparator.comparingDouble(r -> r.percentileMillis(99)));
        Lateness median = byP99.get((byP99.size() - 1) / 2);
        int timeouts = 0, early = 0, missing = 0;
        for (Lateness r : rounds) {
            timeouts += r.timeouts;
            early += r.early;
            missing += r.missing;
        }
        Lateness combined = new Lateness(median.kind, median.histogram, timeouts, early, missing);
        for (Lateness r : rounds) {
            combined.roundP99s.add(r.percentileMillis(99));
        }
        return combined;
    }

    private static Lateness measure(NettyTimerKind kind, int timeouts, int maxDelayMs, long seed) throws InterruptedException {
        Timer timer = kind.create();
        try {
            round(kind, timer, Math.max(1, timeouts / 5), maxDelayMs, 1);
            System.gc();
            return round(kind, timer, timeouts, maxDelayMs, seed);
        } finally {
            timer.stop();
        }
    }

    /** One round on {@code timer} as it is: {@code n} timeouts, random whole-millisecond delays 1..maxDelayMs. */
    static Lateness round(NettyTimerKind kind, Timer timer, int n, int maxDelayMs, long seed) throws InterruptedException {
        long[] deadlines = new long[n];
        long[] starts = new long[n];
        Arrays.fill(starts, Long.MIN_VALUE);
        CountDownLatch done = new CountDownLatch(n);
        Probe[] probes = new Probe[n];
        long[] delays = new long[n];
        SplittableRandom random = new SplittableRandom(seed);
        for (int i = 0; i < n; i++) {
            probes[i] = new Probe(i, starts, done);
            delays[i] = 1 + random.nextInt(maxDelayMs);
        }
        for (int i = 0; i < n; i++) {
            deadlines[i] = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delays[i]);
            timer.newTimeout(probes[i], delays[i], TimeUnit.MILLISECONDS);
        }
        done.await(maxDelayMs + 30_000L, TimeUnit.MILLISECONDS);
        Histogram histogram = new Histogram(3);
        int early = 0, missing = 0;
        for (int i = 0; i < n; i++) {
            if (starts[i] == Long.MIN_VALUE) {
                missing++;
            } else if (starts[i] - deadlines[i] < 0) {
                early++;
            } else {
                histogram.recordValue(starts[i] - deadlines[i]);
            }
        }
        return new Lateness(kind, histogram, n, early, missing);
    }

    /** Records when it starts. One per timeout. */
    private static final class Probe implements TimerTask {
        private final int index;
        private final long[] starts;
        private final CountDownLatch done;

        Probe(int index, long[] starts, CountDownLatch done) {
            this.index = index;
            this.starts = starts;
            this.done = done;
        }

        @Override
        public void run(Timeout timeout) {
            starts[index] = System.nanoTime();
            done.countDown(); // publishes the write to the harness thread
        }
    }

    // ---------------------------------------------------------------------------------------------
    // Idle

    public static String key(NettyTimerKind kind, String scenario) {
        return kind.id() + "@" + scenario;
    }

    /** Each kind in each scenario, one fresh JVM each, one after the other (so that none takes another's CPU). */
    public static Map<String, Idle> idle(List<NettyTimerKind> kinds, int instances, int millis, PrintStream out) throws Exception {
        out.printf("netty timers, idle: %d timers per JVM, each ran one task and holds one timeout an hour away (far) or"
                + " nothing (none); threads created since the start, over %.1f s after %.1f s of settling%n", instances,
                millis / 1000.0, SETTLE_MILLIS / 1000.0);
        out.printf("%-12s %-9s %11s %12s %12s %9s %8s%n", "timer", "scenario", "wakeups/s", "of timers/s", "CPU ms/s",
                "timers'", "threads");
        Map<String, Idle> results = new LinkedHashMap<>();
        for (String scenario : SCENARIOS) {
            for (NettyTimerKind kind : kinds) {
                List<String> cmd = ChildJvm.command(List.of("-Xmx512m", "-XX:+UseSerialGC"), NettyTimersHarness.class,
                        "--child", "--timer", kind.id(), "--scenario", scenario, "--instances", Integer.toString(instances),
                        "--millis", Integer.toString(millis));
                Idle r = parse(kind, scenario, instances, ChildJvm.run(cmd, 120));
                results.put(key(kind, scenario), r);
                out.printf("%-12s %-9s %11.1f %12.1f %12.3f %9d %8d%n", kind.id(), scenario, r.wakeupsPerSecond,
                        r.timerWakeupsPerSecond, r.cpuMillisPerSecond, r.timerThreads, r.allThreads);
            }
        }
        return results;
    }

    private static Idle parse(NettyTimerKind kind, String scenario, int instances, List<String> lines) {
        for (String line : lines) {
            if (line.startsWith(RESULT)) {
                String[] f = line.split("\t");
                return new Idle(kind, scenario, instances, Double.parseDouble(f[1]), Double.parseDouble(f[2]),
                        Double.parseDouble(f[3]), Integer.parseInt(f[4]), Integer.parseInt(f[5]));
            }
        }
        throw new IllegalStateException("no result from the idle child for " + kind.id() + ":\n" + String.join("\n", lines));
    }

    /** In the child JVM: create, run one task each, park a far timeout or not, settle, then sample. */
    static void child(NettyTimerKind kind, String scenario, int instances, int millis) throws Exception {
        ProcThreads.Before before = new ProcThreads.Before();
        List<Timer> timers = new ArrayList<>();
        try {
            for (int i = 0; i < instances; i++) {
                Timer t = kind.create();
                timers.add(t);
                NettyTimerKind.warmUp(t);
                if (scenario.equals("far")) {
                    t.newTimeout(NettyTimerKind.NOOP, 1, TimeUnit.HOURS);
                }
            }
            Thread.sleep(SETTLE_MILLIS);
            ProcThreads threads = new ProcThreads(before);
            String own = "bench-" + kind.id() + "-";
            List<Thread> timerThreads = new ArrayList<>();
            for (Thread t : threads.threads()) {
                if (t.getName().startsWith(own)) {
                    timerThreads.add(t);
                }
            }
            long cpu0 = threads.cpuNanos();
            long[] cs0 = threads.contextSwitches();
            long[] own0 = ownSwitches();
            long t0 = System.nanoTime();
            Thread.sleep(millis);
            double seconds = (System.nanoTime() - t0) / 1e9;
            long cpu1 = threads.cpuNanos();
            long[] cs1 = threads.contextSwitches();
            long[] own1 = ownSwitches();
            double all = cs0[0] < 0 ? -1 : ((cs1[0] - cs0[0]) + (cs1[1] - cs0[1])) / seconds;
            double ofTimers = own0[0] < 0 ? -1 : ((own1[0] - own0[0]) + (own1[1] - own0[1])) / seconds;
            int alive = 0;
            for (Thread t : timerThreads) {
                alive += t.isAlive() ? 1 : 0;
            }
            int allAlive = 0;
            for (Thread t : threads.threads()) {
                allAlive += t.isAlive() ? 1 : 0;
            }
            System.out.println(RESULT + "\t" + all + "\t" + ofTimers + "\t" + (cpu1 - cpu0) / 1e6 / seconds + "\t" + alive
                    + "\t" + allAlive);
        } finally {
            for (Timer t : timers) {
                t.stop();
            }
        }
    }

    /**
     * Voluntary and involuntary context switches of the live Linux tasks whose name (the Java name cut to 15
     * characters) starts with "bench-": in the child JVM, the timers' own threads and nothing else. {-1, -1}
     * without /proc.
     */
    private static long[] ownSwitches() {
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return new long[] {-1, -1};
        }
        long voluntary = 0, involuntary = 0;
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
            for (Path task : dir) {
                try {
                    if (!Files.readString(task.resolve("comm")).startsWith("bench-")) {
                        continue;
                    }
                    for (String line : Files.readAllLines(task.resolve("status"))) {
                        if (line.startsWith("voluntary_ctxt_switches:")) {
                            voluntary += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                            involuntary += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                        }
                    }
                } catch (IOException | RuntimeException gone) {
                    // the thread ended: its switches no longer count
                }
            }
        } catch (IOException e) {
            return new long[] {-1, -1};
        }
        return new long[] {voluntary, involuntary};
    }
}
