package io.timewheel.agent;

import io.timewheel.agent.ForkedJvm.Jdk;
import io.timewheel.agent.ForkedJvm.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The packaged agent jar on unmodified sample applications ({@code sampleapp.*}), each in a fresh JVM,
 * on the JDK running the build and on a JDK 25 when one is installed. All but the start-up check run
 * with {@code -XX:+BytecodeVerificationLocal}, so the rewritten JDK classes and the executor classes
 * defined in the bootstrap loader are verified too. The start-up check runs without it, because that
 * flag turns class data sharing off, and the class-sharing warnings are among what it looks for.
 */
class AgentIT {

    private static final String WHEEL = "io.timewheel.executor.WheelScheduledExecutorService";
    private static final String STPE = "java.util.concurrent.ScheduledThreadPoolExecutor";
    private static final String WRAPPED_WHEEL = "java.util.concurrent.Executors$DelegatedScheduledExecutorService>" + WHEEL;
    private static final String START_LINE = AgentLog.PREFIX + "active (";

    private static final List<String> FACTORIES = List.of("factory.newScheduledThreadPool(int)",
            "factory.newScheduledThreadPool(int,ThreadFactory)");
    private static final List<String> SINGLE_FACTORIES = List.of("factory.newSingleThreadScheduledExecutor()",
            "factory.newSingleThreadScheduledExecutor(ThreadFactory)");
    private static final List<String> CONSTRUCTIONS = List.of("new(int)", "new(int,ThreadFactory)",
            "new(int,RejectedExecutionHandler)", "new(int,ThreadFactory,RejectedExecutionHandler)", "new.nested",
            "new.ternary", "new.lambda", "new.methodReference", "new.staticField", "new.tryCatch");
    private static final String ALL_HOOKS = "afterExecute,beforeExecute,decorateTask(Callable),decorateTask(Runnable),terminated";

    static Stream<Jdk> jdks() {
        return ForkedJvm.jdks().stream();
    }

    @SafeVarargs
    private static List<String> options(List<String>... groups) {
        List<String> all = new ArrayList<>();
        for (List<String> group : groups) {
            all.addAll(group);
        }
        return all;
    }

    private static Map<String, String> assertRanToTheEnd(Run run) {
        assertEquals(0, run.exitCode(), run.describe());
        Map<String, String> values = run.values();
        values.forEach((key, value) -> {
            if (key.endsWith(".runs")) {
                assertEquals("ran", value, key + "\n" + run.describe());
            }
        });
        return values;
    }

    private static void assertValue(Run run, String expected, String... keys) {
        Map<String, String> values = run.values();
        for (String key : keys) {
            assertEquals(expected, values.get(key), key + "\n" + run.describe());
        }
    }

    private static String onlyStderrLine(Run run) {
        assertEquals(1, run.err().size(), "exactly one line on stderr\n" + run.describe());
        return run.err().get(0);
    }

    private static void assertContains(String text, String fragment, Run run) {
        assertTrue(text.contains(fragment), "'" + fragment + "' in '" + text + "'\n" + run.describe());
    }

