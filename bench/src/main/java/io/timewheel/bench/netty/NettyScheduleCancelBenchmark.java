package io.timewheel.bench.netty;

import io.netty.util.Timeout;
import io.netty.util.Timer;
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

import java.util.concurrent.TimeUnit;

/**
 * The timeout pattern on Netty's Timer API: {@code newTimeout} of a 30 s timeout and {@code cancel()} at once (a
 * request timeout that the response beats), with {@code pending} far timeouts (1 to 2 h away) already waiting,
 * for WheelTimer and HashedWheelTimer (1 ms and 100 ms ticks). Producer threads share one timer: run it with
 * {@code -t 1} and {@code -t 2}. Throughput in operations (one newTimeout plus one cancel) per microsecond.
 *
 * <p>Run: {@code java -jar bench/target/timewheel-bench.jar jmh NettyScheduleCancelBenchmark -p timer=wheel-timer,netty-1ms -p pending=1000000 -t 1 -f 1 -wi 2 -w 1s -i 3 -r 1s}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx4g", "-XX:+AlwaysPreTouch"}) // pre-touched: bench/README.md, "Reading the results"
public class NettyScheduleCancelBenchmark {

    @Param({"wheel-timer", "netty-1ms", "netty-100ms"})
    public String timer;

    @Param({"1000000"})
    public int pending;

    private Timer instance;

    @Setup(Level.Trial)
    public void setUp() throws InterruptedException {
        NettyTimerKind kind = NettyTimerKind.of(timer);
        instance = kind.create();
        NettyTimerKind.warmUp(instance);
        NettyTimerKind.scheduleFar(instance, pending, 42);
        kind.settle(instance);
        System.gc(); // promote the pending timeouts now, not in the measured young collections
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        instance.stop();
    }

    @Benchmark
    public boolean scheduleCancel() {
        Timeout timeout = instance.newTimeout(NettyTimerKind.NOOP, 30, TimeUnit.SECONDS);
        return timeout.cancel();
    }

    /** For the smoke test: the state without JMH. */
    public static NettyScheduleCancelBenchmark smoke(String timer, int pending) throws InterruptedException {
        NettyScheduleCancelBenchmark b = new NettyScheduleCancelBenchmark();
        b.timer = timer;
        b.pending = pending;
        b.setUp();
        return b;
    }
}
