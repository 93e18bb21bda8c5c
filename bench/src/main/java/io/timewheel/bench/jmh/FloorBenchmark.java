package io.timewheel.bench.jmh;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The floor under a schedule + cancel on this machine: what the operations that
 * an exact executor cannot avoid cost alone, one thread, in ns per operation. {@code nanoTime}: the clock read
 * every schedule needs for its deadline (STPE and Netty read it too). {@code getAndIncrement}: one
 * uncontended locked instruction (a CAS or getAndAdd on a line the thread owns). {@code casOwnedSlot}: a
 * compare-and-set of a reference, as an inbox push or a cancel does. {@code oldArrayStore}: a plain store of
 * a young object into an array that has been promoted (the G1 post-write barrier's slow path when the
 * array is old, which the inbox's stripe tops are), against {@code youngArrayStore} into a fresh array.
 * {@code exactScheduleCancel}: all an exact executor cannot leave out of a schedule + cancel, together: the
 * clock read, a task object of the executor's task's size (56 bytes), one locked instruction for the schedule
 * (the StoreLoad that a parked tick thread's wake-up and the FIFO number need) and the cancel's CAS; no queue
 * at all. A bound from below for every peer's schedule + cancel: run it beside them with
 * {@code ScheduleCancelBenchmark} before trying to make the producer's path cheaper.
 *
 * <p>Run: {@code java -jar bench/target/timewheel-bench.jar jmh FloorBenchmark -f 1 -wi 2 -w 1s -i 3 -r 1s}
 * (add {@code -jvmArgsAppend -XX:+UseParallelGC} to see the store without G1's barrier).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"}) // pre-touched: bench/README.md, "Reading the results"
public class FloorBenchmark {

    private final AtomicLong counter = new AtomicLong();
    private final AtomicReferenceArray<Object> slots = new AtomicReferenceArray<>(64);
    private Object[] oldArray;
    private int index;

    @org.openjdk.jmh.annotations.Setup
    public void setUp() {
        oldArray = new Object[1 << 10];
        System.gc(); // promote it: stores into it cross regions from young objects
        System.gc();
    }

    /** A stand-in for the executor's task: 56 bytes with compressed references, as ScheduledTask. */
    static final class FloorTask {
        static final java.lang.invoke.VarHandle STATE;

        static {
            try {
                STATE = java.lang.invoke.MethodHandles.lookup().findVarHandle(FloorTask.class, "state", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final long deadline;
        final int sequence;
        volatile int state;
        int location;
        Object prev, next, callable, queue, result;

        FloorTask(long deadline, int sequence) {
            this.deadline = deadline;
            this.sequence = sequence;
        }
    }

    @Benchmark
    public Object exactScheduleCancel() {
        long deadline = System.nanoTime() + 1_000_000_000L;
        FloorTask task = new FloorTask(deadline, (int) counter.getAndIncrement());
        FloorTask.STATE.compareAndSet(task, 0, 1);
        return task;
    }

    @Benchmark
    public long nanoTime() {
        return System.nanoTime();
    }

    @Benchmark
    public long getAndIncrement() {
        return counter.getAndIncrement();
    }

    @Benchmark
    public boolean casOwnedSlot() {
        Object seen = slots.get(16);
        return slots.compareAndSet(16, seen, new Object());
    }

    @Benchmark
    public Object oldArrayStore() {
        Object o = new Object();
        oldArray[index++ & 1023] = o;
        return o;
    }

    @Benchmark
    public Object youngArrayStore() {
        Object[] fresh = new Object[1];
        Object o = new Object();
        fresh[0] = o;
        return fresh;
    }
}