    @Test
    void jdk25_isCoveredWhenInstalled() {
        assumeTrue(ForkedJvm.jdk25().isPresent(),
                "no JDK 25 under /usr/lib/jvm or JAVA25_HOME: the Java 25 runs of these tests are skipped");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void defaults_swapFactoriesConstructionsAndSubclasses(Jdk jdk) throws Exception {
        Run run = ForkedJvm.run(jdk, options(ForkedJvm.verifyAll(), ForkedJvm.openConcurrent(),
                List.of(ForkedJvm.agent(""))), Map.of(), "sampleapp.SwapApp");
        Map<String, String> values = assertRanToTheEnd(run);
        assertValue(run, "true", "done");
        assertValue(run, WHEEL, FACTORIES.toArray(String[]::new));
        assertValue(run, WRAPPED_WHEEL, SINGLE_FACTORIES.toArray(String[]::new));
        assertValue(run, WHEEL, CONSTRUCTIONS.toArray(String[]::new));
        // Casts to STPE and STPE-only methods work on the swapped executor.
        assertValue(run, WHEEL, "cast.class");
        assertValue(run, "true", "cast.instanceofStpe", "cast.terminated");
        assertValue(run, "true,false,true", "cast.policies");
        assertValue(run, "0", "cast.queueAfterCancel");
        // Subclasses are rebased and their hooks are called.
        assertValue(run, WHEEL, "subclass.named.super", "subclass.anonymous.super", "subclass.inner.super");
        assertValue(run, ALL_HOOKS, "subclass.named.hooks");
        assertValue(run, "beforeExecute", "subclass.anonymous.hooks");
        assertValue(run, WHEEL, "legacy");
        // jdkInternal is off by default.
        assertValue(run, jdk.feature() < 25 ? STPE : "none", "jdk.delayer");
        assertValue(run, "null", "tickNanos");
        assertEquals(String.valueOf(jdk.feature()), values.get("java"));
        String line = onlyStderrLine(run);
        assertTrue(line.startsWith(START_LINE), run.describe());
        assertContains(line, "swapping factories, constructors, subclasses", run);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void startUp_printsOneLine_andNoJvmOrByteBuddyWarning(Jdk jdk) throws Exception {
        Run bare = ForkedJvm.run(jdk, List.of("-Xshare:auto"), Map.of(), "sampleapp.HelloApp");
        assertEquals(List.of(), bare.err(), "the JVM alone prints nothing on stderr\n" + bare.describe());

        Run run = ForkedJvm.run(jdk, List.of("-Xshare:auto", ForkedJvm.agent("")), Map.of(), "sampleapp.HelloApp");
        assertEquals(0, run.exitCode(), run.describe());
        // Unified-logging warnings (class sharing included) go to stdout, the others to stderr.
        assertEquals(List.of("hello"), run.out(), run.describe());
        assertTrue(onlyStderrLine(run).startsWith(START_LINE + "0.1.0-SNAPSHOT, Java " + jdk.feature() + ")"),
                run.describe());
    }

    /**
     * spring-framework#33856 under the agent, on Executors.newSingleThreadScheduledExecutor() and without
     * --add-opens: the starvationWarning option makes the executor warn (once, through System.Logger, so one
     * line on stderr besides the start-up line), the jmx option registers its MXBean, which shows the overdue
     * task and is gone after termination.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void starvationWarningAndJmx_onASingleThreadExecutor_withoutAddOpens(Jdk jdk) throws Exception {
        Run run = ForkedJvm.run(jdk, List.of(ForkedJvm.agent("starvationWarning,jmx,lateThresholdMillis=300")),
                Map.of(), "sampleapp.StarvationApp");
        assertEquals(0, run.exitCode(), run.describe());
        assertValue(run, "true", "firstRun", "longTask", "warned", "terminated", "during.oldestOverThreshold");
        assertValue(run, "1", "warnings", "during.mxbeans", "during.workers", "during.overdue");
        assertValue(run, "0", "during.idleWorkers", "after.mxbeans");
        assertValue(run, "300000000", "during.lateThresholdNanos");
        List<String> logs = logLines(run);
        assertEquals(1, logs.size(), run.describe());
        assertTrue(logs.get(0).matches("WARNING 1 task of executor .* is overdue \\(oldest \\d+ ms\\): all 1 worker busy"),
                run.describe());
        assertTrue(onlyStderrLine(run).startsWith(START_LINE), run.describe());
    }

    /** What the sample printed for each record of the io.timewheel logger. */
    private static List<String> logLines(Run run) {
        return run.out().stream().filter(l -> l.startsWith("log=")).map(l -> l.substring("log=".length())).toList();
    }

    /** Without the options nothing is watched or registered: STPE's behaviour, no warning, no MXBean. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void withoutTheOptions_noWarningAndNoMXBean(Jdk jdk) throws Exception {
        Run run = ForkedJvm.run(jdk, List.of(ForkedJvm.agent("")),
                Map.of(), "sampleapp.StarvationApp", "quiet");
        assertEquals(0, run.exitCode(), run.describe());
        assertValue(run, "false", "warned");
        assertValue(run, "0", "warnings", "during.mxbeans", "after.mxbeans");
        assertEquals(List.of(), logLines(run), run.describe());
        assertTrue(onlyStderrLine(run).startsWith(START_LINE), run.describe());
    }

    /**
     * A runtime without jdk.jfr and java.management (--limit-modules): the executor's optional modules are
     * missing, the options still parse, the warning still comes, and the MXBean is skipped with one line.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void withoutJfrAndManagementModules_nothingBreaks(Jdk jdk) throws Exception {
        Run run = ForkedJvm.run(jdk, List.of("--limit-modules", "java.base,java.instrument,java.logging",
                        ForkedJvm.agent("starvationWarning,jmx,lateThresholdMillis=300")),
                Map.of(), "sampleapp.StarvationApp", "nojmx");
        assertEquals(0, run.exitCode(), run.describe());
        assertValue(run, "true", "firstRun", "longTask", "warned", "terminated");
        assertValue(run, "1", "warnings");
        List<String> logs = logLines(run);
        assertEquals(2, logs.size(), run.describe());
        assertTrue(logs.get(0).startsWith("WARNING timewheel: no MXBean for executor ")
                && logs.get(0).endsWith(": the java.management module is not in this runtime"), run.describe());
        assertTrue(logs.get(1).contains("overdue (oldest"), run.describe());
        assertTrue(onlyStderrLine(run).startsWith(START_LINE), run.describe());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void killSwitch_leavesEveryJdkExecutor(Jdk jdk) throws Exception {
        Run run = ForkedJvm.run(jdk, options(ForkedJvm.verifyAll(), ForkedJvm.openConcurrent(),
                List.of(ForkedJvm.agent("enabled=false"))), Map.of(), "sampleapp.SwapApp");
        assertRanToTheEnd(run);
        assertValue(run, STPE, FACTORIES.toArray(String[]::new));
        assertValue(run, "java.util.concurrent.Executors$DelegatedScheduledExecutorService>" + STPE,
                SINGLE_FACTORIES.toArray(String[]::new));
        assertValue(run, STPE, CONSTRUCTIONS.toArray(String[]::new));
        assertValue(run, STPE, "subclass.named.super", "subclass.anonymous.super", "subclass.inner.super", "legacy");
        assertValue(run, ALL_HOOKS, "subclass.named.hooks");
        assertContains(onlyStderrLine(run), "disabled (enabled=false from agent argument)", run);
    }

    /**
     * Agent arguments over system properties over environment, per key; exclude prefixes; debug; tick
     * size passed on to the executor.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void precedence_exclude_debug_andTickSize(Jdk jdk) throws Exception {
        Run run = ForkedJvm.run(jdk, options(ForkedJvm.verifyAll(), ForkedJvm.openConcurrent(), List.of(
                        "-Dtimewheel.agent.exclude=sampleapp.legacy.", // over the environment's "sampleapp"
                        "-Dtimewheel.agent.factories=true", // under the agent argument
                        ForkedJvm.agent("factories=false,tickNanos=262144"))),
                Map.of("TIMEWHEEL_AGENT_EXCLUDE", "sampleapp", "TIMEWHEEL_AGENT_DEBUG", "true"), "sampleapp.SwapApp");
        assertRanToTheEnd(run);
        assertValue(run, STPE, FACTORIES.toArray(String[]::new));
        assertValue(run, WHEEL, CONSTRUCTIONS.toArray(String[]::new));
        assertValue(run, WHEEL, "subclass.named.super");
        assertValue(run, STPE, "legacy");
        assertValue(run, "262144", "tickNanos"); // not the default (2^20): the option must be passed on
        assertTrue(run.err().contains(AgentLog.PREFIX + "sampleapp.HookedScheduler: rebased onto " + WHEEL), run.describe());
        assertTrue(run.err().stream().anyMatch(line -> line.startsWith(START_LINE)
                && line.contains("swapping constructors, subclasses; exclude sampleapp.legacy.")), run.describe());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void malformedOptions_appStillRuns_withOneLineSayingWhat(Jdk jdk) throws Exception {
        Run run = ForkedJvm.run(jdk, options(ForkedJvm.verifyAll(), ForkedJvm.openConcurrent(),
                        List.of(ForkedJvm.agent("bogus,enabled=maybe,,tickNanos=3,include"))), Map.of(),
                "sampleapp.SwapApp");
        assertRanToTheEnd(run);
        assertValue(run, WHEEL, CONSTRUCTIONS.toArray(String[]::new));
        assertValue(run, WHEEL, "subclass.named.super");
        assertValue(run, "null", "tickNanos"); // not passed on to the executor, which would refuse it
        String line = onlyStderrLine(run);
        assertTrue(line.startsWith(START_LINE), run.describe());
        assertContains(line, "ignored 'bogus' (agent argument) is not an option", run);
        assertContains(line, "enabled=maybe (agent argument) is not true/false", run);
        assertContains(line, "tickNanos=3 (agent argument) is not a power of two", run);
        assertContains(line, "include (agent argument) needs a value", run);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void agentThatCannotStart_leavesEveryJdkExecutor_withOneLineSayingWhy(Jdk jdk) throws Exception {
        // The start-up failure path: an agent jar whose wheel executor class is missing (a broken repackaging)
        // must not break the application; every executor stays the JDK's, and one line says why.
        Path broken = ForkedJvm.agentJarWithout("io/timewheel/executor/WheelScheduledExecutorService");
        Run run = ForkedJvm.run(jdk, options(ForkedJvm.verifyAll(), ForkedJvm.openConcurrent(),
                List.of(ForkedJvm.agent(broken, ""))), Map.of(), "sampleapp.SwapApp");
        assertRanToTheEnd(run);
        assertValue(run, STPE, FACTORIES.toArray(String[]::new));
        assertValue(run, STPE, CONSTRUCTIONS.toArray(String[]::new));
        assertValue(run, STPE, "subclass.named.super", "subclass.anonymous.super", "subclass.inner.super", "legacy");
        String line = onlyStderrLine(run);
        assertContains(line, "not active, the JDK's executors stay", run);
        assertContains(line, "no usable wheel executor", run);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void jdkInternal_putsCompletableFutureTimeoutsOnTheWheel_upToJdk24(Jdk jdk) throws Exception {
        Run run = ForkedJvm.run(jdk, options(ForkedJvm.verifyAll(), ForkedJvm.openConcurrent(),
                List.of(ForkedJvm.agent("jdkInternal=true"))), Map.of(), "sampleapp.TimeoutApp");
        assertRanToTheEnd(run);
        assertValue(run, "java.util.concurrent.TimeoutException", "orTimeout");
        assertValue(run, "fallback", "completeOnTimeout");
        assertValue(run, "delayed", "delayedExecutor");
        String line = onlyStderrLine(run);
        if (jdk.feature() < 25) {
            assertValue(run, WHEEL, "delayer");
            assertContains(line, "swapping factories, constructors, subclasses, jdkInternal", run);
        } else {
            assertValue(run, "none", "delayer");
            assertContains(line, "jdkInternal does nothing on Java " + jdk.feature(), run);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void attach_swapsWhatIsBuiltAfterwards_bestEffort(Jdk jdk) throws Exception {
        List<String> jvmOptions = options(ForkedJvm.verifyAll(), List.of("-Djdk.attach.allowAttachSelf=true"));
        if (jdk.feature() >= 21) {
            jvmOptions.add("-XX:+EnableDynamicAgentLoading"); // else JDK 21+ warns about the dynamic load
        }
        Run run = ForkedJvm.run(jdk, jvmOptions, Map.of(), "sampleapp.AttachApp",
                ForkedJvm.AGENT_JAR.toAbsolutePath().toString(), "");
        assertRanToTheEnd(run);
        assertValue(run, STPE, "before.earlyUser", "after.earlyExecutor", "after.earlySubclass.super");
        assertValue(run, WHEEL, "after.earlyUser", "after.factory", "after.lateUser", "after.lateSubclass.super");
        assertTrue(run.err().stream().anyMatch(line -> line.startsWith(START_LINE) && line.contains("attached late")),
                run.describe());
        assertTrue(run.err().stream().anyMatch(line -> line.contains("AttachApp$EarlySubclass extends"
                + " ScheduledThreadPoolExecutor and is already loaded: not rebased")), run.describe());
    }

    /**
     * Class loaders that cannot see the system class loader (parent = the platform loader, or null):
     * their constructions and subclasses stay on the JDK's STPE and load and run (the agent decides per
     * loader before rewriting); one with its own copy of the executor gets that copy; the JDK's
     * factories, called from anywhere, build the agent's wheel executor, which the system class loader
     * defined (so it does not pass for a JDK class).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void isolatedLoaders_keepTheJdkExecutorOrUseTheirOwnCopy_andNeverFailToLoad(Jdk jdk) throws Exception {
        String copy = ForkedJvm.executorCopy("0.0.1-plugin-copy").toString();
        String samples = ForkedJvm.SAMPLES.toAbsolutePath().toString();
        Run run = ForkedJvm.run(jdk, options(ForkedJvm.verifyAll(), List.of(ForkedJvm.agent(""))), Map.of(),
                "sampleapp.IsolatedApp", samples, copy);
        assertRanToTheEnd(run);
        for (String isolated : List.of("platformParent", "nullParent")) {
            assertValue(run, STPE + "@boot", isolated + ".construction");
            assertValue(run, STPE, isolated + ".subclass.super");
            assertValue(run, "true", isolated + ".subclass.decorated");
            assertValue(run, WHEEL + "@system", isolated + ".factory");
            assertValue(run, null, isolated + ".failure");
        }
        assertValue(run, WHEEL + "@own", "ownCopy.construction");
        assertValue(run, WHEEL, "ownCopy.subclass.super");
        assertValue(run, "true", "ownCopy.subclass.decorated");
        assertValue(run, WHEEL + "@system", "ownCopy.factory", "system.construction", "system.factory");
        assertValue(run, WHEEL, "system.subclass.super");
        assertValue(run, null, "ownCopy.failure", "system.failure");
        assertTrue(onlyStderrLine(run).startsWith(START_LINE), run.describe());

        Run debug = ForkedJvm.run(jdk, List.of(ForkedJvm.agent("debug")), Map.of(), "sampleapp.IsolatedApp", samples);
        assertRanToTheEnd(debug);
        for (String loader : List.of("'platform-parent'", "'null-parent'")) {
            assertTrue(debug.err().stream().anyMatch(line -> line.startsWith(AgentLog.PREFIX + "classes of class loader "
                    + loader) && line.contains("keep the JDK's ScheduledThreadPoolExecutor: it does not see " + WHEEL)),
                    loader + "\n" + debug.describe());
        }
    }

    /**
     * The application has another version of the executor jar on its class path, ahead of the agent
     * jar: everything, the agent's rewrites and the JDK's factories included, uses that one copy.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void executorJarOnTheApplicationClassPath_oneCopyServesAll(Jdk jdk) throws Exception {
        java.nio.file.Path copy = ForkedJvm.executorCopy("0.0.1-app-copy");
        Run run = ForkedJvm.run(jdk, options(ForkedJvm.verifyAll(), List.of(ForkedJvm.agent(""))), Map.of(),
                List.of(ForkedJvm.SAMPLES, copy), "sampleapp.DoubleJarApp");
        assertRanToTheEnd(run);
        assertValue(run, "0.0.1-app-copy", "direct.version");
        assertValue(run, "system", "direct.loader");
        assertValue(run, "true", "construction.same", "factory.same", "subclass.same");
        assertTrue(onlyStderrLine(run).startsWith(START_LINE), run.describe());
    }
}
