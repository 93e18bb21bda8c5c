package io.timewheel.agent;

import io.timewheel.agent.ForkedJvm.Jdk;
import io.timewheel.agent.ForkedJvm.Run;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The agent's {@code nettyTimers} on unmodified applications of Netty's HashedWheelTimer, each in a fresh
 * JVM with the packaged agent jar, on the JDK running the build and on a JDK 25 when one is installed:
 * netty-common on the class path (4.1 and 4.2) and in plugin class loaders, the option off, a swap that
 * cannot be made, and the acceptance scenario (20 AsyncHttpClient clients; 100 plain timers) next to the
 * same program without the agent.
 */
class NettyTimersIT {

    private static final String START_LINE = AgentLog.PREFIX + "active (";
    private static final String WHEEL = "io.timewheel.executor.WheelScheduledExecutorService";
    private static final String NPE = "java.lang.NullPointerException";
    private static final String IAE = "java.lang.IllegalArgumentException";
    private static final String ISE = "java.lang.IllegalStateException";
    private static final List<String> CONSTRUCTORS = List.of("new()", "new(long,TimeUnit)", "new(long,TimeUnit,int)",
            "new(ThreadFactory)", "new(ThreadFactory,long,TimeUnit)", "new(ThreadFactory,long,TimeUnit,int)",
            "new(ThreadFactory,long,TimeUnit,int,boolean)", "new(ThreadFactory,long,TimeUnit,int,boolean,long)",
            "new(ThreadFactory,long,TimeUnit,int,boolean,long,Executor)");
    /** What HashedWheelTimer promises, as sampleapp.netty.TimerChecks reports it: the same swapped or not. */
    private static final Map<String, String> NETTYS_PROMISES = nettysPromises();

    /** The acceptance bounds (the issue's): per-timeout lateness, timer threads, their wake-ups while idle. */
    private static final double MAX_LATENESS_MILLIS = 20;
    private static final int MAX_TIMER_THREADS = 2;
    private static final double MAX_WAKEUPS_PER_SECOND = 2;

    private static Map<String, String> nettysPromises() {
        Map<String, String> promises = new LinkedHashMap<>();
        for (String constructor : CONSTRUCTORS) {
            promises.put(constructor + ".fires", "fired");
        }
        promises.put("order", "[150, 250, 350]");
        promises.put("afterThrowingTask", "fired");
        promises.put("cancel", "true,false,true,false,runs=0");
        promises.put("pending", "2");
        promises.put("stop", "2,true");
        promises.put("stop.timeoutsCancelled", "true,true");
        promises.put("stop.again", "0");
        promises.put("afterStop.newTimeout", ISE);
        promises.put("afterStop.start", ISE);
        promises.put("stop.stoppedTimeoutsRan", "0");
        promises.put("maxPending", "java.util.concurrent.RejectedExecutionException");
        promises.put("taskExecutor", "fired,executed=1");
        promises.put("check.nullThreadFactory", NPE);
        promises.put("check.nullUnit", NPE);
        promises.put("check.zeroTick", IAE);
        promises.put("check.zeroTicksPerWheel", IAE);
        promises.put("check.tickOverflow", IAE);
        promises.put("check.nullExecutor", NPE);
        promises.put("check.nullTask", NPE);
        promises.put("check.nullDelayUnit", NPE);
        promises.put("manyInstances", "100");
        promises.put("done", "true");
        return promises;
    }

    static Stream<Jdk> jdks() {
        return ForkedJvm.jdks().stream();
    }

    /** Every JDK with netty-common 4.1 and 4.2. */
    static Stream<Arguments> jdksAndNetty() {
        List<Arguments> all = new ArrayList<>();
        for (Jdk jdk : ForkedJvm.jdks()) {
            for (String version : List.of(System.getProperty("netty.version"), System.getProperty("netty42.version"))) {
                all.add(Arguments.of(jdk, version));
            }
        }
        return all.stream();
    }

    static Path nettyJar(String version) {
        Path jar = Paths.get(System.getProperty("netty.jars"), "netty-common-" + version + ".jar");
        assertTrue(Files.isRegularFile(jar), "no " + jar + ": run the build's generate-test-resources phase");
        return jar;
    }

    private static List<String> options(String agentOptions) {
        List<String> options = new ArrayList<>(ForkedJvm.verifyAll());
        options.add(ForkedJvm.agent(agentOptions));
        return options;
    }

    private static Map<String, String> assertKeptNettysPromises(Run run) {
        assertEquals(0, run.exitCode(), run.describe());
        Map<String, String> values = run.values();
        assertEquals(null, values.get("failure"), run.describe());
        NETTYS_PROMISES.forEach((key, expected) -> assertEquals(expected, values.get(key), key + "\n" + run.describe()));
        return values;
    }

