package io.timewheel.bench.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/** What the figures were measured on: CPU, memory, OS, JDK, load, the command. */
public final class Machine {

    private Machine() {
    }

    public static String cpuModel() {
        return firstValue(Path.of("/proc/cpuinfo"), "model name", System.getProperty("os.arch"));
    }

    public static String memory() {
        String kb = firstValue(Path.of("/proc/meminfo"), "MemTotal", null);
        if (kb == null) {
            return "unknown";
        }
        long k = Long.parseLong(kb.replaceAll("[^0-9]", ""));
        return String.format("%.1f GiB", k / 1024.0 / 1024.0);
    }

    public static String loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    public static String jdk() {
        return System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version")
                + " (" + System.getProperty("java.vm.vendor") + ")";
    }

    public static int javaFeature() {
        return Runtime.version().feature();
    }

    /** The command line that started this JVM, as a user would type it. */
    public static String command(String[] mainArgs) {
        List<String> parts = new ArrayList<>();
        parts.add("java");
        parts.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        String classPath = System.getProperty("java.class.path");
        if (classPath.endsWith(".jar") && !classPath.contains(java.io.File.pathSeparator)) {
            parts.add("-jar");
            parts.add(relative(classPath));
        } else {
            parts.add("-cp");
            parts.add("...");
            parts.add("io.timewheel.bench.Main");
        }
        for (String a : mainArgs) {
            parts.add(a);
        }
        return String.join(" ", parts);
    }

    private static String relative(String path) {
        Path p = Path.of(path).toAbsolutePath().normalize();
        Path cwd = Path.of("").toAbsolutePath();
        return p.startsWith(cwd) ? cwd.relativize(p).toString() : path;
    }

    /** The commit of the working tree, if git is there. */
    public static String gitCommit() {
        try {
            Process p = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            // a full run rewrites its results folder as it goes: that is its output, not a change to what it measures
            Process d = new ProcessBuilder("git", "status", "--porcelain", "--untracked-files=no", "--", ".",
                    ":(top,exclude)bench/results").redirectErrorStream(true).start();
            String dirty = new String(d.getInputStream().readAllBytes()).trim();
            return p.waitFor() == 0 ? out + (dirty.isEmpty() ? "" : " (with uncommitted changes)") : builtFrom();
        } catch (IOException | RuntimeException e) {
            return builtFrom();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return builtFrom();
        }
    }

    /**
     * Outside a git working tree (a copy of the jar run elsewhere): the commit the jar was built from, as the
     * build recorded it (bench/pom.xml, git-commit-id-maven-plugin), or "unknown".
     */
    static String builtFrom() {
        try (java.io.InputStream in = Machine.class.getResourceAsStream("build-commit.properties")) {
            if (in != null) {
                java.util.Properties props = new java.util.Properties();
                props.load(in);
                String commit = props.getProperty("git.commit.id.abbrev", "").trim();
                if (!commit.isEmpty()) {
                    boolean dirty = Boolean.parseBoolean(props.getProperty("git.dirty", "false").trim());
                    return commit + (dirty ? " (built with uncommitted changes)" : "") + ", the jar's build";
                }
            }
        } catch (IOException | RuntimeException e) {
            // no record: unknown
        }
        return "unknown";
    }

    /** A Markdown list describing the machine. */
    public static String markdown(String[] mainArgs, String loadBefore, String loadAfter) {
        StringBuilder sb = new StringBuilder();
        sb.append("- Date: ").append(Instant.now().truncatedTo(ChronoUnit.SECONDS)).append('\n');
        sb.append("- CPU: ").append(cpuModel()).append(", ").append(Runtime.getRuntime().availableProcessors())
                .append(" processors available (nproc)\n");
        sb.append("- Memory: ").append(memory()).append('\n');
        sb.append("- OS: ").append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.version"))
                .append(' ').append(System.getProperty("os.arch")).append('\n');
        sb.append("- JDK: ").append(jdk()).append('\n');
        sb.append("- Load average (1/5/15 min) at start: ").append(loadBefore).append("; at end: ").append(loadAfter).append('\n');
        sb.append("- timewheel commit: ").append(gitCommit()).append('\n');
        sb.append("- Command: `").append(command(mainArgs)).append("`\n");
        return sb.toString();
    }

    private static String firstValue(Path file, String key, String fallback) {
        try {
            for (String line : Files.readAllLines(file)) {
                if (line.startsWith(key)) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return fallback;
    }
}
