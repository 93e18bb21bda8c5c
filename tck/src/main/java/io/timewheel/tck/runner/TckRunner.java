package io.timewheel.tck.runner;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import junit.framework.AssertionFailedError;
import junit.framework.Test;
import junit.framework.TestListener;
import junit.framework.TestResult;
import junit.framework.TestSuite;
import tckprobe.SwapProbe;

/**
 * Runs JUnit 3 test classes (the JSR-166 TCK's {@code ScheduledExecutorTest}, {@code ExecutorsTest}, ...) in
 * this JVM, which is meant to run under the timewheel agent, and prints one summary line per class and a
 * total. Single-threaded driver; the tests start their own threads.
 */
public final class TckRunner {
    /*
     * java -javaagent:timewheel-agent.jar -cp jsr166tck.jar:junit.jar:<this module's classes> \
     *      io.timewheel.tck.runner.TckRunner ScheduledExecutorTest ScheduledExecutorSubclassTest ExecutorsTest
     *
     * Implementation notes
     *
     * Before any test, SwapProbe builds an STPE the three ways the TCK does
     * (new, a direct subclass, Executors.newScheduledThreadPool); the wheel is "in use" only if
     * all three came out as (or on top of) {@value #WHEEL}. Each class then runs through its static
     * suite() when it declares one (the JSR-166 convention), else new TestSuite(clazz), into its
     * own TestResult. The STPE subclasses a test class declares (as ScheduledExecutorSubclassTest
     * declares CustomExecutor) are checked to be rebased onto the wheel executor too. The wheel executor
     * is named, never referenced: it is not on this module's class path (under the agent the system class
     * loader loads it from the agent jar).
     *
     * Whole suite: --all=<tck jar> runs every test class of the jar (suiteClasses), each
     * with its own summary line; --plain marks a run without the agent (the wheel check is printed but
     * does not decide the exit status, and subclasses are not checked); --compare <plain> <agent>
     * reads two such outputs back and prints the classes whose counts or broken tests differ
     * (compare).
     *
     * Output lines start with {@value #PREFIX}; the class lines read
     * tck-runner: <class>: run N, failures N, errors N (T s). Exit status: 0 every test passed and the
     * wheel was in use; 1 a test failed or a class could not be run; 2 the wheel executor was not in use
     * (whatever the tests did); 3 bad arguments.
     */

    static final String PREFIX = "tck-runner: ";
    static final String WHEEL = "io.timewheel.executor.WheelScheduledExecutorService";
    private static final int TRACE_LINES = 12;

    private TckRunner() {
    }

