package io.timewheel.agent;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs a sample application ({@code sampleapp.*} from the test classes) in a fresh JVM of a given JDK
 * with the packaged agent jar, and captures what it prints. For the integration tests only.
 */
final class ForkedJvm {

    /** Set by failsafe (agent/pom.xml). */
    static final Path AGENT_JAR = Paths.get(System.getProperty("agent.it.jar", "target/timewheel-agent.jar"));
    static final Path SAMPLES = Paths.get(System.getProperty("agent.it.samples", "target/test-classes"));
    private static final long TIMEOUT_SECONDS = 90;
    private static final Pattern JAVA_VERSION = Pattern.compile("^JAVA_VERSION=\"(\\d+)", Pattern.MULTILINE);

    private ForkedJvm() {
    }

    /** A JDK installation. */
    record Jdk(Path home, int feature) {
        Path java() {
            return home.resolve("bin").resolve("java");
        }

        @Override
        public String toString() {
            return "JDK " + feature;
        }
    }

    /** What a run printed. */
    record Run(List<String> command, int exitCode, List<String> out, List<String> err) {

        /** The sample's {@code key=value} lines. */
        Map<String, String> values() {
            Map<String, String> values = new LinkedHashMap<>();
            for (String line : out) {
                int eq = line.indexOf('=');
                if (eq > 0) {
                    values.put(line.substring(0, eq), line.substring(eq + 1));
                }
            }
            return values;
        }

        /** For assertion messages: everything about the run. */
        String describe() {
            return "command: " + String.join(" ", command) + "\nexit: " + exitCode + "\nstdout:\n  "
                    + String.join("\n  ", out) + "\nstderr:\n  " + String.join("\n  ", err);
        }
    }

    /** The JDK running the tests (the one running Maven), then a JDK 25 if one is installed and different. */
    static List<Jdk> jdks() {
        List<Jdk> jdks = new ArrayList<>();
        Jdk current = new Jdk(Paths.get(System.getProperty("java.home")), Runtime.version().feature());
        jdks.add(current);
        jdk25().filter(jdk -> jdk.feature() != current.feature()).ifPresent(jdks::add);
        return jdks;
    }

