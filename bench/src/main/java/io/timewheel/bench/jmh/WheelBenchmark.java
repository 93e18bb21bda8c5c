package io.timewheel.bench.jmh;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The data structures alone, one thread, no clock: timewheel's TimerWheel against Agrona's
 * DeadlineTimerWheel, each holding {@code pending} far timers (1 to 2 h ahead). Nanoseconds per timer.
 * <ul>
 *   <li>{@code addCancel}: arm a timer 30 s ahead and cancel it (the timeout pattern);</li>
 *   <li>{@code add}: arm 100,000 timers spread over 100 ms, 30 s ahead (one shot on a fresh wheel);</li>
 *   <li>{@code cancel}: cancel those 100,000 timers, in random order (one shot on a fresh wheel);</li>
 *   <li>{@code advance}: 100,000 timers due within 100 ms; move the time in 1 ms steps until all have
 *       expired (one shot on a fresh wheel);</li>
 *   <li>{@code window}: 100,000 timers due 70 to 170 ms ahead, expired by one advance to the window's end,
 *       as the executor's tick thread hands over its near term (one shot; one wheel for the trial).</li>
 * </ul>
 *
 * <p>{@code advance} and {@code window} call the wheel's advance only ~100 times (once) per shot, so a few
 * warm-up shots leave it half compiled: their trials first run the same scenario {@link #JIT_WARMUP_ROUNDS}
 * times on a wheel of their own (no pending timers), so that every shot measures compiled code (without it,
 * the first tens of shots measure the wheel still being compiled).
 *
 * <p>Run: {@code java -jar bench/target/timewheel-bench.jar jmh WheelBenchmark -p impl=timewheel,agrona -p pending=0,10000,1000000 -f 1}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx4g", "-XX:+AlwaysPreTouch"}) // pre-touched: bench/README.md, "Reading the results"
public class WheelBenchmark {

    static final long START = 1L << 40;
    static final long MS = 1_000_000L;
    static final long HOUR = 3_600_000L * MS;
    static final int BATCH = 100_000;
    /** Rounds of the advance and window scenarios run at the start of a trial, to compile the code they run. */
    static final int JIT_WARMUP_ROUNDS = 60;

    /**
     * Runs the advance scenario (BATCH timers due within 100 ms, expired in 1 ms steps) and the window scenario
     * (BATCH timers expired by one advance) on wheels of their own, {@link #JIT_WARMUP_ROUNDS} times each.
     */
    static void warmUpExpiry(String impl) {
        SplittableRandom random = new SplittableRandom(3);
        for (int round = 0; round < JIT_WARMUP_ROUNDS; round++) {
            WheelDriver d = WheelDriver.create(impl, START, BATCH);
            for (int i = 0; i < BATCH; i++) {
                d.add(i, START + 1 + random.nextLong(100 * MS));
            }
            int expired = 0;
            for (long t = START + MS; t <= START + 101 * MS; t += MS) {
                expired += d.expire(t);
            }
            for (int i = 0; i < BATCH; i++) {
                d.add(i, START + 200 * MS + random.nextLong(100 * MS));
            }
            expired += d.expire(START + 302 * MS);
            if (expired != 2 * BATCH) {
                throw new IllegalStateException(impl + ": warm-up expired " + expired + " of " + 2 * BATCH);
            }
        }
    }

    /** A wheel holding {@code pending} far timers, with index {@code pending} free for the benchmark. */
    static WheelDriver filled(String impl, int pending, int extra) {
        WheelDriver driver = WheelDriver.create(impl, START, pending + extra);
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < pending; i++) {
            driver.add(i, START + HOUR + random.nextLong(HOUR));
        }
        return driver;
    }

    @State(Scope.Thread)
    public static class CancelState {
        @Param({"timewheel", "agrona"})
        public String impl;
        @Param({"0", "10000", "1000000"})
        public int pending;
        WheelDriver driver;

        @Setup(Level.Trial)
        public void setUp() {
            driver = filled(impl, pending, 1);
        }
    }

    @State(Scope.Thread)
    public static class AddState {
        @Param({"timewheel", "agrona"})
        public String impl;
        @Param({"0", "10000", "1000000"})
        public int pending;
        WheelDriver driver;
        long[] deadlines;

        @Setup(Level.Trial)
        public void deadlines() {
            deadlines = new long[BATCH];
            for (int i = 0; i < BATCH; i++) {
                deadlines[i] = START + 30_000 * MS + i * 1_000L; // 1 us apart: 100 ms, 30 s ahead
            }
        }

        @Setup(Level.Iteration)
        public void setUp() {
            driver = filled(impl, pending, BATCH);
        }
    }

    @State(Scope.Thread)
    public static class ArmedState {
        @Param({"timewheel", "agrona"})
        public String impl;
        @Param({"0", "10000", "1000000"})
        public int pending;
        WheelDriver driver;
        int[] order;

        @Setup(Level.Trial)
        public void order() {
            order = new int[BATCH];
            for (int i = 0; i < BATCH; i++) {
                order[i] = i;
            }
            SplittableRandom random = new SplittableRandom(11);
            for (int i = BATCH - 1; i > 0; i--) { // shuffled: cancels do not come in insertion order
                int j = random.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
        }

        @Setup(Level.Iteration)
        public void setUp() {
            driver = filled(impl, pending, BATCH);
            for (int i = 0; i < BATCH; i++) {
                driver.add(pending + i, START + 30_000 * MS + i * 1_000L);
            }
        }
    }

    @State(Scope.Thread)
    public static class DueState {
        @Param({"timewheel", "agrona"})
        public String impl;
        @Param({"0", "10000", "1000000"})
        public int pending;
        WheelDriver driver;

        @Setup(Level.Trial)
        public void warmUp() {
            warmUpExpiry(impl);
        }

        @Setup(Level.Iteration)
        public void setUp() {
            driver = filled(impl, pending, BATCH);
            SplittableRandom random = new SplittableRandom(7);
            for (int i = 0; i < BATCH; i++) {
                driver.add(pending + i, START + 1 + random.nextLong(100 * MS)); // due within 100 ms
            }
        }
    }

    /**
     * One wheel for the whole trial, as the executor's lives: its sort scratch is grown by the warm-up and
     * reused, and each iteration arms the window anew, ahead of where the last one left the wheel's time.
     */
    @State(Scope.Thread)
    public static class WindowState {
        @Param({"timewheel", "agrona"})
        public String impl;
        @Param({"0", "10000", "1000000"})
        public int pending;
        WheelDriver driver;
        long base = START;
        final SplittableRandom random = new SplittableRandom(7);

        /** The entries in the order they are armed: shuffled, so that arming order is not memory order. */
        int[] order;

        @Setup(Level.Trial)
        public void fill() {
            warmUpExpiry(impl);
            driver = filled(impl, pending, BATCH);
            order = new int[BATCH];
            for (int i = 0; i < BATCH; i++) {
                order[i] = i;
            }
            for (int i = BATCH - 1; i > 0; i--) { // an executor's tasks lie wherever their producers allocated them
                int j = random.nextInt(i + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
        }

        @Setup(Level.Iteration)
        public void setUp() {
            for (int i : order) {
                driver.add(pending + i, base + 70 * MS + random.nextLong(100 * MS)); // due 70-170 ms ahead
            }
        }
    }

    @Benchmark
    @Warmup(iterations = 3, time = 1)
    @Measurement(iterations = 3, time = 1)
    public void addCancel(CancelState s) {
        WheelDriver d = s.driver;
        d.add(s.pending, START + 30_000 * MS);
        d.cancel(s.pending);
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OperationsPerInvocation(BATCH)
    @Warmup(iterations = 5)
    @Measurement(iterations = 10)
    public int add(AddState s) {
        WheelDriver d = s.driver;
        long[] deadlines = s.deadlines;
        int base = s.pending;
        for (int i = 0; i < BATCH; i++) {
            d.add(base + i, deadlines[i]);
        }
        return d.size();
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OperationsPerInvocation(BATCH)
    @Warmup(iterations = 5)
    @Measurement(iterations = 10)
    public int cancel(ArmedState s) {
        WheelDriver d = s.driver;
        int base = s.pending;
        for (int i : s.order) {
            d.cancel(base + i);
        }
        return d.size();
    }

    /**
     * The executor's hand-over: 100,000 timers due 70 to 170 ms ahead (most of them one level up) expired by
     * one advance over the whole window, as the tick thread hands over its near term in one step.
     */
    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OperationsPerInvocation(BATCH)
    @Warmup(iterations = 5)
    @Measurement(iterations = 10)
    public int window(WindowState s) {
        s.base += 172 * MS; // past the last deadline by two ticks: Agrona expires per whole tick
        int expired = s.driver.expire(s.base);
        if (expired != BATCH) {
            throw new IllegalStateException(s.impl + ": expired " + expired + " of " + BATCH);
        }
        return expired;
    }

    @Benchmark
    @BenchmarkMode(Mode.SingleShotTime)
    @OperationsPerInvocation(BATCH)
    @Warmup(iterations = 5)
    @Measurement(iterations = 10)
    public int advance(DueState s) {
        WheelDriver d = s.driver;
        int expired = 0;
        for (long t = START + MS; t <= START + 101 * MS; t += MS) {
            expired += d.expire(t);
        }
        if (expired != BATCH) {
            throw new IllegalStateException(s.impl + ": expired " + expired + " of " + BATCH);
        }
        return expired;
    }
}
