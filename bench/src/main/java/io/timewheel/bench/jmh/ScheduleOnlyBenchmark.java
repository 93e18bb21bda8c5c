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

import java.util.concurrent.TimeUnit;

/**
 * Insert rate: schedule 30 s timers (never cancelled) into an instance already holding {@code pending}
 * far timers. The timers pile up, so every iteration gets a fresh instance, filled in its (unmeasured)
 * setup and closed in its teardown.
 *
 * <p>Run: {@code java -jar bench/target/timewheel-bench.jar jmh ScheduleOnlyBenchmark -p peer=timewheel,stpe,netty-1ms -p pending=1000000 -f 1 -wi 2 -w 1s -i 3 -r 1s}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx4g", "-XX:+AlwaysPreTouch"}) // pre-touched: bench/README.md, "Reading the results"
public class ScheduleOnlyBenchmark {

    @Param({"timewheel", "stpe", "stpe-roc", "fjp", "netty-1ms", "netty-100ms", "kafka"})
    public String peer;

    @Param({"1000000"})
    public int pending;

    private TimerService service;

    @Setup(Level.Iteration)
    public void setUp() throws InterruptedException {
        service = Peer.of(peer).create();
        Workloads.warmUp(service);
        Workloads.scheduleFar(service, pending, 42);
        service.settle();
        System.gc(); // promote the pending timers now, not in the measured young collections
    }

    @TearDown(Level.Iteration)
    public void tearDown() {
        service.close();
    }

    @Benchmark
    public Object schedule() {
        return service.schedule(Workloads.NOOP, 30, TimeUnit.SECONDS);
    }

    /** For the smoke test. */
    public static ScheduleOnlyBenchmark smoke(String peer, int pending) throws InterruptedException {
        ScheduleOnlyBenchmark b = new ScheduleOnlyBenchmark();
        b.peer = peer;
        b.pending = pending;
        b.setUp();
        return b;
    }
}
