import io.timewheel.executor.ProbeLog;
import io.timewheel.executor.WheelScheduledExecutorService;
import java.util.concurrent.*;
import java.util.concurrent.locks.LockSupport;

/**
 * Issue 24: the tick thread's longest stretches for a steady stream of far timers: RATE one-shot timers a second,
 * DELAY_MS ahead, from one thread for SECONDS; prints the tick thread's drains and advances over 1 ms (at ms since
 * the start + took ms). A stream of 10 s timers crosses level 2 of the wheel, whose slot of the next level-1
 * window (4.3 s of deadlines) was cascaded whole. Needs an executor built with bench/probes/tick-events.patch
 * (the commands in LateByDeadline.java). A probe, not part of the build:
 * <pre>
 * javac -d /tmp/far -cp /tmp/tw-events.jar bench/probes/FarStream.java
 * java -Xms2g -Xmx2g -cp /tmp/tw-events.jar:/tmp/far FarStream 20000 10000 20
 * </pre>
 */
public class FarStream {
    public static void main(String[] a) throws Exception {
        int rate = Integer.parseInt(a[0]); long delayMs = Long.parseLong(a[1]); int seconds = Integer.parseInt(a[2]);
        ScheduledThreadPoolExecutor ex = WheelScheduledExecutorService.builder().corePoolSize(1).build();
        long period = 1_000_000_000L / rate, start = System.nanoTime(), next = start, end = start + seconds * 1_000_000_000L;
        ProbeLog.n = 0;
        while (System.nanoTime() < end) {
            long now = System.nanoTime();
            while (next - now <= 0) { ex.schedule(() -> {}, delayMs, TimeUnit.MILLISECONDS); next += period; }
            LockSupport.parkNanos(next - now);
        }
        StringBuilder sb = new StringBuilder(); long worst = 0; int slow = 0;
        String[] names = {"drain", "advance", "take", "push"};
        for (int i = 0; i < ProbeLog.n; i += 4) {
            long took = ProbeLog.a[i + 2] - ProbeLog.a[i + 1];
            if (ProbeLog.a[i] <= 1) worst = Math.max(worst, took);
            if (ProbeLog.a[i] <= 1 && took > 1_000_000) { slow++; sb.append(String.format(" %s@%.0f+%.1f", names[(int) ProbeLog.a[i]], (ProbeLog.a[i + 1] - start) / 1e6, took / 1e6)); }
        }
        System.out.printf("rate %d/s delay %d ms for %d s: worst drain/advance %.1f ms; %d over 1 ms:%s%n", rate, delayMs, seconds, worst / 1e6, slow, sb);
        ex.shutdownNow();
    }
}