    /** A JDK 25: {@code JAVA25_HOME}, else the first under /usr/lib/jvm whose release file says 25. */
    static Optional<Jdk> jdk25() {
        List<Path> candidates = new ArrayList<>();
        String explicit = System.getenv("JAVA25_HOME");
        if (explicit != null && !explicit.isBlank()) {
            candidates.add(Paths.get(explicit));
        }
        Path jvms = Paths.get("/usr/lib/jvm");
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> listing = Files.list(jvms)) {
                listing.sorted().forEach(candidates::add);
            } catch (IOException ignored) {
                // no candidates from there
            }
        }
        return candidates.stream().map(ForkedJvm::jdkAt).flatMap(Optional::stream)
                .filter(jdk -> jdk.feature() == 25).findFirst();
    }

    private static Optional<Jdk> jdkAt(Path home) {
        try {
            if (!Files.isExecutable(home.resolve("bin/java"))) {
                return Optional.empty();
            }
            Matcher m = JAVA_VERSION.matcher(Files.readString(home.resolve("release")));
            return m.find() ? Optional.of(new Jdk(home.toRealPath(), Integer.parseInt(m.group(1)))) : Optional.empty();
        } catch (IOException | RuntimeException notAJdk) {
            return Optional.empty();
        }
    }

    /** {@code -javaagent:<jar>[=options]}. */
    static String agent(String options) {
        return agent(AGENT_JAR, options);
    }

    static String agent(Path jar, String options) {
        return "-javaagent:" + jar.toAbsolutePath() + (options.isEmpty() ? "" : "=" + options);
    }

    /**
     * A copy of the packaged agent jar (manifest included) without the entries whose names start with
     * {@code prefix}: an agent that cannot start the way it should, for the start-up failure path.
     */
    static Path agentJarWithout(String prefix) throws IOException {
        Path jar = Files.createTempFile("agent-without", ".jar");
        jar.toFile().deleteOnExit();
        try (java.util.zip.ZipFile in = new java.util.zip.ZipFile(AGENT_JAR.toFile());
             java.util.zip.ZipOutputStream out = new java.util.zip.ZipOutputStream(Files.newOutputStream(jar))) {
            for (java.util.zip.ZipEntry entry : java.util.Collections.list(in.entries())) {
                if (!entry.getName().startsWith(prefix)) {
                    out.putNextEntry(new java.util.zip.ZipEntry(entry.getName()));
                    out.write(in.getInputStream(entry).readAllBytes());
                    out.closeEntry();
                }
            }
        }
        return jar;
    }

    /** Verify the bootstrap classes too (the rewritten JDK classes and the injected executor). */
    static List<String> verifyAll() {
        return List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+BytecodeVerificationLocal");
    }

    /** Lets the samples look inside the JDK's executor wrappers. */
    static List<String> openConcurrent() {
        return List.of("--add-opens", "java.base/java.util.concurrent=ALL-UNNAMED");
    }

    static Run run(Jdk jdk, List<String> jvmOptions, Map<String, String> environment, String mainClass,
                   String... arguments) throws IOException, InterruptedException {
        return run(jdk, jvmOptions, environment, List.of(SAMPLES), mainClass, arguments);
    }

    /** As {@link #run(Jdk, List, Map, String, String...)} with the given class path (the agent jar comes after it). */
    static Run run(Jdk jdk, List<String> jvmOptions, Map<String, String> environment, List<Path> classPath,
                   String mainClass, String... arguments) throws IOException, InterruptedException {
        if (!Files.isRegularFile(AGENT_JAR)) {
            throw new IllegalStateException("no agent jar at " + AGENT_JAR.toAbsolutePath() + ": run after package");
        }
        List<String> command = new ArrayList<>();
        command.add(jdk.java().toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath.stream().map(path -> path.toAbsolutePath().toString())
                .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator)));
        command.add(mainClass);
        command.addAll(Arrays.asList(arguments));
        ProcessBuilder builder = new ProcessBuilder(command);
        // Hermetic: nothing from the test's own environment may configure the agent or the JVM.
        builder.environment().keySet().removeIf(name -> name.startsWith(AgentOptions.ENV_PREFIX)
                || name.equals("JAVA_TOOL_OPTIONS") || name.equals("JDK_JAVA_OPTIONS") || name.equals("_JAVA_OPTIONS"));
        builder.environment().putAll(environment);
        Path out = Files.createTempFile("agent-it", ".out");
        Path err = Files.createTempFile("agent-it", ".err");
        try {
            builder.redirectOutput(out.toFile()).redirectError(err.toFile());
            Process process = builder.start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
                throw new IllegalStateException("timed out after " + TIMEOUT_SECONDS + " s: " + String.join(" ", command)
                        + "\nstdout: " + Files.readString(out) + "\nstderr: " + Files.readString(err));
            }
            return new Run(List.copyOf(command), process.exitValue(), lines(out), lines(err));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    /**
     * A jar with another copy of the executor classes (those this build compiled), its manifest
     * saying {@code version}: what an application bundling the executor jar itself has.
     */
    static Path executorCopy(String version) throws IOException {
        Path source;
        try {
            source = Paths.get(io.timewheel.executor.WheelScheduledExecutorService.class.getProtectionDomain()
                    .getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IOException(e);
        }
        Path jar = Files.createTempFile("executor-copy", ".jar");
        jar.toFile().deleteOnExit();
        java.util.jar.Manifest manifest = new java.util.jar.Manifest();
        manifest.getMainAttributes().put(java.util.jar.Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(java.util.jar.Attributes.Name.IMPLEMENTATION_VERSION, version);
        try (java.util.jar.JarOutputStream out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar), manifest)) {
            if (Files.isDirectory(source)) {
                List<Path> files;
                try (Stream<Path> walk = Files.walk(source)) {
                    files = walk.filter(path -> path.toString().endsWith(".class")).sorted().toList();
                }
                for (Path file : files) {
                    String name = source.relativize(file).toString().replace(java.io.File.separatorChar, '/');
                    if (!name.equals("module-info.class")) {
                        out.putNextEntry(new java.util.jar.JarEntry(name));
                        out.write(Files.readAllBytes(file));
                        out.closeEntry();
                    }
                }
            } else {
                try (java.util.jar.JarFile in = new java.util.jar.JarFile(source.toFile())) {
                    for (java.util.jar.JarEntry entry : java.util.Collections.list(in.entries())) {
                        String name = entry.getName();
                        if (name.endsWith(".class") && !name.equals("module-info.class")) {
                            out.putNextEntry(new java.util.jar.JarEntry(name));
                            out.write(in.getInputStream(entry).readAllBytes());
                            out.closeEntry();
                        }
                    }
                }
            }
        }
        return jar;
    }

    private static List<String> lines(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(line -> !line.isEmpty()).toList();
    }
}
