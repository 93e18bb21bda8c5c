package io.timewheel.tck.runner;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs {@link TckRunner} in a fresh JVM (the one running the tests) with the packaged agent, and captures
 * what it prints. Paths come from failsafe's system properties (tck/pom.xml). For the integration tests only.
 */
final class TckFork {

    static final Path AGENT_JAR = path("jsr166.agent.jar", "../agent/target/timewheel-agent.jar");
    static final Path JUNIT_JAR = path("jsr166.junit.jar", "");
    static final Path RUNNER_CLASSES = path("jsr166.runner.classes", "target/classes");

    private static final Pattern CLASS_LINE =
            Pattern.compile("^tck-runner: (\\S+): run (\\d+), failures (\\d+), errors (\\d+)");

    private TckFork() {
    }

    private static Path path(String property, String fallback) {
        return Paths.get(System.getProperty(property, fallback)).toAbsolutePath().normalize();
    }

    /** One class's counts, from its summary line. */
    record Counts(int run, int failures, int errors) {
    }

    /** What a run printed (stdout and stderr merged, in order). */
    record Run(List<String> command, int exitCode, List<String> lines) {

        /** The per-class summary lines, by class name. */
        Map<String, Counts> counts() {
            Map<String, Counts> counts = new LinkedHashMap<>();
            for (String line : lines) {
                Matcher m = CLASS_LINE.matcher(line);
                if (m.find()) {
                    counts.put(m.group(1), new Counts(Integer.parseInt(m.group(2)),
                            Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4))));
                }
            }
            return counts;
        }

        boolean printed(String prefix) {
            return lines.stream().anyMatch(line -> line.startsWith(prefix));
        }

        String describe() {
            return "command: " + String.join(" ", command) + "\nexit: " + exitCode + "\noutput:\n  "
                    + String.join("\n  ", lines);
        }
    }

    /**
     * Runs the given classes from {@code testJar}; with {@code agent} false, without the agent. With
     * {@code echo}, every line is printed as it arrives (a TCK run takes minutes).
     */
    static Run run(Path testJar, List<String> classes, boolean agent, List<String> jvmArgs, boolean echo,
                   long timeoutSeconds) throws IOException, InterruptedException {
        for (Path needed : agent ? List.of(AGENT_JAR, JUNIT_JAR, testJar) : List.of(JUNIT_JAR, testJar)) {
            if (!Files.exists(needed)) {
                throw new IllegalStateException("not found: " + needed + " (the agent jar is built by the agent"
                        + " module's package phase: run ./mvnw -pl tck -am verify)");
            }
        }
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        if (agent) {
            command.add("-javaagent:" + AGENT_JAR);
        }
        command.addAll(jvmArgs);
        command.add("-cp");
        command.add(String.join(java.io.File.pathSeparator, testJar.toString(), JUNIT_JAR.toString(),
                RUNNER_CLASSES.toString()));
        command.add(TckRunner.class.getName());
        command.addAll(classes);
        if (echo) {
            System.out.println(String.join(" ", command));
        }
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        // Hermetic: nothing from the build's environment may configure the agent or the JVM.
        builder.environment().keySet().removeIf(name -> name.startsWith("TIMEWHEEL_AGENT_")
                || name.equals("JAVA_TOOL_OPTIONS") || name.equals("JDK_JAVA_OPTIONS") || name.equals("_JAVA_OPTIONS"));
        Process process = builder.start();
        List<String> lines = Collections.synchronizedList(new ArrayList<>());
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(
                    new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    lines.add(line);
                    if (echo) {
                        System.out.println(line);
                    }
                }
            } catch (IOException ignored) {
                // the process is gone; what was read stays
            }
        }, "tck-fork-output");
        reader.start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            reader.join(5_000);
            throw new IllegalStateException("timed out after " + timeoutSeconds + " s\n"
                    + new Run(command, -1, List.copyOf(lines)).describe());
        }
        reader.join(10_000);
        return new Run(List.copyOf(command), process.exitValue(), List.copyOf(lines));
    }
}