    private static void assertSwapped(Run run, boolean swapped) {
        Map<String, String> values = run.values();
        assertEquals(Boolean.toString(swapped), values.get("swapped"), run.describe());
        // Netty's timer starts its worker thread in start() and is tracked by its leak detector; a swapped one neither.
        assertEquals(swapped ? "0" : "1", values.get("internal.threadsStartedByStart"), run.describe());
        assertEquals(Boolean.toString(!swapped), values.get("internal.leakTracked"), run.describe());
        // Netty warns past 64 instances (logged on stderr through java.util.logging); a swapped timer is not counted.
        assertEquals(!swapped, run.err().stream().anyMatch(line -> line.contains("too many HashedWheelTimer instances")),
                run.describe());
    }

    private static String startLine(Run run) {
        return run.err().stream().filter(line -> line.startsWith(START_LINE)).findFirst()
                .orElseThrow(() -> new AssertionError("no start-up line\n" + run.describe()));
    }

    private static List<String> agentProblems(Run run) {
        return run.err().stream().filter(line -> line.startsWith(AgentLog.PREFIX) && !line.startsWith(START_LINE)).toList();
    }

    /**
     * (a) and (c): netty-common on the class path. With nettyTimers every constructor's timer delegates, keeps
     * every promise of Netty's (the same report as Netty's own timer, option off, in the other run), starts no
     * thread, is not tracked by the leak detector and not counted toward the "too many instances" warning; with
     * the option off HashedWheelTimer is left as Netty wrote it.
     */
    @ParameterizedTest(name = "{0}, netty-common {1}")
    @MethodSource("jdksAndNetty")
    void onTheClassPath_everyConstructorDelegates_andKeepsNettysPromises(Jdk jdk, String nettyVersion) throws Exception {
        List<Path> classPath = List.of(ForkedJvm.SAMPLES, nettyJar(nettyVersion));
        Run on = ForkedJvm.run(jdk, options("nettyTimers=true"), Map.of(), classPath, "sampleapp.NettyTimerApp", "system");
        Map<String, String> swapped = assertKeptNettysPromises(on);
        assertSwapped(on, true);
        assertEquals("system", swapped.get("loader"), on.describe());
        assertTrue(startLine(on).contains("swapping factories, constructors, subclasses, nettyTimers"), on.describe());
        assertEquals(List.of(), agentProblems(on), on.describe());

        Run off = ForkedJvm.run(jdk, options(""), Map.of(), classPath, "sampleapp.NettyTimerApp", "system");
        assertKeptNettysPromises(off);
        assertSwapped(off, false);
        assertTrue(!startLine(off).contains("nettyTimers"), off.describe());
        assertEquals(List.of(), agentProblems(off), off.describe());
    }

