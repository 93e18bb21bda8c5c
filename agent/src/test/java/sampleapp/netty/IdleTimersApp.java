package sampleapp.netty;

import io.netty.util.HashedWheelTimer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The nettyTimers acceptance scenario, unmodified applications of Netty's HashedWheelTimer:
 * <ul>
 *   <li>{@code ahc}: 20 AsyncHttpClient clients whose requests all time out ({@link AhcTimeouts});</li>
 *   <li>{@code plain}: 100 {@code new HashedWheelTimer()}, each with one timeout an hour away.</li>
 * </ul>
 * Then, one second after the last timeout ran (or was scheduled, for {@code plain}), it lists the threads
 * that serve timers and counts their wake-ups over {@value #WINDOW_MILLIS} ms ({@link TimerThreads}).
 * Prints {@code key=value} lines; exits when done.
 */
public final class IdleTimersApp {

    private static final int PLAIN_TIMERS = 100;
    private static final long WINDOW_MILLIS = 3000;

    private IdleTimersApp() {
    }

    public static void main(String[] args) throws Exception {
        long lastTaskNanos = args[0].equals("ahc") ? AhcTimeouts.run() : plain();
        long untilSettled = lastTaskNanos + TimeUnit.SECONDS.toNanos(1) - System.nanoTime();
        if (untilSettled > 0) {
            TimeUnit.NANOSECONDS.sleep(untilSettled); // "one second after": a span, not a condition
        }
        List<TimerThreads.JvmThread> all = TimerThreads.all();
        List<TimerThreads.JvmThread> serving = TimerThreads.servingTimers(all);
        print("timerThreads", serving.size());
        print("timerThreads.names", names(serving));
        print("threads", names(all));
        print("wakeups.perSecond", TimerThreads.available()
                ? String.format(Locale.ROOT, "%.1f", TimerThreads.wakeupsPerSecond(serving, WINDOW_MILLIS)) : "unknown");
        print("done", true);
        System.out.flush();
        System.exit(0); // AsyncHttpClient's graceful shutdown takes seconds per client and proves nothing here
    }

    /** @return when the last timeout was scheduled (System.nanoTime) */
    private static long plain() {
        List<HashedWheelTimer> timers = new ArrayList<>();
        for (int i = 0; i < PLAIN_TIMERS; i++) {
            HashedWheelTimer timer = new HashedWheelTimer();
            timer.newTimeout(t -> { }, 1, TimeUnit.HOURS);
            timers.add(timer);
        }
        print("timers", timers.size());
        return System.nanoTime();
    }

    private static String names(List<TimerThreads.JvmThread> threads) {
        List<String> names = new ArrayList<>();
        for (TimerThreads.JvmThread thread : threads) {
            names.add(thread.name());
        }
        names.sort(null);
        return names.toString();
    }

    private static void print(String key, Object value) {
        System.out.println(key + "=" + value);
    }
}
