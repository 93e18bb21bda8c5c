/*
 * Probe: what a steady stream of far timers costs the tick thread. One thread schedules RATE one-shot timers a
 * second, each DELAY_MS ahead, on an executor of one worker; once the first of them fall due (after DELAY_MS +
 * 1 s) it measures, for SECONDS, the tick thread's CPU time and its voluntary context switches (its wake-ups),
 * per second. Linux only (/proc/self/task).
 *
 *   bench/probe.sh TickWakeups RATE DELAY_MS SECONDS          e.g. bench/probe.sh TickWakeups 1000 1000 8
 *
 * Reach for it when a change touches when the tick thread parks or wakes (how often it drains its inbox, the
 * hand-over's stride and horizon, how far ahead it files): run the build before and the build after, launches
 * alternating, at the rates and delays the change is about. With nothing pending the tick thread never wakes:
 * `idle` checks that.
 */
import io.timewheel.executor.WheelScheduledExecutorService;
import java.lang.management.*;
import java.nio.file.*;
import java.util.concurrent.*;

public class TickWakeups {
    public static void main(String[] a) throws Exception {
        int rate = Integer.parseInt(a[0]), delayMs = Integer.parseInt(a[1]), seconds = Integer.parseInt(a[2]);
        ScheduledThreadPoolExecutor ex = WheelScheduledExecutorService.builder().corePoolSize(1).build();
        ex.schedule(() -> {}, 1, TimeUnit.MILLISECONDS).get();
        Thread tick = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("timewheel-tick")).findFirst().get();
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long periodNs = 1_000_000_000L / rate;
        long start = System.nanoTime(), next = start;
        long cpu0 = 0, sw0 = 0, t0 = 0; boolean measuring = false;
        long end = start + (seconds + delayMs / 1000 + 2) * 1_000_000_000L;
        while (System.nanoTime() < end) {
            long now = System.nanoTime();
            if (!measuring && now - start > (delayMs + 1000) * 1_000_000L) { measuring = true; cpu0 = mx.getThreadCpuTime(tick.getId()); sw0 = switches(); t0 = now; }
            while (next - now <= 0) { ex.schedule(() -> {}, delayMs, TimeUnit.MILLISECONDS); next += periodNs; }
            java.util.concurrent.locks.LockSupport.parkNanos(next - now);
        }
        double secs = (System.nanoTime() - t0) / 1e9;
        System.out.printf("rate %d/s delay %d ms: tick thread %.2f ms CPU/s, %.1f wake-ups/s%n", rate, delayMs, (mx.getThreadCpuTime(tick.getId()) - cpu0) / 1e6 / secs, (switches() - sw0) / secs);
        ex.shutdownNow();
    }
    /** The tick thread's voluntary context switches. */
    static long switches() throws Exception {
        for (Path p : Files.newDirectoryStream(Paths.get("/proc/self/task"))) {
            String comm = Files.readString(p.resolve("comm")).trim();
            if (comm.startsWith("timewheel-tick")) {
                for (String l : Files.readAllLines(p.resolve("status"))) if (l.startsWith("voluntary_ctxt_switches")) return Long.parseLong(l.split("\\s+")[1]);
            }
        }
        return -1;
    }
}