    /**
     * (b): netty-common in a plugin class loader whose parent is the system class loader: the netty module's
     * classes are defined in that loader and the timers are swapped. A plugin loader whose parent is the platform
     * loader cannot see the wheel executor: its HashedWheelTimer stays Netty's, with one line, and runs.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void inAPluginClassLoader_theNettyModuleIsDefinedThere_orTheTimerStaysNettys(Jdk jdk) throws Exception {
        String jar = nettyJar(System.getProperty("netty.version")).toString();
        String samples = ForkedJvm.SAMPLES.toAbsolutePath().toString();
        Run plugin = ForkedJvm.run(jdk, options("nettyTimers=true"), Map.of(), "sampleapp.NettyTimerApp", "plugin", jar,
                samples);
        assertKeptNettysPromises(plugin);
        assertSwapped(plugin, true);
        assertEquals("plugin", plugin.values().get("loader"), plugin.describe());
        assertEquals(List.of(), agentProblems(plugin), plugin.describe());

        Run isolated = ForkedJvm.run(jdk, options("nettyTimers=true"), Map.of(), "sampleapp.NettyTimerApp", "isolated",
                jar, samples);
        assertKeptNettysPromises(isolated);
        assertSwapped(isolated, false);
        List<String> problems = agentProblems(isolated);
        assertEquals(1, problems.size(), isolated.describe());
        assertTrue(problems.get(0).startsWith(AgentLog.PREFIX + "left io.netty.util.HashedWheelTimer of class loader"
                + " 'isolated' (") && problems.get(0).endsWith(" as it is: its class loader does not see " + WHEEL),
                isolated.describe());
    }

    /**
     * (d): a swap that cannot be made (an agent jar without the netty module, as a broken repackaging would
     * be) leaves HashedWheelTimer as Netty wrote it, with one line, on the class path and in a plugin loader.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void swapThatCannotBeMade_leavesNettysTimer_withOneLine(Jdk jdk) throws Exception {
        Path broken = ForkedJvm.agentJarWithout("io/timewheel/netty/");
        List<String> options = new ArrayList<>(ForkedJvm.verifyAll());
        options.add(ForkedJvm.agent(broken, "nettyTimers=true"));
        Path jar = nettyJar(System.getProperty("netty.version"));

        Run system = ForkedJvm.run(jdk, options, Map.of(), List.of(ForkedJvm.SAMPLES, jar), "sampleapp.NettyTimerApp",
                "system");
        assertKeptNettysPromises(system);
        assertSwapped(system, false);
        List<String> problems = agentProblems(system);
        assertEquals(1, problems.size(), system.describe());
        assertTrue(problems.get(0).startsWith(AgentLog.PREFIX + "left io.netty.util.HashedWheelTimer of class loader ")
                && problems.get(0).endsWith("as it is: its class loader does not see io.timewheel.netty.WheelTimer"),
                system.describe());

        Run plugin = ForkedJvm.run(jdk, options, Map.of(), "sampleapp.NettyTimerApp", "plugin", jar.toString(),
                ForkedJvm.SAMPLES.toAbsolutePath().toString());
        assertKeptNettysPromises(plugin);
        assertSwapped(plugin, false);
        problems = agentProblems(plugin);
        assertEquals(1, problems.size(), plugin.describe());
        assertTrue(problems.get(0).endsWith("as it is: java.lang.IllegalStateException: the agent jar has no"
                + " io.timewheel.netty.WheelTimer"), plugin.describe());
    }

    /**
     * Attach: a HashedWheelTimer class loaded before the agent stays Netty's (it cannot gain a field), said once
     * in the start-up line; one loaded afterwards, in a new plugin class loader, is swapped.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void attach_leavesTheTimerClassLoadedBefore_andSwapsOnesLoadedAfter(Jdk jdk) throws Exception {
        List<String> jvmOptions = new ArrayList<>(ForkedJvm.verifyAll());
        jvmOptions.add("-Djdk.attach.allowAttachSelf=true");
        if (jdk.feature() >= 21) {
            jvmOptions.add("-XX:+EnableDynamicAgentLoading"); // else JDK 21+ warns about the dynamic load
        }
        Run run = ForkedJvm.run(jdk, jvmOptions, Map.of(), "sampleapp.NettyAttachApp",
                ForkedJvm.AGENT_JAR.toAbsolutePath().toString(), "nettyTimers=true",
                nettyJar(System.getProperty("netty.version")).toString(), ForkedJvm.SAMPLES.toAbsolutePath().toString());
        assertEquals(0, run.exitCode(), run.describe());
        Map<String, String> values = run.values();
        assertEquals("netty's,fired", values.get("before"), run.describe());
        assertEquals("netty's,fired", values.get("after.earlyLoader"), run.describe());
        assertEquals("swapped,fired", values.get("after.lateLoader"), run.describe());
        assertTrue(startLine(run).contains("nettyTimers: io.netty.util.HashedWheelTimer was loaded before the agent"
                + " (1 class loader(s)) and stays as it is there"), run.describe());
        assertEquals(List.of(), agentProblems(run), run.describe());
    }

    /** AsyncHttpClient's own class path: its jars as Maven resolved them, and netty-common of its Netty. */
    private static List<Path> ahcClassPath() throws IOException {
        List<Path> classPath = new ArrayList<>();
        classPath.add(ForkedJvm.SAMPLES);
        for (String entry : Files.readString(Paths.get(System.getProperty("ahc.classpath.file"))).trim()
                .split(File.pathSeparator)) {
            classPath.add(Paths.get(entry));
        }
        classPath.add(nettyJar(System.getProperty("netty42.version")));
        return classPath;
    }

    /** Forks the acceptance program without and with the agent, and prints their figures side by side. */
    private static Run[] acceptance(Jdk jdk, String mode, String scenario, List<Path> classPath) throws Exception {
        Run off = ForkedJvm.run(jdk, List.of(), Map.of(), classPath, "sampleapp.netty.IdleTimersApp", mode);
        Run on = ForkedJvm.run(jdk, List.of(ForkedJvm.agent("nettyTimers=true")), Map.of(), classPath,
                "sampleapp.netty.IdleTimersApp", mode);
        summary(jdk, scenario, off, on);
        assertEquals(0, on.exitCode(), on.describe());
        assertEquals(0, off.exitCode(), off.describe());
        assertEquals("true", on.values().get("done"), on.describe());
        return new Run[]{off, on};
    }

