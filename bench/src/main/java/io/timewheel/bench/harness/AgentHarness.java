package io.timewheel.bench.harness;

import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Agent start-up cost: the wall time of a hello-world JVM ({@link Hello}: one scheduled executor, one
 * task) with and without {@code -javaagent:agent/target/timewheel-agent.jar}, {@code runs} times each,
 * alternating, median reported. Until the agent module has been built, it says so and measures nothing.
 *
 * <p>Run: {@code java -jar bench/target/timewheel-bench.jar agent [--runs 10] [--agent path/to/timewheel-agent.jar]}
 */
public final class AgentHarness {

    /** Medians in milliseconds: without, with; and what the application printed with the agent. */
    public static final class Result {
        public final double withoutMillis;
        public final double withMillis;
        public final int runs;
        public final String agentOutput;
        public final Path agent;

        Result(double withoutMillis, double withMillis, int runs, String agentOutput, Path agent) {
            this.withoutMillis = withoutMillis;
            this.withMillis = withMillis;
            this.runs = runs;
            this.agentOutput = agentOutput;
            this.agent = agent;
        }
    }

    private AgentHarness() {
    }

    public static void main(String[] argv) throws Exception {
        Args args = new Args(argv);
        run(args.get("agent", null), args.getInt("runs", args.flag("smoke") ? 1 : 10), System.out);
    }

    /** The agent jar: given, or agent/target/timewheel-agent.jar beside the bench module or under the working directory. */
    public static Path findAgent(String given) {
        List<Path> candidates = new ArrayList<>();
        if (given != null) {
            candidates.add(Path.of(given));
        }
        candidates.add(Path.of("agent", "target", "timewheel-agent.jar"));
        try {
            Path here = Path.of(AgentHarness.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            // bench/target/timewheel-bench.jar or bench/target/classes: the project root is two levels up
            Path root = here.getParent() == null ? null : here.getParent().getParent();
            if (root != null && root.getParent() != null) {
                candidates.add(root.getParent().resolve("agent").resolve("target").resolve("timewheel-agent.jar"));
            }
        } catch (URISyntaxException | RuntimeException ignored) {
            // no code source: only the working directory
        }
        for (Path p : candidates) {
            if (Files.isRegularFile(p)) {
                return p.toAbsolutePath().normalize();
            }
        }
        return null;
    }

    /** Returns null (after saying so) when the agent has not been built yet. */
    public static Result run(String given, int runs, PrintStream out) throws Exception {
        Path agent = findAgent(given);
        if (agent == null) {
            out.println("agent: agent not built yet (no agent/target/timewheel-agent.jar): nothing measured");
            return null;
        }
        out.printf("agent: hello-world JVM wall time, %d runs each, median, agent %s%n", runs, agent);
        long[] without = new long[runs];
        long[] with = new long[runs];
        String output = "";
        ChildJvm.run(ChildJvm.command(List.of(), Hello.class), 60); // warm the file cache
        for (int i = 0; i < runs; i++) {
            without[i] = time(List.of());
            long t0 = System.nanoTime();
            List<String> lines = ChildJvm.run(ChildJvm.command(List.of("-javaagent:" + agent), Hello.class), 60);
            with[i] = System.nanoTime() - t0;
            output = String.join(" | ", lines);
        }
        Result r = new Result(median(without) / 1e6, median(with) / 1e6, runs, output, agent);
        out.printf("without agent: %.1f ms   with agent: %.1f ms   cost: %+.1f ms%n", r.withoutMillis, r.withMillis,
                r.withMillis - r.withoutMillis);
        out.println("with the agent the application printed: " + output);
        return r;
    }

    private static long time(List<String> jvmOptions) throws Exception {
        long t0 = System.nanoTime();
        ChildJvm.run(ChildJvm.command(jvmOptions, Hello.class), 60);
        return System.nanoTime() - t0;
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }
}
