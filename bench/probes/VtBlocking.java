/*
 * Probe: the start lateness of tasks that block, in timewheel's virtual-thread mode against platform workers:
 * 2,000 tasks due at random 1-100 ms, each sleeping 20 ms, on virtualThreadPerRun() (one pool thread starting a
 * virtual thread per run) and on pools of 1 and of 4 platform workers; p50, p99 and max of each, three
 * repetitions, the first not printed; about 3 minutes, most of it the pool of one. Java 21+.
 *
 *   JAVA=/path/to/jdk-21+/bin/java bench/probe.sh VtBlocking
 *
 * Reach for it when a change touches the virtual-thread mode's dispatch: tasks that block are what the mode is
 * for (a platform pool runs them one after another per worker). For tasks that do not block, compare the modes
 * with `lateness --peers timewheel,timewheel-vt`.
 */
import io.timewheel.executor.WheelScheduledExecutorService;
import java.util.*;
import java.util.concurrent.*;

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
