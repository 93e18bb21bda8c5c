package io.timewheel.bench.jmh;

import io.timewheel.bench.peer.Peer;
import io.timewheel.bench.peer.TimerService;
import io.timewheel.bench.peer.Workloads;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Expiry throughput: schedule {@code timers} timers due within one second (random whole-millisecond
 * delays below {@code windowMs}, 1000 by default) and wait until every one has run. One shot per iteration, on a fresh instance. The
 * ideal is 1000 ms: the excess is the cost of scheduling them plus expiring and running them late.
 *
 * <p>Run: {@code java -jar bench/target/timewheel-bench.jar jmh ExpiryBenchmark -p peer=timewheel,stpe,netty-1ms -f 1 -wi 2 -i 5}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx4g", "-XX:+AlwaysPreTouch"}) // pre-touched: bench/README.md, "Reading the results"
public class ExpiryBenchmark {

    @Param({"timewheel", "stpe", "stpe-roc", "fjp", "netty-1ms", "netty-100ms", "kafka"})
    public String peer;

    @Param({"1000000"})
    public int timers;

    /** The timers fall due within this many milliseconds. */
    @Param({"1000"})
    public int windowMs;

    private TimerService service;
    private long[] delaysMs;
    private Countdown countdown;

    @Setup(Level.Trial)
    public void delays() {
        SplittableRandom random = new SplittableRandom(7);
        delaysMs = new long[timers];
        for (int i = 0; i < timers; i++) {
            delaysMs[i] = random.nextInt(windowMs);
        }
    }

    @Setup(Level.Iteration)
    public void setUp() throws InterruptedException {
        service = Peer.of(peer).create();
        Workloads.warmUp(service);
        countdown = new Countdown(timers);
    }

    @TearDown(Level.Iteration)
    public void tearDown() {
        service.close();
    }

    @Benchmark
    public int scheduleAndExpireAll() throws InterruptedException {
        for (long delay : delaysMs) {
            service.schedule(countdown, delay, TimeUnit.MILLISECONDS);
        }
        if (!countdown.done.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException(peer + ": " + countdown.left.get() + " of " + timers + " timers had not run after 60 s");
        }
        return timers;
    }

    /** One shared task: counts runs, opens the latch at the last. */
    static final class Countdown implements Runnable {
        final AtomicInteger left;
        final CountDownLatch done = new CountDownLatch(1);

        Countdown(int n) {
            left = new AtomicInteger(n);
        }

        @Override
        public void run() {
            if (left.decrementAndGet() == 0) {
                done.countDown();
            }
        }
    }

    /** For the smoke test. */
    public static ExpiryBenchmark smoke(String peer, int timers, int windowMs) throws InterruptedException {
        ExpiryBenchmark b = new ExpiryBenchmark();
        b.peer = peer;
        b.timers = timers;
        b.windowMs = windowMs;
        b.delays();
        b.setUp();
        return b;
    }
}
