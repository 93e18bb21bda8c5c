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
 */
final class SwapTransformer implements ClassFileTransformer {
    /*
     * Implementation notes
     *
     * The cheap tests come first, so the cost for a class that has nothing to do with STPE is a few name
     * comparisons and one constant-pool walk (ClassFileScan):
     *   1. bootstrap-loaded classes: only the targeted JDK classes (Executors for
     *    factories, CompletableFuture$Delayer for jdkInternal);
     *   2. platform-loaded classes and names under java/ jdk/ sun/ com/sun/ io/timewheel/ (which
     *    includes the agent and its relocated Byte Buddy): never;
     *   3. the user's include/exclude prefixes;
     *   4. the class file must name STPE;
     *   5. the class's own loader must see a usable wheel executor under its name
     *    (targetFor).
     *
     * Which wheel executor a rewritten class links to is decided per class loader, at transform time,
     * because the rewrite names the class and the JVM resolves that name through the defining loader.
     * The agent's copy lives in the system class loader (not the bootstrap loader, where it would pass for
     * a JDK class), so a loader whose parent chain skips the system loader (parent = the platform loader
     * or null, as plugin and module systems do) may not see it. The transformer asks the loader
     * (Class.forName(name, false, loader), which loads but does not initialise): the agent's class
     * is used as is; another copy (an application bundling the executor jar in a child-first loader) is
     * used if it has the shape the rewrite needs (WheelShape); if the loader sees none, or a
     * copy of the wrong shape, its classes are left alone and keep the JDK's STPE, with one debug line per
     * loader. Deciding before rewriting is what makes this safe: a rewritten class whose loader cannot
     * resolve the wheel would fail with NoClassDefFoundError (a construction) or not load at all (a
     * rebased subclass), and nothing could fall back once the superclass is written into the class file.
     * Anything that goes wrong leaves the class as it was and prints one line; the transformer never
     * throws. It can run while its own classes are still being loaded: those loads re-enter it and leave
     * at step 2.
     */

    static final String EXECUTORS = "java/util/concurrent/Executors";
    static final String DELAYER = "java/util/concurrent/CompletableFuture$Delayer";
    private static final Set<String> FACTORY_METHODS = Set.of("newScheduledThreadPool", "newSingleThreadScheduledExecutor");
    private static final byte[] STPE_UTF8 = ClassFileScan.utf8(SwapRewriter.STPE);
    private static final String[] NEVER = {"java/", "jdk/", "sun/", "com/sun/", "io/timewheel/"};

    private final AgentOptions options;
    private final Class<?> wheel;
    private final Set<String> wheelFinalMethods;
    private final ClassLoader platformLoader = ClassLoader.getPlatformClassLoader();
    /** Loader -> the wheel executor its classes are rewritten to, or NONE; guarded by itself; weak so loaders can go. */
    private final Map<ClassLoader, Target> targets = new WeakHashMap<>();

    /** Number of times each targeted JDK class went through transform, and swaps made in it. */
    final AtomicInteger executorsSeen = new AtomicInteger();
    final AtomicInteger executorsSwaps = new AtomicInteger();
    final AtomicInteger delayerSeen = new AtomicInteger();
    final AtomicInteger delayerSwaps = new AtomicInteger();
    /** Classes rewritten so far (constructions or rebase), for the debug output. */
    final AtomicInteger classesSwapped = new AtomicInteger();

    /**
     * The wheel executor one class loader resolves, and its final methods; {@link #NONE} if there is
     * none the rewrite could use.
     */
    record Target(Set<String> finalMethods) {
    }

    /** No Class in a Target: the map's values must not hold their loaders (the keys) strongly. */
    private static final Target NONE = new Target(Set.of());

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
            if (loader == platformLoader || !eligible(className) || !ClassFileScan.hasUtf8(classFile, STPE_UTF8)) {
                return null;
            }
            Target target = targetFor(loader);
            if (target == NONE) {
                return null;
            }
            // A retransformation must reproduce what was done at load time: rebase a class only if it was
            // loaded after the agent (and so rebased then), never one loaded before it.
            boolean rebase = options.subclasses && (redefined == null
                    || (redefined.getSuperclass() != null && redefined.getSuperclass().getName().equals(wheel.getName())));
            if (options.subclasses && redefined != null && redefined.getSuperclass() == ScheduledThreadPoolExecutor.class) {
                AgentLog.problem(dotted(className) + " extends ScheduledThreadPoolExecutor and is already loaded:"
                        + " not rebased (a loaded class cannot change its superclass)");
            }
            SwapRewriter.Outcome outcome = SwapRewriter.rewrite(classFile,
                    new SwapRewriter.Plan(options.constructors, rebase, null), target.finalMethods());
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
                    new SwapRewriter.Plan(true, false, FACTORY_METHODS, true), Set.of());
            executorsSwaps.addAndGet(outcome.constructions());
            return report(className, outcome);
        }
        if (DELAYER.equals(className) && options.jdkInternal) {
            delayerSeen.incrementAndGet();
            SwapRewriter.Outcome outcome = SwapRewriter.rewrite(classFile,
                    new SwapRewriter.Plan(true, false, null, true), Set.of());
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
                    what.add("rebased onto " + SwapRewriter.WHEEL.replace('/', '.'));
                }
                AgentLog.debug(dotted(className) + ": " + what);
            }
        }
        return outcome.bytes();
    }

    /** The wheel executor the classes of {@code loader} are rewritten to; see the class notes. */
    Target targetFor(ClassLoader loader) {
        synchronized (targets) {
            Target known = targets.get(loader);
            if (known != null) {
                return known;
            }
        }
        Target target;
        String why = null;
        Class<?> seen;
        try {
            seen = Class.forName(wheel.getName(), false, loader);
        } catch (Throwable notVisible) {
            seen = null;
        }
        if (seen == wheel) {
            target = new Target(wheelFinalMethods);
        } else if (seen == null) {
            target = NONE;
            why = "it does not see " + wheel.getName();
        } else {
            try {
                target = new Target(WheelShape.check(seen));
            } catch (Throwable unusable) {
                target = NONE;
                why = "its own " + wheel.getName() + " (from " + WheelShape.origin(seen) + ") does not fit: "
                        + AgentLog.describe(unusable);
            }
        }
        synchronized (targets) {
            Target raced = targets.putIfAbsent(loader, target);
            if (raced != null) {
                return raced;
            }
        }
        if (why != null) {
            AgentLog.debug("classes of class loader " + AgentLog.describe(loader) + " keep the JDK's ScheduledThreadPoolExecutor: "
                    + why);
        } else if (seen != wheel) {
            AgentLog.debug("classes of class loader " + AgentLog.describe(loader) + " use its own " + wheel.getName() + " (from "
                    + WheelShape.origin(seen) + ")");
        }
        return target;
    }

    static String dotted(String internalName) {
        return internalName.replace('/', '.');
    }
}
