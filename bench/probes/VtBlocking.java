import io.timewheel.executor.WheelScheduledExecutorService;
import java.util.*;
import java.util.concurrent.*;

/**
 * Issue 27: start lateness of blocking tasks, 2,000 tasks due at random 1..100 ms, each sleeping 20 ms, on
 * timewheel with virtualThreadPerRun() against platform pools of 1 and 4 (3 repetitions, the first not
 * printed). A probe, not part of the build (Java 21+):
 * <pre>
 * ./mvnw -B -q -pl bench -am package -DskipTests
 * javac -d /tmp/vtb -cp bench/target/timewheel-bench.jar bench/probes/VtBlocking.java
 * java -cp bench/target/timewheel-bench.jar:/tmp/vtb VtBlocking
 * </pre>
 */
public class VtBlocking {
    public static void main(String[] a) throws Exception {
        int n = 2000;
        for (int rep = 0; rep < 3; rep++) {
            for (String mode : new String[] {"platform-1", "platform-4", "vt"}) {
                ScheduledThreadPoolExecutor ex = switch (mode) {
                    case "vt" -> WheelScheduledExecutorService.builder().corePoolSize(1).virtualThreadPerRun().build();
                    case "platform-4" -> WheelScheduledExecutorService.builder().corePoolSize(4).build();
                    default -> WheelScheduledExecutorService.builder().corePoolSize(1).build();
                };
                long[] dl = new long[n], st = new long[n];
                CountDownLatch done = new CountDownLatch(n);
                SplittableRandom r = new SplittableRandom(rep);
                for (int i = 0; i < n; i++) {
                    final int id = i; long delay = 1 + r.nextInt(100);
                    dl[i] = System.nanoTime() + delay * 1_000_000L;
                    ex.schedule(() -> { st[id] = System.nanoTime(); try { Thread.sleep(20); } catch (InterruptedException e) { } done.countDown(); }, delay, TimeUnit.MILLISECONDS);
                }
                done.await(120, TimeUnit.SECONDS);
                ex.shutdown();
                long[] l = new long[n]; for (int i = 0; i < n; i++) l[i] = st[i] - dl[i]; Arrays.sort(l);
                if (rep > 0) System.out.printf("%-11s start lateness p50 %8.2f ms  p99 %8.2f ms  max %8.2f ms%n", mode, l[n / 2] / 1e6, l[n * 99 / 100] / 1e6, l[n - 1] / 1e6);
            }
        }
    }
}