    /**
     * The acceptance scenario, its timeouts: 20 unmodified AsyncHttpClient clients, each with a 300 ms request
     * timeout, against a server that never answers. Under the agent every timeout of the measured round arrives
     * 0 to 20 ms after its deadline, plus the worst stall a plain thread of the same JVM met during that round
     * (sampleapp.netty.AhcTimeouts: on a busy machine the process itself is descheduled for tens of
     * milliseconds, and no timer beats that; on a quiet one the stall is a fraction of a millisecond). The
     * round before, in the cold JVM, must time out every request and never early; its lateness is printed, not
     * bounded: the JVM's first timeout waits for AsyncHttpClient's and Netty's first-use class loading on its
     * way to the handler (some 100 ms, as much without the agent). The figures of the same program without
     * the agent are printed beside them.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void twentyAsyncHttpClients_timeOutNeverEarly_andAtMost20MillisLate(Jdk jdk) throws Exception {
        Run[] runs = acceptance(jdk, "ahc", "20 AsyncHttpClient clients", ahcClassPath());
        Run off = runs[0];
        Run on = runs[1];
        for (String round : List.of("cold.", "")) {
            Map<String, String> values = on.values();
            assertEquals("20", values.get(round + "timeouts"), round + "\n" + on.describe());
            assertEquals("20", off.values().get(round + "timeouts"), round + "\n" + off.describe());
            double bound = MAX_LATENESS_MILLIS + Double.parseDouble(values.get(round + "stall.max"));
            for (String ms : values.get(round + "lateness.ms").split(",")) {
                double lateness = Double.parseDouble(ms);
                assertTrue(lateness >= 0 && (!round.isEmpty() || lateness <= bound), "a " + round + "timeout " + ms
                        + " ms after its deadline (bound " + bound + " ms)\n" + on.describe());
            }
        }
    }

    /**
     * The acceptance scenario, its threads: a second after the last of the 20 clients' timeouts ran, at most 2
     * threads serve timers under the agent, waking at most twice a second in total. Without the agent the
     * probe must see the problem (a timer thread per client), or it would be seeing nothing.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void twentyAsyncHttpClients_leaveAtMostTwoMostlyIdleTimerThreads(Jdk jdk) throws Exception {
        Run[] runs = acceptance(jdk, "ahc", "20 AsyncHttpClient clients", ahcClassPath());
        assertIdle(runs[0], runs[1], 20);
    }

    /** The same for 100 {@code new HashedWheelTimer()}, each with one timeout an hour away. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("jdks")
    void hundredPlainTimers_withAFarTimeoutEach_leaveAtMostTwoMostlyIdleTimerThreads(Jdk jdk) throws Exception {
        Run[] runs = acceptance(jdk, "plain", "100 new HashedWheelTimer()",
                List.of(ForkedJvm.SAMPLES, nettyJar(System.getProperty("netty.version"))));
        assertIdle(runs[0], runs[1], 100);
    }

    private static void assertIdle(Run off, Run on, int timersWithoutAgent) {
        assertTrue(Integer.parseInt(off.values().get("timerThreads")) >= timersWithoutAgent,
                "without the agent the probe sees every timer's thread\n" + off.describe());
        assertTrue(Integer.parseInt(on.values().get("timerThreads")) <= MAX_TIMER_THREADS,
                "threads serving timers a second after the last task: " + on.values().get("timerThreads.names")
                        + "\nall threads: " + on.values().get("threads") + "\n" + on.describe());
        String wakeups = on.values().get("wakeups.perSecond");
        if (!"unknown".equals(wakeups)) {
            assertTrue(Double.parseDouble(wakeups) <= MAX_WAKEUPS_PER_SECOND,
                    "timer threads woke " + wakeups + " times a second while idle: " + on.values().get("timerThreads.names")
                            + "\n" + on.describe());
        }
    }

    /** For the build log: the figures with and without the agent, side by side. */
    private static void summary(Jdk jdk, String scenario, Run off, Run on) {
        for (Run run : List.of(off, on)) {
            Map<String, String> v = run.values();
            StringBuilder line = new StringBuilder("nettyTimers acceptance, ").append(jdk).append(", ").append(scenario)
                    .append(run == on ? ", with the agent: " : ", without the agent: ").append(v.get("timerThreads"))
                    .append(" timer threads ").append(v.get("timerThreads.names")).append(", ")
                    .append(v.get("wakeups.perSecond")).append(" wake-ups/s");
            for (String round : List.of("cold.", "")) {
                if (v.containsKey(round + "lateness.ms")) {
                    line.append(round.isEmpty() ? "; measured round: " : "; cold round: ").append(v.get(round + "timeouts"))
                            .append(" timeouts, lateness min ").append(v.get(round + "lateness.min")).append(" max ")
                            .append(v.get(round + "lateness.max")).append(" ms, worst stall of a plain thread ")
                            .append(v.get(round + "stall.max")).append(" ms");
                }
            }
            System.out.println(line);
        }
    }
}
