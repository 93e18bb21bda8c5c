package io.timewheel.agent;

import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

/**
 * The entry points of {@code timewheel-agent.jar}, which runs an unmodified application on the wheel
 * executor: where the application or a library builds a {@link java.util.concurrent.ScheduledThreadPoolExecutor}
 * ({@code Executors.newScheduledThreadPool}, {@code newSingleThreadScheduledExecutor},
 * {@code new ScheduledThreadPoolExecutor(..)}, a class extending it), it gets a
 * {@code io.timewheel.executor.WheelScheduledExecutorService} instead, which extends it.
 *
 * <pre>{@code
 * java -javaagent:timewheel-agent.jar[=key=value,...] -jar app.jar
 * }</pre>
 *
 * <p>Options come from the agent arguments, then {@code -Dtimewheel.agent.<key>} system properties, then
 * {@code TIMEWHEEL_AGENT_<KEY>} environment variables; {@code enabled=false} is the kill switch. The agent
 * prints one line on stderr at start-up. It never fails the application: an option it cannot parse is
 * ignored and named in that line, and whatever it cannot swap stays on the JDK's executor, with one line
 * saying why. Every option, and the limits: the agent's README.
 *
 * <p>Not for applications to call: the JVM calls {@link #premain} or {@link #agentmain}, once per JVM (a
 * second start changes nothing).
 */
public final class TimewheelAgent {
    /*
     * Implementation notes
     *
     * Start-up, in order; whatever fails leaves the JDK's behaviour in place for what is not done yet and
     * says so in the start-up line, and nothing here throws into the JVM:
     *   1. resolve the options (AgentOptions); stop if enabled=false;
     *   2. find the wheel executor through the agent's own class loader (the system class loader: the
     *    executor classes sit in the agent jar, unless the application has its own copy ahead of it on the
     *    class path) and check its shape (WheelShape);
     *   3. define the one bridge class in the bootstrap class loader (BootInjector) and install
     *    the WheelFactory behind it;
     *   4. install the SwapTransformer (retransformation capable, so that agentmain and other
     *    agents' retransformations get the same rewrite), and with nettyTimers the NettyTimerTransformer
     *    (which defines classes in other loaders with the ClassDefiner step 3 made, or makes its own);
     *   5. make sure the targeted JDK classes went through it: load them now if they are not loaded
     *    (they are then rewritten as they load), retransform them if they were loaded before;
     *   6. under attach only: retransform the already loaded application classes that name STPE, and
     *    note a HashedWheelTimer loaded already (it cannot gain a field: it stays as it is);
     *   7. print the one start-up line.
     */

    /** Guarded by the class: premain and agentmain both run at most once per JVM. */
    private static boolean started;

    private TimewheelAgent() {
    }

    /**
     * Starts the agent before the application's {@code main}: {@code -javaagent:timewheel-agent.jar[=options]},
     * the supported way in. Never throws: on a failure the JDK's executors stay, with one line on stderr.
     *
     * @param arguments       the text after {@code =} in the {@code -javaagent} option: comma-separated
     *                        {@code key=value} pairs or bare keys (true); null or empty for none
     * @param instrumentation the JVM's instrumentation, through which the agent rewrites classes
     */
    public static void premain(String arguments, Instrumentation instrumentation) {
        start(arguments, instrumentation, false);
    }

    /**
     * Starts the agent in a running JVM it was attached to: best effort. Classes already loaded that build
     * executors are retransformed, so the executors they build from then on are wheel executors; executors
     * built before, and subclasses already loaded, stay the JDK's. Never throws: on a failure the JDK's
     * executors stay, with one line on stderr.
     *
     * @param arguments       the options, as for {@link #premain}
     * @param instrumentation the JVM's instrumentation, through which the agent rewrites classes
     */
    public static void agentmain(String arguments, Instrumentation instrumentation) {
        start(arguments, instrumentation, true);
    }

    private static synchronized void start(String arguments, Instrumentation instrumentation, boolean attached) {
        try {
            if (started) {
                AgentLog.line("already started in this JVM; this second start changes nothing");
                return;
            }
            started = true;
            run(arguments, instrumentation, attached);
        } catch (Throwable failure) {
            AgentLog.line("not active, the JDK's executors stay: " + AgentLog.describe(failure));
        }
    }

