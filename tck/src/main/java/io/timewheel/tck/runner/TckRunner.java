package io.timewheel.tck.runner;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
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
 *
 * <pre>
 * java -javaagent:timewheel-agent.jar -cp jsr166tck.jar:junit.jar:&lt;this module's classes&gt; \
 *      io.timewheel.tck.runner.TckRunner ScheduledExecutorTest ScheduledExecutorSubclassTest ExecutorsTest
 * </pre>
 *
 * <p>Implementation notes. Before any test, {@link SwapProbe} builds an STPE the three ways the TCK does
 * ({@code new}, a direct subclass, {@code Executors.newScheduledThreadPool}); the wheel is "in use" only if
 * all three came out as (or on top of) {@value #WHEEL}. Each class then runs through its static
 * {@code suite()} when it declares one (the JSR-166 convention), else {@code new TestSuite(clazz)}, into its
 * own {@link TestResult}. The STPE subclasses a test class declares (as {@code ScheduledExecutorSubclassTest}
 * declares {@code CustomExecutor}) are checked to be rebased onto the wheel executor too. The wheel executor
 * is named, never referenced: under the agent it is defined in the bootstrap class loader, not on this
 * class path.
 *
 * <p>Output lines start with {@value #PREFIX}; the class lines read
 * {@code tck-runner: <class>: run N, failures N, errors N (T s)}. Exit status: 0 every test passed and the
 * wheel was in use; 1 a test failed or a class could not be run; 2 the wheel executor was not in use
 * (whatever the tests did); 3 bad arguments.
 */
public final class TckRunner {

    static final String PREFIX = "tck-runner: ";
    static final String WHEEL = "io.timewheel.executor.WheelScheduledExecutorService";
    private static final int TRACE_LINES = 12;

    private TckRunner() {
    }

    public static void main(String[] args) {
        if (args.length == 0) {
            System.out.println(PREFIX + "usage: TckRunner <JUnit 3 test class>...");
            System.exit(3);
        }
        boolean wheel = checkWheel();
        int run = 0;
        int failures = 0;
        int errors = 0;
        int passed = 0;
        boolean subclassesRebased = true;
        for (String name : args) {
            ClassOutcome outcome = runClass(name.trim());
            run += outcome.run;
            failures += outcome.failures;
            errors += outcome.errors;
            passed += Math.max(0, outcome.run - outcome.failures - outcome.errors);
            subclassesRebased &= outcome.subclassesRebased;
            System.out.println(PREFIX + outcome);
        }
        wheel &= subclassesRebased;
        System.out.println(PREFIX + "total: " + args.length + " classes, run " + run + ", failures " + failures
                + ", errors " + errors + ", passed " + passed);
        int status = !wheel ? 2 : failures + errors > 0 ? 1 : 0;
        System.out.println(PREFIX + "result: " + (status == 0 ? "PASS" : "FAIL")
                + (wheel ? "" : " (the wheel executor was not in use)"));
        System.out.flush();
        // The tests may leave non-daemon threads behind (leaked pools are theirs to report, not ours to wait for).
        System.exit(status);
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
        ClassOutcome outcome = new ClassOutcome(name);
        long start = System.nanoTime();
        Test test;
        try {
            Class<?> clazz = Class.forName(name, true, TckRunner.class.getClassLoader());
            checkSubclasses(clazz, outcome);
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
