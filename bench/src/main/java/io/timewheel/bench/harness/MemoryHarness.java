package io.timewheel.bench.harness;

import io.timewheel.bench.peer.Peer;
import io.timewheel.bench.peer.TimerService;
import io.timewheel.bench.peer.Workloads;
import org.openjdk.jol.info.GraphLayout;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Bytes per pending timer: JOL's size of everything reachable from the implementation's root object
 * ({@code GraphLayout.parseInstance(root).totalSize()}) with {@code timers} timers pending (1 to 2 h
 * away), minus the same with none; and JOL's object count likewise, which tells whether JOL's walk reached the
 * timers at all (at least one object each). Every timer runs the same Runnable instance, so the user's task is not
 * counted; the handle the implementation returns is (it is what it keeps per timer). The heap used after
 * a full GC is shown beside it as a cross-check. Each implementation is measured in a fresh JVM started
 * with the flags JOL needs on Java 17+ ({@link #JVM_OPTIONS}); the JVMs run side by side.
 *
 * <p>Run: {@code java -jar bench/target/timewheel-bench.jar memory [--timers 1000000] [--peers all]}
 */
public final class MemoryHarness {

    public static final class Result {
        public final Peer peer;
        public final int timers;
        public final double jolBytesPerTimer;
        /** Objects JOL found per timer (graph with the timers minus without): at least 1 if it reached them. */
        public final double jolObjectsPerTimer;
        public final double heapBytesPerTimer;

        public Result(Peer peer, int timers, double jolBytesPerTimer, double jolObjectsPerTimer, double heapBytesPerTimer) {
            this.peer = peer;
            this.timers = timers;
            this.jolBytesPerTimer = jolBytesPerTimer;
            this.jolObjectsPerTimer = jolObjectsPerTimer;
            this.heapBytesPerTimer = heapBytesPerTimer;
        }

        /**
         * Whether JOL saw the timers: timers were scheduled, and JOL's graph grew by at least one object and
         * one byte per timer. Not when the implementation keeps them where no field reaches (Java 25's
         * ForkJoinPool delay scheduler holds its heap in a local variable of its thread's loop), nor when
         * {@link TimerService#root()} is not the object that holds them.
         */
        public boolean jolSawTimers() {
            return timers > 0 && jolObjectsPerTimer >= 1.0 && jolBytesPerTimer >= 1.0 && Double.isFinite(jolBytesPerTimer);
        }

        /** JOL's figure, or the heap delta when JOL could not see the timers. */
        public double bytesPerTimer() {
            return jolSawTimers() ? jolBytesPerTimer : heapBytesPerTimer;
        }
    }

    /**
     * JOL on Java 17+: self-attach for Instrumentation (exact object sizes), field offsets that also work
     * for hidden classes (lambdas the walk reaches through thread groups), and @Contended readable.
     */
    static final List<String> JVM_OPTIONS = jvmOptions();

    private static List<String> jvmOptions() {
        List<String> options = new java.util.ArrayList<>(List.of("-Xmx3g", "-Djdk.attach.allowAttachSelf=true",
                "-Djol.magicFieldOffset=true", "--add-exports", "java.base/jdk.internal.vm.annotation=ALL-UNNAMED"));
        if (Runtime.version().feature() >= 21) {
            options.add("-XX:+EnableDynamicAgentLoading"); // JOL's self-attach, without the Java 21+ warning
        }
        return options;
    }

    private static final String RESULT = "MEMORY-RESULT";

    private MemoryHarness() {
    }

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        int timers = args.getInt("timers", args.flag("smoke") ? 2_000 : 1_000_000);
        if (args.flag("child")) {
            Result r = measure(Peer.of(args.get("peer", "timewheel")), timers);
            System.out.println(RESULT + "\t" + r.jolBytesPerTimer + "\t" + r.jolObjectsPerTimer + "\t" + r.heapBytesPerTimer);
            return;
        }
        run(Peer.parse(args.get("peers", "all")), timers, System.out);
    }

    public static Map<Peer, Result> run(List<Peer> peers, int timers, PrintStream out) throws Exception {
        out.printf("memory: %,d pending timers (1 to 2 h away), JOL graph size minus the empty instance's%n", timers);
        out.printf("%-12s %14s %16s %16s%n", "peer", "JOL B/timer", "JOL objs/timer", "heap B/timer");
        Map<Peer, Result> results = new LinkedHashMap<>();
        Map<Peer, Object[]> started = new LinkedHashMap<>();
        for (Peer peer : peers) { // side by side: nothing here is timed, and JOL's walk is CPU-bound
            List<String> cmd = ChildJvm.command(JVM_OPTIONS, MemoryHarness.class, "--child", "--peer", peer.id(),
                    "--timers", Integer.toString(timers));
            started.put(peer, new Object[] {cmd, ChildJvm.start(cmd)});
        }
        for (Peer peer : peers) {
            @SuppressWarnings("unchecked")
            List<String> cmd = (List<String>) started.get(peer)[0];
            Result r = parse(peer, timers, ChildJvm.finish((Process) started.get(peer)[1], cmd, 900));
            results.put(peer, r);
            out.printf("%-12s %14.1f %16.2f %16.1f%s%n", peer.id(), r.jolBytesPerTimer, r.jolObjectsPerTimer, r.heapBytesPerTimer,
                    r.jolSawTimers() ? "" : "  (JOL does not reach the timers: use the heap figure)");
        }
        return results;
    }

    private static Result parse(Peer peer, int timers, List<String> lines) {
        for (String line : lines) {
            if (line.startsWith(RESULT)) {
                String[] f = line.split("\t");
                return new Result(peer, timers, Double.parseDouble(f[1]), Double.parseDouble(f[2]), Double.parseDouble(f[3]));
            }
        }
        throw new IllegalStateException("no result from the memory child for " + peer.id() + ":\n" + String.join("\n", lines));
    }

    /** In this JVM (the child): JOL needs the options of {@link #JVM_OPTIONS}. */
    public static Result measure(Peer peer, int timers) throws InterruptedException {
        try (TimerService service = peer.create()) {
            Workloads.warmUp(service);
            service.settle();
            long heapEmpty = usedHeapAfterGc();
            long[] jolEmpty = jol(service.root());
            Workloads.scheduleFar(service, timers, 42);
            service.settle();
            long heapFull = usedHeapAfterGc();
            long[] jolFull = jol(service.root());
            return new Result(peer, timers, (jolFull[0] - jolEmpty[0]) / (double) timers, (jolFull[1] - jolEmpty[1]) / (double) timers,
                    (heapFull - heapEmpty) / (double) timers);
        }
    }

    /** {bytes, objects} reachable from root (the layout itself dropped before the next heap reading). */
    private static long[] jol(Object root) {
        GraphLayout layout = GraphLayout.parseInstance(root);
        return new long[] {layout.totalSize(), layout.totalCount()};
    }

    private static long usedHeapAfterGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