    private static void run(String arguments, Instrumentation instrumentation, boolean attached) throws Exception {
        long startNanos = System.nanoTime();
        AgentOptions options = AgentOptions.resolve(arguments, System.getProperties(), System.getenv());
        AgentLog.debugEnabled(options.debug);
        String ignored = options.problems().isEmpty() ? "" : "; ignored " + String.join(", ", options.problems());
        if (!options.enabled) {
            AgentLog.line("disabled (enabled=false from " + options.origins().get("enabled")
                    + "), the JDK's executors stay" + ignored);
            return;
        }
        AgentLog.debug("options " + options + " from " + options.origins());
        // The executor reads these when it is built, whoever builds it (a factory, a swapped construction, a
        // rebased subclass): set before anything can be swapped.
        if (options.starvationWarning) {
            System.setProperty(AgentOptions.STARVATION_WARNING_PROPERTY, "true");
        }
        if (options.jmx) {
            System.setProperty(AgentOptions.JMX_PROPERTY, "true");
        }
        if (options.lateThresholdMillis != null) {
            System.setProperty(AgentOptions.LATE_THRESHOLD_PROPERTY, Long.toString(options.lateThresholdMillis));
        }
        if (options.tickNanos != null) {
            System.setProperty(AgentOptions.TICK_PROPERTY, Long.toString(options.tickNanos));
        }
        if (!options.factories && !options.constructors && !options.subclasses && !options.jdkInternal
                && !options.nettyTimers) {
            AgentLog.line("nothing to swap (factories, constructors, subclasses, jdkInternal and nettyTimers are all off)"
                    + ignored);
            return;
        }

        Class<?> wheel;
        Set<String> wheelFinalMethods;
        try {
            wheel = Class.forName(WheelShape.WHEEL_NAME, false, TimewheelAgent.class.getClassLoader());
            wheelFinalMethods = WheelShape.check(wheel);
        } catch (Throwable failure) {
            AgentLog.line("not active, the JDK's executors stay: no usable wheel executor on the class path: "
                    + AgentLog.describe(failure) + ignored);
            return;
        }
        AgentLog.debug("wheel executor " + wheel.getName() + " from " + WheelShape.origin(wheel)
                + ", class loader " + wheel.getClassLoader());

        BootInjector.Boot boot;
        try {
            boot = BootInjector.inject(instrumentation);
        } catch (Throwable failure) {
            AgentLog.line("not active, the JDK's executors stay: could not make the agent's bridge visible to the"
                    + " bootstrap class loader: " + AgentLog.describe(failure) + ignored);
            return;
        }
        AgentLog.debug((boot.injected() ? "defined " : "found ") + boot.bridge().getName()
                + " in the bootstrap class loader");
        List<String> notes = new ArrayList<>();
        if (!WheelFactory.install()) {
            notes.add("the JDK's own factories stay: another wheel factory was installed before this agent");
        }

        SwapTransformer transformer = new SwapTransformer(options, wheel, wheelFinalMethods);
        instrumentation.addTransformer(transformer, true);
        if (options.nettyTimers) {
            instrumentation.addTransformer(new NettyTimerTransformer(TimewheelAgent.class.getClassLoader(),
                    TimewheelAgent.class.getProtectionDomain(), wheel.getName(),
                    new Definers(instrumentation, boot.definer())), true);
        }

        StringJoiner swaps = new StringJoiner(", ");
        try {
            if (options.factories && JdkTargets.factories(instrumentation, transformer, notes)) {
                swaps.add("factories");
            }
            if (options.constructors) {
                swaps.add("constructors");
            }
            if (options.subclasses) {
                swaps.add("subclasses");
            }
            if (options.jdkInternal && JdkTargets.delayer(instrumentation, transformer, attached, notes)) {
                swaps.add("jdkInternal");
            }
            if (options.nettyTimers) {
                swaps.add("nettyTimers");
                if (attached) {
                    int loaders = LoadedClasses.count(instrumentation,
                            SwapTransformer.dotted(NettyTimerTransformer.HASHED_WHEEL_TIMER));
                    if (loaders > 0) {
                        notes.add("nettyTimers: io.netty.util.HashedWheelTimer was loaded before the agent (" + loaders
                                + " class loader(s)) and stays as it is there");
                    }
                }
            }
            if (attached) {
                int retransformed = LoadedClasses.retransform(instrumentation, transformer);
                notes.add("attached late: " + retransformed + " loaded class(es) retransformed; executors created"
                        + " before now stay JDK ones");
            }
        } catch (Throwable failure) { // the transformer is installed: say what is active, and what broke
            notes.add("start-up did not finish: " + AgentLog.describe(failure));
        }
        StringBuilder line = new StringBuilder("active (").append(version()).append(", Java ")
                .append(Runtime.version().feature()).append("), swapping ").append(swaps.length() == 0 ? "nothing" : swaps);
        if (!options.include.isEmpty()) {
            line.append("; include ").append(String.join("|", AgentOptions.dotted(options.include)));
        }
        if (!options.exclude.isEmpty()) {
            line.append("; exclude ").append(String.join("|", AgentOptions.dotted(options.exclude)));
        }
        for (String note : notes) {
            line.append("; ").append(note);
        }
        AgentLog.line(line + ignored);
        AgentLog.debug("start-up took " + (System.nanoTime() - startNanos) / 1_000_000 + " ms");
    }

    /** The ClassDefiner of the start-up if there is one, else one made on first need. */
    private static final class Definers implements NettyTimerTransformer.InjectorSource {
        /** Immutable. */
        private final Instrumentation instrumentation;
        /** Guarded by this. */
        private ClassDefiner definer;

        Definers(Instrumentation instrumentation, ClassDefiner definer) {
            this.instrumentation = instrumentation;
            this.definer = definer;
        }

        @Override
        public synchronized NettyTimerTransformer.Injector injector() throws ReflectiveOperationException {
            if (definer == null) {
                definer = ClassDefiner.create(instrumentation);
            }
            final ClassDefiner defining = definer;
            return new NettyTimerTransformer.Injector() {
                @Override
                public Class<?> define(String binaryName, byte[] classFile, ClassLoader loader, ProtectionDomain domain) {
                    return defining.define(binaryName, classFile, loader, domain);
                }
            };
        }
    }

    private static String version() {
        String version = TimewheelAgent.class.getPackage().getImplementationVersion();
        return version == null ? "unknown version" : version;
    }
}
