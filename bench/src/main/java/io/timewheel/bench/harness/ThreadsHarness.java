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
 * Threads added: how many threads 1 and 10 instances of each implementation add to a JVM once each has run
 * a task (each instance has one worker, see {@link Peer}). Fresh JVM per count, so shared threads (our
 * tick thread) are counted once.
 *
 * <p>Run: {@code java -jar bench/target/timewheel-bench.jar threads [--peers all]}
 */
public final class ThreadsHarness {

    private static final String RESULT = "THREADS-RESULT";

    private ThreadsHarness() {
    }

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        if (args.flag("child")) {
            child(Peer.of(args.get("peer", "timewheel")), args.getInt("instances", 1));
            return;
        }
        run(Peer.parse(args.get("peers", "all")), System.out);
    }

    /** Result: peer id to {threads with 1 instance, threads with 10 instances}; the names go to {@code out}. */
    public static Map<Peer, int[]> run(List<Peer> peers, PrintStream out) throws Exception {
        out.println("threads added to a fresh JVM by 1 and by 10 instances (each ran one task)");
        out.printf("%-12s %6s %6s  %s%n", "peer", "x1", "x10", "threads of one instance");
        Map<Peer, int[]> results = new LinkedHashMap<>();
        List<Object[]> started = new ArrayList<>();
        for (Peer peer : peers) {
            for (int instances : new int[] {1, 10}) {
                List<String> cmd = ChildJvm.command(List.of("-Xmx256m", "-XX:+UseSerialGC"), ThreadsHarness.class,
                        "--child", "--peer", peer.id(), "--instances", Integer.toString(instances));
                started.add(new Object[] {peer, instances, cmd, ChildJvm.start(cmd)});
            }
        }
        Map<Peer, String> names = new LinkedHashMap<>();
        for (Object[] s : started) {
            Peer peer = (Peer) s[0];
            int instances = (Integer) s[1];
            @SuppressWarnings("unchecked")
            List<String> cmd = (List<String>) s[2];
            for (String line : ChildJvm.finish((Process) s[3], cmd, 120)) {
                if (line.startsWith(RESULT)) {
                    String[] f = line.split("\t");
                    int[] counts = results.computeIfAbsent(peer, p -> new int[2]);
                    counts[instances == 1 ? 0 : 1] = Integer.parseInt(f[1]);
                    if (instances == 1) {
                        names.put(peer, f.length > 2 ? f[2] : "");
                    }
                }
            }
        }
        for (Map.Entry<Peer, int[]> e : results.entrySet()) {
            out.printf("%-12s %6d %6d  %s%n", e.getKey().id(), e.getValue()[0], e.getValue()[1], names.get(e.getKey()));
        }
        return results;
    }

    static void child(Peer peer, int instances) throws Exception {
        ProcThreads.Before before = new ProcThreads.Before();
        List<TimerService> services = new ArrayList<>();
        try {
            for (int i = 0; i < instances; i++) {
                TimerService s = peer.create();
                services.add(s);
                Workloads.warmUp(s);
            }
            Thread.sleep(200);
            ProcThreads threads = new ProcThreads(before);
            System.out.println(RESULT + "\t" + threads.threads().size() + "\t" + String.join(", ", threads.names()));
        } finally {
            for (TimerService s : services) {
                s.close();
            }
        }
    }
}
