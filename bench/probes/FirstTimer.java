/*
 * Probe (not built with the project): a fresh JVM's first executor, timewheel ("tw"), timewheel with
 * virtual-thread dispatch ("twvt", Java 21+) or STPE ("stpe"): how long
 * its construction takes, then one 1 ms timer scheduled and waited for. Run it once per JVM, alternating kinds:
 *
 *   ./mvnw -B -q -o -pl executor package -DskipTests
 *   javac -cp executor/target/timewheel-executor-0.1.0-SNAPSHOT.jar -d /tmp/ft bench/probes/FirstTimer.java
 *   for i in 1 2 3 4; do for k in tw stpe; do java -cp executor/target/timewheel-executor-0.1.0-SNAPSHOT.jar:/tmp/ft FirstTimer $k; done; done
 *
 * Add -Xlog:class+load (what is loaded, and when) or -Djava.lang.invoke.MethodHandle.TRACE_METHOD_LINKAGE=true
 * (which invokedynamic call sites are linked) to see where the time goes. What it showed: bench/results/jdk17/
 * cold-path-compare.txt, section 5 (tck's fork.ColdStartTest keeps the fix).
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
