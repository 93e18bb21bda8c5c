/*
 * Probe: a fresh JVM's first executor: how long its construction takes, then one 1 ms timer scheduled and
 * waited for; timewheel ("tw"), timewheel running each task on a virtual thread ("twvt", Java 21+) or the
 * JDK's STPE ("stpe"). One executor per JVM; alternate the kinds:
 *
 *   for i in 1 2 3 4; do for k in tw twvt stpe; do bench/probe.sh FirstTimer $k; done; done
 *
 * Reach for it when a change moves one-time work (class loading, the first lambda or VarHandle linkage, the
 * tick thread's start, a virtual thread's carrier pool) between the constructor and the first due run: the
 * constructor may take longer than STPE's, the first timer should not be later. JAVA_OPTS=-Xlog:class+load
 * shows what is loaded when; JAVA_OPTS=-Djava.lang.invoke.MethodHandle.TRACE_METHOD_LINKAGE=true which call
 * sites are linked. tck's fork.ColdStartTest holds the first timer's bound.
 */
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

public class FirstTimer {
    public static void main(String[] args) throws Exception {
        long c0 = System.nanoTime();
        ScheduledThreadPoolExecutor executor = args[0].equals("tw")
                ? new io.timewheel.executor.WheelScheduledExecutorService(1)
                : args[0].equals("twvt") // virtual-thread dispatch, Java 21+
                ? io.timewheel.executor.WheelScheduledExecutorService.builder().corePoolSize(1).virtualThreadPerRun().build()
                : new ScheduledThreadPoolExecutor(1);
        long c1 = System.nanoTime();
        CountDownLatch ran = new CountDownLatch(1);
        long[] at = new long[1];
        Runnable timer = new Runnable() { // not a lambda: the JVM's first lambda would be timed here
            @Override
            public void run() {
                at[0] = System.nanoTime();
                ran.countDown();
            }
        };
        long s0 = System.nanoTime();
        executor.schedule(timer, 1, TimeUnit.MILLISECONDS);
        long s1 = System.nanoTime();
        ran.await();
        System.out.printf("%s construct %.2f schedule %.2f late %.2f first-timer total %.2f ms%n", args[0], (c1 - c0) / 1e6,
                (s1 - s0) / 1e6, (at[0] - s0 - 1_000_000) / 1e6, (at[0] - c0) / 1e6);
        executor.shutdown();
    }
}
