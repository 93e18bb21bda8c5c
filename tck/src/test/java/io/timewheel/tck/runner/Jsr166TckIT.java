package io.timewheel.tck.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import io.timewheel.tck.runner.TckFork.Counts;
import io.timewheel.tck.runner.TckFork.Run;

/**
 * The JSR-166 TCK under the agent ({@link #jsr166Tck}, only with {@code -Djsr166.tck.jar=...}), and the
 * runner's mechanics on a small JUnit 3 jar this test compiles itself (always): counts per class, the
 * {@code suite()} convention, failures against errors, a missing class, the "wheel in use" check and the
 * exit status, through a real forked JVM with the real agent jar.
 */
class Jsr166TckIT {

    static final List<String> DEFAULT_TCK_CLASSES =
            List.of("ScheduledExecutorTest", "ScheduledExecutorSubclassTest", "ExecutorsTest");
    private static final long FIXTURE_TIMEOUT_SECONDS = 60;

    @TempDir
    static Path work;
    static Path fixtureJar;

    @BeforeAll
    static void buildFixtureJar() throws IOException {
        fixtureJar = compileAndJar(work, Map.of("SwapTest", SWAP_TEST, "MixedTest", MIXED_TEST));
    }

    @Test
    @Timeout(600_000)
    void jsr166Tck() throws Exception {
        String jar = System.getProperty("jsr166.tck.jar", "").trim();
        if (jar.isEmpty()) {
            System.out.println("jsr166.tck.jar not set: skipping the JSR-166 TCK run");
        }
        assumeTrue(!jar.isEmpty(), "jsr166.tck.jar not set: skipping the JSR-166 TCK run");
        Path tck = Paths.get(jar).toAbsolutePath();
        String named = System.getProperty("jsr166.tck.classes", "").trim();
        List<String> classes = named.isEmpty() ? DEFAULT_TCK_CLASSES
                : Arrays.stream(named.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
        List<String> jvmArgs = new ArrayList<>();
        String extra = System.getProperty("jsr166.tck.jvmArgs", "").trim();
        if (!extra.isEmpty()) {
            jvmArgs.addAll(Arrays.asList(extra.split("\\s+")));
        }
        // The TCK's own knobs (jsr166.delay.factor, jsr166.testImplementationDetails, ...) pass through.
        System.getProperties().stringPropertyNames().stream().sorted()
                .filter(key -> key.startsWith("jsr166.") && !key.startsWith("jsr166.tck.")
                        && !key.equals("jsr166.agent.jar") && !key.equals("jsr166.junit.jar")
                        && !key.equals("jsr166.runner.classes"))
                .forEach(key -> jvmArgs.add("-D" + key + "=" + System.getProperty(key)));

        if (classes.equals(List.of("ALL"))) {
            wholeSuite(tck, jvmArgs);
            return;
        }
        System.out.println("JSR-166 TCK: " + tck + ", classes " + classes);
        Run run = TckFork.run(tck, classes, true, jvmArgs, true, 3_600);

        assertTrue(run.printed("tck-runner: wheel in use: yes"), "the wheel executor was not in use\n" + run.describe());
        Map<String, Counts> counts = run.counts();
        assertEquals(classes, List.copyOf(counts.keySet()), run.describe());
        counts.forEach((name, c) -> assertTrue(c.run() > 0 && c.failures() == 0 && c.errors() == 0,
                name + ": " + c + " (failures above)"));
        assertEquals(0, run.exitCode(), run.describe());
    }

    /**
     * {@code -Djsr166.tck.classes=ALL}: every test class of the jar, once without the agent and once under
     * it; fails if a test breaks only under the agent or a class runs fewer tests there. Tests that break
     * in both runs (the TCK is timing-sensitive, and some classes test JDK details) are reported, not failed.
     */
    private static void wholeSuite(Path tck, List<String> jvmArgs) throws Exception {
        System.out.println("JSR-166 TCK, whole suite: " + tck + ", plain then under the agent");
        Run plain = TckFork.run(tck, List.of("--plain", "--all=" + tck), false, jvmArgs, true, 3_600);
        Run agent = TckFork.run(tck, List.of("--all=" + tck), true, jvmArgs, true, 3_600);
        List<String> comparison = TckRunner.compare(plain.lines(), agent.lines());
        comparison.forEach(System.out::println);
        assertTrue(agent.printed("tck-runner: wheel in use: yes"), "the wheel executor was not in use\n" + agent.describe());
        assertTrue(comparison.get(comparison.size() - 1).endsWith("no worse than plain"), String.join("\n", comparison));
    }

    @Test
    void runner_allRunsEveryClassWithASuite_plainOrUnderTheAgent_andComparesThem() throws Exception {
        Run agent = TckFork.run(fixtureJar, List.of("--all=" + fixtureJar), true, List.of(), false,
                FIXTURE_TIMEOUT_SECONDS);
        // MixedTest declares no suite(): the whole-suite run leaves it out, as the TCK's helpers.
        assertEquals(Map.of("SwapTest", new Counts(2, 0, 0)), agent.counts(), agent.describe());
        assertEquals(0, agent.exitCode(), agent.describe());

        Run plain = TckFork.run(fixtureJar, List.of("--plain", "--all=" + fixtureJar), false, List.of(), false,
                FIXTURE_TIMEOUT_SECONDS);
        assertTrue(plain.printed("tck-runner: wheel in use: no"), plain.describe());
        assertEquals(Map.of("SwapTest", new Counts(2, 2, 0)), plain.counts(), plain.describe());
        assertTrue(plain.printed("tck-runner: result: FAIL (plain run)"), plain.describe());
        assertEquals(1, plain.exitCode(), "a plain run fails on its tests, not on the wheel check\n" + plain.describe());

        // SwapTest's tests need the wheel: plain breaks them, the agent does not.
        assertEquals(List.of("tck-runner: differs SwapTest: plain run 2, failures 2, errors 0; agent run 2, failures 0,"
                        + " errors 0; broken only plain [testConstructionIsTheWheel, testSubclassRunsOnTheWheel]",
                "tck-runner: compared 1 classes: plain run 2, failures 2, errors 0, passed 0; agent run 2, failures 0,"
                        + " errors 0, passed 2; 1 classes differ, 0 tests broken only under the agent: no worse than plain"),
                TckRunner.compare(plain.lines(), agent.lines()));
        List<String> reversed = TckRunner.compare(agent.lines(), plain.lines());
        assertTrue(reversed.get(reversed.size() - 1).endsWith("2 tests broken only under the agent: WORSE than plain"),
                String.join("\n", reversed));
    }

    @Test
    void runner_countsEachClass_andSeesTheWheel() throws Exception {
        Run run = TckFork.run(fixtureJar, List.of("SwapTest", "MixedTest", "NoSuchTest"), true, List.of(), false,
                FIXTURE_TIMEOUT_SECONDS);

        assertTrue(run.printed("tck-runner: wheel in use: yes"), run.describe());
        assertEquals(Map.of(
                // suite() picks 2 of its 3 tests (the third would fail)
                "SwapTest", new Counts(2, 0, 0),
                // no suite(): every test* method; assertEquals fails, a thrown exception is an error
                "MixedTest", new Counts(3, 1, 1),
                "NoSuchTest", new Counts(0, 0, 1)), run.counts(), run.describe());
        assertTrue(run.printed("tck-runner: SwapTest: run 2, failures 0, errors 0")
                && run.lines().stream().anyMatch(l -> l.startsWith("tck-runner: SwapTest:")
                && l.contains("STPE subclasses rebased 1/1")), run.describe());
        assertTrue(run.printed("tck-runner: FAIL testFails(MixedTest): junit.framework.AssertionFailedError"),
                run.describe());
        assertTrue(run.printed("tck-runner: ERROR testThrows(MixedTest): java.lang.IllegalStateException: deliberate"),
                run.describe());
        assertTrue(run.printed("tck-runner: total: 3 classes, run 5, failures 1, errors 2, passed 3"), run.describe());
        assertTrue(run.printed("tck-runner: result: FAIL"), run.describe());
        assertEquals(1, run.exitCode(), run.describe());
    }

    @Test
    void runner_passes_whenEveryTestPassesOnTheWheel() throws Exception {
        Run run = TckFork.run(fixtureJar, List.of("SwapTest"), true, List.of(), false, FIXTURE_TIMEOUT_SECONDS);

        assertEquals(Map.of("SwapTest", new Counts(2, 0, 0)), run.counts(), run.describe());
        assertTrue(run.printed("tck-runner: result: PASS"), run.describe());
        assertEquals(0, run.exitCode(), run.describe());
    }

    @Test
    void runner_withoutTheAgent_reportsTheWheelNotInUse() throws Exception {
        Run run = TckFork.run(fixtureJar, List.of("SwapTest"), false, List.of(), false, FIXTURE_TIMEOUT_SECONDS);

        assertTrue(run.printed("tck-runner: wheel in use: no (new STPE -> java.util.concurrent.ScheduledThreadPoolExecutor"),
                run.describe());
        assertTrue(run.printed("tck-runner: not rebased onto the wheel executor: SwapTest$Custom"), run.describe());
        assertEquals(Map.of("SwapTest", new Counts(2, 2, 0)), run.counts(), run.describe());
        assertTrue(run.printed("tck-runner: result: FAIL (the wheel executor was not in use)"), run.describe());
        assertEquals(2, run.exitCode(), run.describe());
    }

    /** Compiles default-package sources against the JUnit jar into {@code dir/classes} and jars them. */
    static Path compileAndJar(Path dir, Map<String, String> sources) throws IOException {
        Path src = Files.createDirectories(dir.resolve("src"));
        Path classes = Files.createDirectories(dir.resolve("classes"));
        List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-cp", TckFork.JUNIT_JAR.toString(),
                "--release", "17", "-nowarn"));
        for (Map.Entry<String, String> source : sources.entrySet()) {
            Path file = src.resolve(source.getKey() + ".java");
            Files.writeString(file, source.getValue());
            args.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int status = javac.run(null, null, null, args.toArray(String[]::new));
        assertEquals(0, status, "javac " + args);
        Path jar = dir.resolve("fixture-tests.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
             Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
                Files.copy(file, out);
                out.closeEntry();
            }
        }
        return jar;
    }

    /** Both its suite() tests hold only when the agent swapped the construction and rebased the subclass. */
    private static final String SWAP_TEST = """
            import java.util.concurrent.RunnableScheduledFuture;
            import java.util.concurrent.ScheduledThreadPoolExecutor;
            import java.util.concurrent.TimeUnit;
            import java.util.concurrent.atomic.AtomicInteger;
            import junit.framework.Test;
            import junit.framework.TestCase;
            import junit.framework.TestSuite;

            public class SwapTest extends TestCase {
                static final String WHEEL = "io.timewheel.executor.WheelScheduledExecutorService";

                public SwapTest(String name) { super(name); }

                public static Test suite() {
                    TestSuite suite = new TestSuite();
                    suite.addTest(new SwapTest("testConstructionIsTheWheel"));
                    suite.addTest(new SwapTest("testSubclassRunsOnTheWheel"));
                    return suite;
                }

                public void testConstructionIsTheWheel() throws Exception {
                    ScheduledThreadPoolExecutor executor = new ScheduledThreadPoolExecutor(1);
                    try {
                        assertEquals("done", executor.schedule(() -> "done", 1, TimeUnit.MILLISECONDS)
                                .get(30, TimeUnit.SECONDS));
                        assertEquals(WHEEL, executor.getClass().getName());
                    } finally {
                        executor.shutdownNow();
                    }
                }

                public void testSubclassRunsOnTheWheel() throws Exception {
                    Custom executor = new Custom();
                    try {
                        executor.schedule(() -> { }, 1, TimeUnit.MILLISECONDS).get(30, TimeUnit.SECONDS);
                        assertEquals(1, executor.decorated.get());
                        assertEquals(WHEEL, Custom.class.getSuperclass().getName());
                    } finally {
                        executor.shutdownNow();
                    }
                }

                public void testLeftOutOfTheSuite() {
                    fail("suite() leaves this test out");
                }

                static class Custom extends ScheduledThreadPoolExecutor {
                    final AtomicInteger decorated = new AtomicInteger();

                    Custom() { super(1); }

                    @Override
                    protected <V> RunnableScheduledFuture<V> decorateTask(Runnable r, RunnableScheduledFuture<V> task) {
                        decorated.incrementAndGet();
                        return task;
                    }
                }
            }
            """;

    /** No suite(): one pass, one failure, one error. */
    private static final String MIXED_TEST = """
            import junit.framework.TestCase;

            public class MixedTest extends TestCase {
                public void testPasses() {
                    assertEquals(2, 1 + 1);
                }

                public void testFails() {
                    assertEquals("deliberate", 1, 2);
                }

                public void testThrows() {
                    throw new IllegalStateException("deliberate");
                }
            }
            """;
}
