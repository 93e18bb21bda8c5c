package io.timewheel.bench.harness;

import io.timewheel.bench.peer.Peer;
import io.timewheel.bench.peer.TimerService;
import io.timewheel.bench.peer.Workloads;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Idle cost: what the implementation's own threads do while nothing is due, with no timers and with
 * {@code timers} timers an hour or two away. Each measurement runs in a fresh JVM, so that the threads
 * the implementation creates (found by diffing, see {@link ProcThreads}) are all new: it ran one task so
 * every thread has started, then the harness samples their context switches (/proc/self/task/tid/status,
 * voluntary + involuntary: each wake-up costs at least one) and CPU time (ThreadMXBean) across a window.
 *
 * <p>By default the JVMs run side by side: each fills its timers, then waits for a common instant so that
 * every window opens at once, when all of them are idle (a JVM not ready in time says so). With
 * {@code --sequential} they run one after the other.
 *
 * <p>Run: {@code java -jar bench/target/timewheel-bench.jar idle [--seconds 10] [--timers 1000000] [--peers all] [--sequential]}
 */
public final class IdleHarness {

    private static final String RESULT = "IDLE-RESULT";

    public static final class Result {
        public final Peer peer;
        public final int timers;
        public final double seconds;
        public final double wakeupsPerSecond;
        public final double voluntaryPerSecond;
        public final double cpuMillisPerSecond;
        public final int threads;
        public final String threadNames;

        public Result(Peer peer, int timers, double seconds, double wakeupsPerSecond, double voluntaryPerSecond,
               double cpuMillisPerSecond, int threads, String threadNames) {
            this.peer = peer;
            this.timers = timers;
            this.seconds = seconds;
            this.wakeupsPerSecond = wakeupsPerSecond;
            this.voluntaryPerSecond = voluntaryPerSecond;
            this.cpuMillisPerSecond = cpuMillisPerSecond;
            this.threads = threads;
            this.threadNames = threadNames;
        }
    }

    private IdleHarness() {
    }

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        if (args.flag("child")) {
            child(Peer.of(args.get("peer", "timewheel")), args.getInt("timers", 0), args.getInt("millis", 10_000),
                    Long.parseLong(args.get("start-at", "0")));
            return;
        }
        boolean smoke = args.flag("smoke");
        int timers = args.getInt("timers", smoke ? 1_000 : 1_000_000);
        int millis = smoke ? 300 : args.getInt("seconds", 10) * 1000;
        run(Peer.parse(args.get("peers", "all")), List.of(0, timers), millis, !args.flag("sequential"), System.out);
    }

    /**
     * Measures every peer at every timer count, one fresh JVM each; {@code parallel}: all at once, their
     * windows opening at a common instant after every JVM had time to fill its timers.
     */
    public static Map<String, Result> run(List<Peer> peers, List<Integer> timerCounts, int millis, boolean parallel,
                                          PrintStream out) throws Exception {
        out.printf("idle: wake-ups and CPU of the implementation's threads over %.1f s, one fresh JVM each%s%n",
                millis / 1000.0, parallel ? " (run in parallel)" : "");
        out.printf("%-12s %9s %12s %12s %12s  %s%n", "peer", "timers", "wakeups/s", "voluntary/s", "CPU ms/s", "threads");
        Map<String, Result> results = new LinkedHashMap<>();
        List<Object[]> started = new ArrayList<>();
        long fills = 0;
        for (int timers : timerCounts) {
            fills += (long) timers * peers.size();
        }
        // JVM start-ups plus filling the timers, all on a shared machine: generous, it is only waiting
        long startAt = System.currentTimeMillis() + 4_000 + 600L * peers.size() * timerCounts.size() + fills / 700;
        for (int timers : timerCounts) {
            for (Peer peer : peers) {
                List<String> cmd = ChildJvm.command(List.of("-Xmx2g", "-XX:+UseSerialGC"), IdleHarness.class,
                        "--child", "--peer", peer.id(), "--timers", Integer.toString(timers), "--millis", Integer.toString(millis),
                        "--start-at", parallel ? Long.toString(startAt) : "0");
                if (parallel) {
                    started.add(new Object[] {peer, timers, cmd, ChildJvm.start(cmd)});
                } else {
                    report(results, peer, timers, ChildJvm.run(cmd, 300), out);
                }
            }
        }
        for (Object[] s : started) {
            @SuppressWarnings("unchecked")
            List<String> cmd = (List<String>) s[2];
            report(results, (Peer) s[0], (Integer) s[1], ChildJvm.finish((Process) s[3], cmd, 600), out);
        }
        return results;
    }

    public static String key(Peer peer, int timers) {
        return peer.id() + "@" + timers;
    }

    private static void report(Map<String, Result> results, Peer peer, int timers, List<String> lines, PrintStream out) {
        for (String line : lines) {
            if (line.startsWith("IDLE-LATE")) {
                out.println(peer.id() + "@" + timers + ": " + line);
            }
            if (line.startsWith(RESULT)) {
                String[] f = line.split("\t");
                Result r = new Result(peer, timers, Double.parseDouble(f[1]), Double.parseDouble(f[2]), Double.parseDouble(f[3]),
                        Double.parseDouble(f[4]), Integer.parseInt(f[5]), f.length > 6 ? f[6] : "");
                results.put(key(peer, timers), r);
                out.printf("%-12s %9d %12s %12s %12.3f  %d: %s%n", peer.id(), timers, fmt(r.wakeupsPerSecond),
                        fmt(r.voluntaryPerSecond), r.cpuMillisPerSecond, r.threads, r.threadNames);
                return;
            }
        }
        throw new IllegalStateException("no result from the idle child for " + peer.id() + ":\n" + String.join("\n", lines));
    }

    private static String fmt(double perSecond) {
        return perSecond < 0 ? "n/a" : String.format("%.1f", perSecond);
    }

    /** In the child JVM: create, start, fill, settle, then sample across the window. */
    static void child(Peer peer, int timers, int millis, long startAt) throws Exception {
        ProcThreads.Before before = new ProcThreads.Before();
        try (TimerService service = peer.create()) {
            Workloads.warmUp(service);
            Workloads.scheduleFar(service, timers, 42);
            service.settle();
            System.gc();
            Thread.sleep(500); // let the hand-off and the GC settle before the window opens
            long wait = startAt - System.currentTimeMillis();
            if (startAt > 0 && wait <= 0) {
                System.out.println("IDLE-LATE not ready at the common start: the window opened " + -wait + " ms late");
            }
            if (wait > 0) {
                Thread.sleep(wait);
            }
            ProcThreads threads = new ProcThreads(before);
            long cpu0 = threads.cpuNanos();
            long[] cs0 = threads.contextSwitches();
            long t0 = System.nanoTime();
            Thread.sleep(millis);
            long elapsed = System.nanoTime() - t0;
            long cpu1 = threads.cpuNanos();
            long[] cs1 = threads.contextSwitches();
            double seconds = elapsed / 1e9;
            double all = cs0[0] < 0 ? -1 : ((cs1[0] - cs0[0]) + (cs1[1] - cs0[1])) / seconds;
            double voluntary = cs0[0] < 0 ? -1 : (cs1[0] - cs0[0]) / seconds;
            System.out.println(RESULT + "\t" + seconds + "\t" + all + "\t" + voluntary + "\t" + (cpu1 - cpu0) / 1e6 / seconds
                    + "\t" + threads.threads().size() + "\t" + String.join(", ", threads.names()));
        }
    }
}