    public static void main(String[] args) {
        List<String> classes = new ArrayList<>();
        boolean plain = false;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i].trim();
            if (arg.equals("--compare") && args.length == i + 3) {
                System.exit(compareFiles(Paths.get(args[i + 1]), Paths.get(args[i + 2])));
            } else if (arg.equals("--plain")) {
                plain = true;
            } else if (arg.startsWith("--all=")) {
                try {
                    classes.addAll(suiteClasses(Paths.get(arg.substring("--all=".length()))));
                } catch (IOException e) {
                    System.out.println(PREFIX + "cannot list " + arg + ": " + e);
                    System.exit(3);
                }
            } else if (arg.startsWith("--")) {
                classes.clear();
                break;
            } else if (!arg.isEmpty()) {
                classes.add(arg);
            }
        }
        if (classes.isEmpty()) {
            System.out.println(PREFIX + "usage: TckRunner [--plain] (--all=<tck jar> | <JUnit 3 test class>...)");
            System.out.println(PREFIX + "       TckRunner --compare <plain run output> <agent run output>");
            System.exit(3);
        }
        boolean wheel = checkWheel();
        int run = 0;
        int failures = 0;
        int errors = 0;
        int passed = 0;
        boolean subclassesRebased = true;
        for (String name : classes) {
            ClassOutcome outcome = runClass(name, !plain);
            run += outcome.run;
            failures += outcome.failures;
            errors += outcome.errors;
            passed += Math.max(0, outcome.run - outcome.failures - outcome.errors);
            subclassesRebased &= outcome.subclassesRebased;
            System.out.println(PREFIX + outcome);
        }
        wheel &= subclassesRebased;
        System.out.println(PREFIX + "total: " + classes.size() + " classes, run " + run + ", failures " + failures
                + ", errors " + errors + ", passed " + passed);
        int status = !wheel && !plain ? 2 : failures + errors > 0 ? 1 : 0;
        System.out.println(PREFIX + "result: " + (status == 0 ? "PASS" : "FAIL")
                + (wheel || plain ? "" : " (the wheel executor was not in use)") + (plain ? " (plain run)" : ""));
        System.out.flush();
        // The tests may leave non-daemon threads behind (leaked pools are theirs to report, not ours to wait for).
        System.exit(status);
    }

    /**
     * Every test class of a TCK jar, as the whole-suite run takes them: the top-level classes that
     * extend {@code junit.framework.TestCase} and declare a static {@code suite()} (the JSR-166
     * convention; helpers such as {@code Collection8Test}, which only run inside other classes' suites,
     * have none), except {@code JSR166TestCase}, whose {@code suite()} is all of them at once. Sorted by name.
     */
    static List<String> suiteClasses(Path jar) throws IOException {
        List<String> names = new ArrayList<>();
        try (JarFile file = new JarFile(jar.toFile())) {
            for (JarEntry entry : Collections.list(file.entries())) {
                String name = entry.getName();
                if (name.endsWith(".class") && !name.contains("$") && !name.equals("module-info.class")) {
                    names.add(name.substring(0, name.length() - ".class".length()).replace('/', '.'));
                }
            }
        }
        Collections.sort(names);
        List<String> classes = new ArrayList<>();
        for (String name : names) {
            if (name.equals("JSR166TestCase")) {
                continue;
            }
            try {
                Class<?> clazz = Class.forName(name, false, TckRunner.class.getClassLoader());
                if (!junit.framework.TestCase.class.isAssignableFrom(clazz) || Modifier.isAbstract(clazz.getModifiers())) {
                    continue;
                }
                Method suite = clazz.getDeclaredMethod("suite");
                if (Modifier.isStatic(suite.getModifiers()) && Test.class.isAssignableFrom(suite.getReturnType())) {
                    classes.add(name);
                }
            } catch (NoSuchMethodException | ClassNotFoundException | LinkageError notATestClass) {
                // not one the whole-suite run takes
            }
        }
        return classes;
    }

    /** One run's output, read back: per-class counts and the tests that failed or erred. */
    record Report(Map<String, int[]> counts, Map<String, Set<String>> broken) {

        static Report parse(List<String> lines) {
            Map<String, int[]> counts = new LinkedHashMap<>();
            Map<String, Set<String>> broken = new TreeMap<>();
            for (String line : lines) {
                Matcher c = CLASS_LINE.matcher(line);
                if (c.find()) {
                    counts.put(c.group(1), new int[]{Integer.parseInt(c.group(2)), Integer.parseInt(c.group(3)),
                            Integer.parseInt(c.group(4))});
                    continue;
                }
                Matcher t = TEST_LINE.matcher(line);
                if (t.find()) {
                    broken.computeIfAbsent(t.group(3), k -> new TreeSet<>()).add(t.group(2));
                }
            }
            return new Report(counts, broken);
        }
    }

    private static final Pattern CLASS_LINE =
            Pattern.compile("^" + PREFIX + "(\\S+): run (\\d+), failures (\\d+), errors (\\d+)");
    private static final Pattern TEST_LINE = Pattern.compile("^" + PREFIX + "(FAIL|ERROR) (\\w+)\\(([^)]+)\\)");

    private static int compareFiles(Path plain, Path agent) {
        try {
            List<String> lines = compare(Files.readAllLines(plain), Files.readAllLines(agent));
            lines.forEach(System.out::println);
            return lines.get(lines.size() - 1).endsWith("no worse than plain") ? 0 : 1;
        } catch (IOException e) {
            System.out.println(PREFIX + "cannot read: " + e);
            return 3;
        }
    }

    /**
     * Per-class differences between a plain run and a run under the agent of the same classes: one line
     * per class whose counts or broken tests differ, then a summary whose last words are "no worse than
     * plain" when no test failed only under the agent and no class ran fewer tests there.
     */
    static List<String> compare(List<String> plainLines, List<String> agentLines) {
        Report plain = Report.parse(plainLines);
        Report agent = Report.parse(agentLines);
        Set<String> classes = new TreeSet<>(plain.counts().keySet());
        classes.addAll(agent.counts().keySet());
        List<String> out = new ArrayList<>();
        int[] plainTotal = new int[3];
        int[] agentTotal = new int[3];
        int differing = 0;
        int onlyAgentTotal = 0;
        boolean fewer = false;
        for (String name : classes) {
            int[] p = plain.counts().getOrDefault(name, new int[3]);
            int[] a = agent.counts().getOrDefault(name, new int[3]);
            for (int i = 0; i < 3; i++) {
                plainTotal[i] += p[i];
                agentTotal[i] += a[i];
            }
            Set<String> brokenPlain = plain.broken().getOrDefault(name, Set.of());
            Set<String> brokenAgent = agent.broken().getOrDefault(name, Set.of());
            Set<String> onlyAgent = new TreeSet<>(brokenAgent);
            onlyAgent.removeAll(brokenPlain);
            Set<String> onlyPlain = new TreeSet<>(brokenPlain);
            onlyPlain.removeAll(brokenAgent);
            onlyAgentTotal += onlyAgent.size();
            fewer |= a[0] < p[0] || !agent.counts().containsKey(name);
            if (!java.util.Arrays.equals(p, a) || !onlyAgent.isEmpty() || !onlyPlain.isEmpty()) {
                differing++;
                out.add(PREFIX + "differs " + name + ": plain " + counts(p) + "; agent " + counts(a)
                        + (onlyAgent.isEmpty() ? "" : "; broken only under the agent " + onlyAgent)
                        + (onlyPlain.isEmpty() ? "" : "; broken only plain " + onlyPlain));
            }
        }
        out.add(PREFIX + "compared " + classes.size() + " classes: plain " + counts(plainTotal) + ", passed "
                + (plainTotal[0] - plainTotal[1] - plainTotal[2]) + "; agent " + counts(agentTotal) + ", passed "
                + (agentTotal[0] - agentTotal[1] - agentTotal[2]) + "; " + differing + " classes differ, "
                + onlyAgentTotal + " tests broken only under the agent: "
                + (onlyAgentTotal == 0 && !fewer ? "no worse than plain" : "WORSE than plain"));
        return out;
    }

    private static String counts(int[] c) {
        return "run " + c[0] + ", failures " + c[1] + ", errors " + c[2];
    }

    /** Prints what the agent made of the three kinds of construction; true if all three are the wheel's. */
    static boolean checkWheel() {
        String construction = describe(SwapProbe::construction);
        String subclass = describe(SwapProbe::subclassParent);
        String factory = describe(SwapProbe::factory);
        boolean inUse = WHEEL.equals(construction) && WHEEL.equals(subclass) && WHEEL.equals(factory);
        System.out.println(PREFIX + "wheel in use: " + (inUse ? "yes" : "no") + " (new STPE -> " + construction
                + ", STPE subclass extends " + subclass + ", Executors.newScheduledThreadPool -> " + factory + ")");
        return inUse;
    }

    private interface ClassSource {
        Class<?> get();
    }

    private static String describe(ClassSource source) {
        try {
            return source.get().getName();
        } catch (RuntimeException | LinkageError e) {
            return "failed: " + e;
        }
    }

    static ClassOutcome runClass(String name) {
        return runClass(name, true);
    }

    /** Runs one class; {@code checkSubclasses} false for a plain run (no agent, nothing to be rebased). */
    static ClassOutcome runClass(String name, boolean checkSubclasses) {
        ClassOutcome outcome = new ClassOutcome(name);
        long start = System.nanoTime();
        Test test;
        try {
            Class<?> clazz = Class.forName(name, true, TckRunner.class.getClassLoader());
            if (checkSubclasses) {
                checkSubclasses(clazz, outcome);
            }
            test = suiteOf(clazz);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            outcome.errors = 1;
            outcome.note = "could not load: " + e; // the trace would show only the class loader
            return outcome;
        }
        TestResult result = new TestResult();
        result.addListener(new TestListener() {
            @Override
            public void addError(Test failed, Throwable t) {
                report("ERROR", name(failed), t);
            }

            @Override
            public void addFailure(Test failed, AssertionFailedError t) {
                report("FAIL", name(failed), t);
            }

            @Override
            public void startTest(Test started) {
            }

            @Override
            public void endTest(Test ended) {
            }
        });
        test.run(result);
        outcome.run = result.runCount();
        outcome.failures = result.failureCount();
        outcome.errors = result.errorCount();
        outcome.nanos = System.nanoTime() - start;
        return outcome;
    }

    /** The class's own {@code public static Test suite()} if it has one, else every {@code test*} method. */
    static Test suiteOf(Class<?> clazz) throws ReflectiveOperationException {
        try {
            Method suite = clazz.getMethod("suite");
            if (Modifier.isStatic(suite.getModifiers()) && Test.class.isAssignableFrom(suite.getReturnType())) {
                return (Test) suite.invoke(null);
            }
        } catch (NoSuchMethodException none) {
            // fall through
        }
        return new TestSuite(clazz);
    }

    /** Every STPE subclass among the class's member classes (any depth) must sit on the wheel executor. */
    private static void checkSubclasses(Class<?> clazz, ClassOutcome outcome) {
        List<Class<?>> pending = new ArrayList<>(List.of(clazz.getDeclaredClasses()));
        while (!pending.isEmpty()) {
            Class<?> member = pending.remove(pending.size() - 1);
            pending.addAll(List.of(member.getDeclaredClasses()));
            if (ScheduledThreadPoolExecutor.class.isAssignableFrom(member)) {
                outcome.stpeSubclasses++;
                if (onWheel(member)) {
                    outcome.rebased++;
                } else {
                    outcome.subclassesRebased = false;
                    System.out.println(PREFIX + "not rebased onto the wheel executor: " + member.getName());
                }
            }
        }
    }

    private static boolean onWheel(Class<?> type) {
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            if (c.getName().equals(WHEEL)) {
                return true;
            }
        }
        return false;
    }

    private static String name(Test test) {
        return String.valueOf(test); // a TestCase prints as "testName(ClassName)"
    }

    private static void report(String kind, String test, Throwable t) {
        StringBuilder line = new StringBuilder(PREFIX).append(kind).append(' ').append(test).append(": ").append(t);
        StackTraceElement[] trace = t.getStackTrace();
        // The test's own frames: past JUnit's assertion methods, up to the reflective call that ran the test.
        int shown = 0;
        for (StackTraceElement frame : trace) {
            boolean framework = isFramework(frame.getClassName());
            if (framework && shown > 0 || shown == TRACE_LINES) {
                break;
            }
            if (!framework) {
                line.append("\n    at ").append(frame);
                shown++;
            }
        }
        Throwable cause = t.getCause();
        for (int depth = 0; cause != null && depth < 5; depth++, cause = cause.getCause()) {
            line.append("\n    caused by ").append(cause);
        }
        System.out.println(line);
    }

    private static boolean isFramework(String className) {
        return className.startsWith("junit.framework.") || className.startsWith("jdk.internal.reflect.")
                || className.startsWith("java.lang.reflect.");
    }

    /** One class's counts. */
    static final class ClassOutcome {
        final String name;
        int run;
        int failures;
        int errors;
        int stpeSubclasses;
        int rebased;
        boolean subclassesRebased = true;
        long nanos;
        String note = "";

        ClassOutcome(String name) {
            this.name = name;
        }

        @Override
        public String toString() {
            return name + ": run " + run + ", failures " + failures + ", errors " + errors
                    + String.format(" (%.1f s)", nanos / 1e9)
                    + (stpeSubclasses == 0 ? "" : ", STPE subclasses rebased " + rebased + "/" + stpeSubclasses)
                    + (note.isEmpty() ? "" : ", " + note);
        }
    }
}
