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
 * The timeout pattern: schedule a 30 s timer and cancel it at once (a request timeout that the response
 * beats), with {@code pending} far timers (1 to 2 h away) already waiting. Producer threads share one
 * instance: run it with {@code -t 1/2/4}. Throughput in operations (one schedule plus one cancel) per
 * microsecond, i.e. millions per second.
 *
 * <p>STPE with removeOnCancel=false keeps every cancelled task until its deadline by design; between
 * iterations (not measured) it is purged so the next iteration starts from the same state.
 *
 * <p>Run: {@code java -jar bench/target/timewheel-bench.jar jmh ScheduleCancelBenchmark -p peer=timewheel,stpe-roc,netty-1ms -p pending=0,10000,1000000 -t 1 -f 1 -wi 2 -w 1s -i 3 -r 1s}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx4g", "-XX:+AlwaysPreTouch"}) // pre-touched: bench/README.md, "Reading the results"
public class ScheduleCancelBenchmark {

    @Param({"timewheel", "stpe", "stpe-roc", "fjp", "netty-1ms", "netty-100ms", "kafka"})
    public String peer;

    @Param({"0", "10000", "1000000"})
    public int pending;

    private TimerService service;

    @Setup(Level.Trial)
    public void setUp() throws InterruptedException {
        service = Peer.of(peer).create();
        Workloads.warmUp(service);
        Workloads.scheduleFar(service, pending, 42);
        service.settle();
        System.gc(); // promote the pending timers now, not in the measured young collections
    }

    @TearDown(Level.Iteration)
    public void betweenIterations() {
        service.betweenIterations();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        service.close();
    }

    @Benchmark
    public boolean scheduleCancel() {
        Object handle = service.schedule(Workloads.NOOP, 30, TimeUnit.SECONDS);
        return service.cancel(handle);
    }

    /** For the smoke test: the state without JMH. */
    public static ScheduleCancelBenchmark smoke(String peer, int pending) throws InterruptedException {
        ScheduleCancelBenchmark b = new ScheduleCancelBenchmark();
        b.peer = peer;
        b.pending = pending;
        b.setUp();
        return b;
    }
}
