package io.timewheel.agent;

import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.WeakHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Decides, for each class the JVM loads or retransforms, whether and how it is rewritten, and applies
 * {@link SwapRewriter}. Any thread: the JVM calls it concurrently from every thread that loads classes.
 *
 * <h2>Implementation notes</h2>
 *
 * The cheap tests come first, so the cost for a class that has nothing to do with STPE is a few name
 * comparisons and one constant-pool walk ({@link ClassFileScan}):
 * <ol>
 *   <li>bootstrap-loaded classes: only the targeted JDK classes ({@code Executors} for
 *   {@code factories}, {@code CompletableFuture$Delayer} for {@code jdkInternal});</li>
 *   <li>platform-loaded classes and names under {@code java/ jdk/ sun/ com/sun/ io/timewheel/} (which
 *   includes the agent and its relocated Byte Buddy): never;</li>
 *   <li>the user's include/exclude prefixes;</li>
 *   <li>the class file must name STPE;</li>
 *   <li>the wheel executor must be the class its loader sees under that name (a loader that does not
 *   delegate to the bootstrap loader, such as an OSGi bundle's, would fail to link the rewrite).</li>
 * </ol>
 * Anything that goes wrong leaves the class as it was and prints one line; the transformer never
 * throws. It can run while its own classes are still being loaded: those loads re-enter it and leave
 * at step 2.
 */
final class SwapTransformer implements ClassFileTransformer {

    static final String EXECUTORS = "java/util/concurrent/Executors";
    static final String DELAYER = "java/util/concurrent/CompletableFuture$Delayer";
    private static final Set<String> FACTORY_METHODS = Set.of("newScheduledThreadPool", "newSingleThreadScheduledExecutor");
    private static final byte[] STPE_UTF8 = ClassFileScan.utf8(SwapRewriter.STPE);
    private static final String[] NEVER = {"java/", "jdk/", "sun/", "com/sun/", "io/timewheel/"};

    private final AgentOptions options;
    private final Class<?> wheel;
    private final Set<String> wheelFinalMethods;
    private final ClassLoader platformLoader = ClassLoader.getPlatformClassLoader();
    /** Loader -> can it see the boot wheel executor; guarded by itself; weak so loaders can go. */
    private final Map<ClassLoader, Boolean> visibility = new WeakHashMap<>();

    /** Number of times each targeted JDK class went through transform, and swaps made in it. */
    final AtomicInteger executorsSeen = new AtomicInteger();
    final AtomicInteger executorsSwaps = new AtomicInteger();
    final AtomicInteger delayerSeen = new AtomicInteger();
    final AtomicInteger delayerSwaps = new AtomicInteger();
    /** Classes rewritten so far (constructions or rebase), for the debug output. */
    final AtomicInteger classesSwapped = new AtomicInteger();

    SwapTransformer(AgentOptions options, Class<?> wheel, Set<String> wheelFinalMethods) {
        this.options = options;
        this.wheel = wheel;
        this.wheelFinalMethods = wheelFinalMethods;
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined,
                            ProtectionDomain domain, byte[] classFile) {
        if (className == null) {
            return null;
        }
        try {
            if (loader == null) {
                return transformJdk(className, classFile);
            }
            if (loader == platformLoader || !eligible(className)
                    || !ClassFileScan.hasUtf8(classFile, STPE_UTF8) || !wheelVisibleFrom(loader)) {
                return null;
            }
            // A retransformation must reproduce what was done at load time: rebase a class only if it was
            // loaded after the agent (and so rebased then), never one loaded before it.
            boolean rebase = options.subclasses && (redefined == null || redefined.getSuperclass() == wheel);
            if (options.subclasses && redefined != null && redefined.getSuperclass() == ScheduledThreadPoolExecutor.class) {
                AgentLog.problem(dotted(className) + " extends ScheduledThreadPoolExecutor and is already loaded:"
                        + " not rebased (a loaded class cannot change its superclass)");
            }
            SwapRewriter.Outcome outcome = SwapRewriter.rewrite(classFile,
                    new SwapRewriter.Plan(options.constructors, rebase, null), wheelFinalMethods);
            return report(className, outcome);
        } catch (Throwable failure) {
            AgentLog.problem("left " + dotted(className) + " as it is: " + AgentLog.describe(failure));
            return null;
        }
    }

    /** Whether the name alone allows transforming this non-JDK class. */
    boolean eligible(String className) {
        for (String prefix : NEVER) {
            if (className.startsWith(prefix)) {
                return false;
            }
        }
        for (String prefix : options.exclude) {
            if (className.startsWith(prefix)) {
                return false;
            }
        }
        if (options.include.isEmpty()) {
            return true;
        }
        for (String prefix : options.include) {
            if (className.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private byte[] transformJdk(String className, byte[] classFile) {
        if (EXECUTORS.equals(className) && options.factories) {
            executorsSeen.incrementAndGet();
            SwapRewriter.Outcome outcome = SwapRewriter.rewrite(classFile,
                    new SwapRewriter.Plan(true, false, FACTORY_METHODS), wheelFinalMethods);
            executorsSwaps.addAndGet(outcome.constructions());
            return report(className, outcome);
        }
        if (DELAYER.equals(className) && options.jdkInternal) {
            delayerSeen.incrementAndGet();
            SwapRewriter.Outcome outcome = SwapRewriter.rewrite(classFile,
                    new SwapRewriter.Plan(true, false, null), wheelFinalMethods);
            delayerSwaps.addAndGet(outcome.constructions());
            return report(className, outcome);
        }
        return null;
    }

    private byte[] report(String className, SwapRewriter.Outcome outcome) {
        if (outcome.refusal() != null) {
            AgentLog.problem(dotted(className) + ": " + outcome.refusal());
        }
        if (outcome.bytes() != null) {
            classesSwapped.incrementAndGet();
            if (AgentLog.debugEnabled()) {
                StringJoiner what = new StringJoiner(" and ");
                if (outcome.constructions() > 0) {
                    what.add(outcome.constructions() + " construction(s) swapped");
                }
                if (outcome.rebased()) {
                    what.add("rebased onto " + wheel.getName());
                }
                AgentLog.debug(dotted(className) + ": " + what);
            }
        }
        return outcome.bytes();
    }

    private boolean wheelVisibleFrom(ClassLoader loader) {
        synchronized (visibility) {
            Boolean known = visibility.get(loader);
            if (known != null) {
                return known;
            }
        }
        boolean visible;
        try {
            visible = Class.forName(wheel.getName(), false, loader) == wheel;
        } catch (Throwable notVisible) {
            visible = false;
        }
        synchronized (visibility) {
            if (visibility.put(loader, visible) == null && !visible) {
                AgentLog.problem("classes of class loader " + loader + " keep the JDK executor: it does not see "
                        + "the agent's " + wheel.getName());
            }
        }
        return visible;
    }

    static String dotted(String internalName) {
        return internalName.replace('/', '.');
    }
}
