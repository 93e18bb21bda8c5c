package sampleapp.netty;

import javax.management.ObjectName;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JVM's threads that serve timers, and how often they wake. Linux only (/proc/self/task).
 *
 * <p>A thread serves timers if its name says so: it contains "timer", "tick" or "wheel" (Netty's and
 * AsyncHttpClient's timer threads, timewheel's tick thread), or it is named by the JDK's default thread
 * factory, {@code pool-N-thread-M} (what {@code new HashedWheelTimer()} uses). Each Java thread is matched
 * to its Linux task through the native id in the JVM's own thread dump (the DiagnosticCommand MBean's
 * threadPrint, {@code nid=}); kernel thread names are cut to 15 characters and cannot tell
 * "AsyncHttpClient-timer-1-1" from the event loop's "AsyncHttpClient-1-1". A wake-up is a context switch,
 * voluntary or not, read from /proc/self/task/{tid}/status.
 */
final class TimerThreads {

    private static final Pattern HEADER = Pattern.compile("^\"(.*)\" #.* nid=(0x[0-9a-fA-F]+|\\d+) ");
    private static final Pattern POOL = Pattern.compile("pool-\\d+-thread-\\d+");

    /** A Java thread and its Linux task id. */
    record JvmThread(String name, long tid) {
        boolean servesTimers() {
            String lower = name.toLowerCase(Locale.ROOT);
            return lower.contains("timer") || lower.contains("tick") || lower.contains("wheel")
                    || POOL.matcher(name).matches();
        }

        /** Voluntary plus involuntary context switches so far, or -1 if the thread is gone. */
        long switches() {
            try {
                long sum = 0;
                for (String line : Files.readAllLines(Paths.get("/proc/self/task/" + tid + "/status"))) {
                    if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                        sum += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                    }
                }
                return sum;
            } catch (IOException | RuntimeException gone) {
                return -1;
            }
        }
    }

    private TimerThreads() {
    }

    /** Every Java thread of this JVM, from its thread dump. */
    static List<JvmThread> all() throws Exception {
        String dump = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "threadPrint",
                new Object[]{new String[0]}, new String[]{String[].class.getName()});
        List<JvmThread> threads = new ArrayList<>();
        for (String line : dump.split("\n")) {
            Matcher m = HEADER.matcher(line);
            if (m.find()) {
                String nid = m.group(2);
                threads.add(new JvmThread(m.group(1), nid.startsWith("0x") ? Long.parseLong(nid.substring(2), 16)
                        : Long.parseLong(nid)));
            }
        }
        return threads;
    }

    static List<JvmThread> servingTimers(List<JvmThread> all) {
        List<JvmThread> serving = new ArrayList<>();
        for (JvmThread thread : all) {
            if (thread.servesTimers()) {
                serving.add(thread);
            }
        }
        return serving;
    }

    /** Context switches per second of {@code threads} over {@code millis}; threads that end count until then. */
    static double wakeupsPerSecond(List<JvmThread> threads, long millis) throws InterruptedException {
        long[] before = new long[threads.size()];
        for (int i = 0; i < before.length; i++) {
            before[i] = threads.get(i).switches();
        }
        long start = System.nanoTime();
        Thread.sleep(millis); // the window itself: no condition to wait for
        long elapsed = System.nanoTime() - start;
        long sum = 0;
        for (int i = 0; i < before.length; i++) {
            long after = threads.get(i).switches();
            if (before[i] >= 0 && after >= 0) {
                sum += after - before[i];
            }
        }
        return sum * 1e9 / elapsed;
    }

    static boolean available() {
        return Files.isDirectory(Path.of("/proc/self/task"));
    }
}
