package io.timewheel.bench.harness;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The threads an implementation created, found by diffing before and after: Java threads from
 * {@link Thread#getAllStackTraces()} (for CPU time through ThreadMXBean) and Linux tasks from
 * /proc/self/task (for context switches), matched through the kernel thread name, which is the Java
 * name cut to 15 characters. Linux only for the context switches; elsewhere they are reported as absent.
 */
public final class ProcThreads {

    private static final Path TASKS = Path.of("/proc/self/task");

    /** The state before the implementation was created. */
    public static final class Before {
        final Set<Thread> javaThreads = new HashSet<>(Thread.getAllStackTraces().keySet());
        final Set<String> tids = tids();
    }

    private final List<Thread> threads = new ArrayList<>();
    private final List<String> tids = new ArrayList<>();

    /** The threads created since {@code before}. */
    public ProcThreads(Before before) {
        Map<String, Integer> namesLeft = new HashMap<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (!before.javaThreads.contains(t)) {
                threads.add(t);
                namesLeft.merge(kernelName(t.getName()), 1, Integer::sum);
            }
        }
        for (String tid : tids()) {
            if (!before.tids.contains(tid)) {
                String comm = comm(tid);
                Integer left = namesLeft.get(comm);
                if (left != null && left > 0) { // a Java thread of the implementation, not a JIT or GC thread
                    namesLeft.put(comm, left - 1);
                    tids.add(tid);
                }
            }
        }
    }

    public List<Thread> threads() {
        return threads;
    }

    public List<String> names() {
        List<String> names = new ArrayList<>();
        for (Thread t : threads) {
            names.add(t.getName());
        }
        names.sort(null);
        return names;
    }

    /** Whether context switches can be read (Linux, and every thread matched to its task). */
    public boolean hasContextSwitches() {
        return Files.isDirectory(TASKS) && tids.size() == threads.size();
    }

    /** CPU time of the threads so far, in nanoseconds (threads that ended count no more). */
    public long cpuNanos() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (Thread t : threads) {
            @SuppressWarnings("deprecation") // Thread.threadId() is Java 19+
            long id = t.getId();
            long cpu = mx.getThreadCpuTime(id);
            if (cpu > 0) {
                sum += cpu;
            }
        }
        return sum;
    }

    /** Voluntary and involuntary context switches of the threads so far, or -1 if unknown. */
    public long[] contextSwitches() {
        if (!hasContextSwitches()) {
            return new long[] {-1, -1};
        }
        long voluntary = 0, involuntary = 0;
        for (String tid : tids) {
            try {
                for (String line : Files.readAllLines(TASKS.resolve(tid).resolve("status"))) {
                    if (line.startsWith("voluntary_ctxt_switches:")) {
                        voluntary += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                    } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                        involuntary += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                    }
                }
            } catch (IOException | RuntimeException gone) {
                // the thread ended: its switches no longer count
            }
        }
        return new long[] {voluntary, involuntary};
    }

    static String kernelName(String javaName) {
        return javaName.length() > 15 ? javaName.substring(0, 15) : javaName;
    }

    private static Set<String> tids() {
        Set<String> set = new HashSet<>();
        if (!Files.isDirectory(TASKS)) {
            return set;
        }
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(TASKS)) {
            for (Path p : dir) {
                set.add(p.getFileName().toString());
            }
        } catch (IOException e) {
            // no /proc: no context switches
        }
        return set;
    }

    private static String comm(String tid) {
        try {
            return Files.readString(TASKS.resolve(tid).resolve("comm")).trim();
        } catch (IOException e) {
            return "";
        }
    }
}
