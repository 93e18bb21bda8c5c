/*
 * Probe (not built with the project): what an atomic costs before C2 compiles it, by the API it goes through.
 * A cold JVM runs the executor's schedule, hand-over and run paths in the interpreter and then in C1's profiled
 * code (tier 3) for its first thousands of timers; there a VarHandle call goes through its guard and linkage
 * methods, where a field updater or an AtomicLong is one call into Unsafe. ns per op, 200,000 ops per loop:
 *
 *   javac -d /tmp/coldpath bench/probes/ColdPath.java
 *   java -Xint -cp /tmp/coldpath ColdPath                       # the interpreter
 *   java -XX:TieredStopAtLevel=3 -cp /tmp/coldpath ColdPath     # C1 with full profiling (tier 3)
 *   java -cp /tmp/coldpath ColdPath                             # tiered, as run: C2 once hot
 *
 * On this project's 2-CPU machine (2026-11-26), ns per op:
 *   JDK 17 interpreter: VarHandle getAndAdd (array / field) 1150-1310, setRelease 840-890; AtomicLong 366-381,
 *     AtomicLongFieldUpdater 578-594, updater lazySet 374; volatile store 10.
 *   JDK 17 tier 3: VarHandle 15-69; updater 3-13; AtomicLong 3-5.
 *   JDK 25 interpreter: VarHandle 227-341; AtomicLong 122, updater 118-185. Tier 3: VarHandle 12-28, updater 7.
 * What the executor took from it: ScheduledTask's atomics are field updaters (less producer, worker and JIT CPU
 * in a cold JVM's first round, bench/probes/ColdCpu.java; warm throughput unchanged); QueuedCount's and
 * Sequencer's cells stay a long[] with a VarHandle (as padded objects with updaters they cost 0.90x
 * schedule+cancel with two producers). bench/results/jdk17/cold-path-compare.txt has the runs.
 */
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;

public class ColdPath {
    static final VarHandle ARRAY = MethodHandles.arrayElementVarHandle(long[].class);
    static final VarHandle FIELD;
    static final AtomicLongFieldUpdater<ColdPath> UPDATER = AtomicLongFieldUpdater.newUpdater(ColdPath.class, "v");
    volatile long v;
    int plain;

    static {
        try {
            FIELD = MethodHandles.lookup().findVarHandle(ColdPath.class, "v", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public static void main(String[] args) {
        long[] array = new long[16];
        AtomicLong atomic = new AtomicLong();
        ColdPath o = new ColdPath();
        int n = 200_000;
        for (int rep = 0; rep < 2; rep++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) ARRAY.getAndAdd(array, 3, 1L);
            long t1 = System.nanoTime();
            for (int i = 0; i < n; i++) atomic.getAndIncrement();
            long t2 = System.nanoTime();
            for (int i = 0; i < n; i++) FIELD.getAndAdd(o, 1L);
            long t3 = System.nanoTime();
            for (int i = 0; i < n; i++) UPDATER.getAndIncrement(o);
            long t4 = System.nanoTime();
            for (int i = 0; i < n; i++) FIELD.setRelease(o, (long) i);
            long t5 = System.nanoTime();
            for (int i = 0; i < n; i++) UPDATER.lazySet(o, i);
            long t6 = System.nanoTime();
            for (int i = 0; i < n; i++) o.v = i;
            long t7 = System.nanoTime();
            for (int i = 0; i < n; i++) o.plain = i;
            long t8 = System.nanoTime();
            System.out.printf("ns/op: VarHandle array getAndAdd %.0f, AtomicLong getAndIncrement %.0f, VarHandle field getAndAdd %.0f,"
                            + " updater getAndIncrement %.0f, VarHandle setRelease %.0f, updater lazySet %.0f, volatile store %.0f, plain store %.0f%n",
                    (t1 - t0) / (double) n, (t2 - t1) / (double) n, (t3 - t2) / (double) n, (t4 - t3) / (double) n,
                    (t5 - t4) / (double) n, (t6 - t5) / (double) n, (t7 - t6) / (double) n, (t8 - t7) / (double) n);
        }
    }
}
