package io.timewheel.bench.harness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a main class of this jar in a fresh JVM (same java, same class path) and collects its output. */
public final class ChildJvm {

    private ChildJvm() {
    }

    public static String javaExecutable() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The command for {@code mainClass} in a fresh JVM with the given JVM options. */
    public static List<String> command(List<String> jvmOptions, Class<?> mainClass, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaExecutable());
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass.getName());
        cmd.addAll(Arrays.asList(args));
        return cmd;
    }

    /** Starts the command, its stderr merged into stdout. */
    public static Process start(List<String> command) throws IOException {
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /** Waits for a started child; returns its output lines; fails if it fails or times out. */
    public static List<String> finish(Process p, List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
            }
        }
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("child JVM timed out: " + String.join(" ", command));
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException("child JVM exited with " + p.exitValue() + ": " + String.join(" ", command)
                    + "\n" + String.join("\n", lines));
        }
        return lines;
    }

    public static List<String> run(List<String> command, long timeoutSeconds) throws IOException, InterruptedException {
        return finish(start(command), command, timeoutSeconds);
    }
}
