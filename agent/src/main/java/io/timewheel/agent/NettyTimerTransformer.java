package io.timewheel.agent;

import net.bytebuddy.jar.asm.ClassReader;

import java.lang.instrument.ClassFileTransformer;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.security.ProtectionDomain;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * The agent's {@code nettyTimers}: rewrites {@code io.netty.util.HashedWheelTimer} as it loads
 * ({@link HashedWheelTimerRewriter}) once its class loader can see the classes the rewritten class
 * names, defining them in that loader if need be. Any thread: the JVM calls it from every thread that
 * loads classes.
 */
final class NettyTimerTransformer implements ClassFileTransformer {
    /*
     * Implementation notes
     *
     * The rewritten HashedWheelTimer names two classes of ours, io.timewheel.netty.WheelTimer (the netty
     * module) and io.timewheel.agent.netty.HashedWheelTimerSwap (the constructor's half of the swap), and
     * the JVM resolves both through HashedWheelTimer's defining loader L. Both name Netty's classes
     * (WheelTimer implements io.netty.util.Timer), so they must be defined where L's netty-common is
     * visible; the executor they run on is public API of the wheel executor, which the system class
     * loader defines from the agent jar. Per loader, decided once, before the class is rewritten (a
     * rewritten class whose loader cannot resolve these names would throw NoClassDefFoundError from its
     * constructor, and nothing could fall back then):
     *   1. L must see a wheel executor: if not (a loader whose parent is the platform loader or null), its
     *    HashedWheelTimer stays as it is.
     *   2. If the agent's own class loader sees L's io.netty.util.Timer (netty-common on the class path),
     *    L resolves our two classes from the agent jar (or from its own copy); they are checked (Fits)
     *    and used.
     *   3. Else (netty-common in a child loader: Spring Boot's, a plugin's) every class of the netty
     *    module and of io.timewheel.agent.netty is defined in L (Injector), supertypes first, with the
     *    agent jar's protection domain: L then finds them as already loaded, before it would delegate to
     *    its parent, so all of them must be defined there, none left to be found through the parent. A
     *    loader that has its own copy (its resource is not the agent jar's) gets no definitions: its copy
     *    is checked and used as in 2. After defining, the classes L resolves must be the ones defined.
     * Whether the classes L resolves fit is checked by reflection on them (Fits): the methods the rewritten
     * class calls, with L's Netty types, so that no link-time loader constraint can fail later. Reflection
     * links (verifies) those classes while HashedWheelTimer is still being loaded, so they must never need
     * HashedWheelTimer to link: they name Netty's Timer, never the class being swapped.
     *
     * The JVM loads a class once per loader, so the work for one loader is never done twice at once; what
     * was done is remembered per loader (weakly: loaders can go), and no lock is held while classes load, so
     * this cannot deadlock against a class loader's own lock. A retransformation (another agent's) gets the same
     * rewrite if the class was rewritten when it loaded, and nothing otherwise: a class loaded before this
     * agent (attach) cannot gain a field. Nothing here throws into the JVM: whatever goes wrong leaves
     * HashedWheelTimer as it is, with one line.
     */

    static final String HASHED_WHEEL_TIMER = HashedWheelTimerRewriter.HASHED_WHEEL_TIMER;
    static final String NETTY_MODULE_PREFIX = "io/timewheel/netty/";
    static final String SWAP_PREFIX = "io/timewheel/agent/netty/";

    /** Defines a class in a given class loader (the agent's: {@link ClassDefiner}). */
    interface Injector {
        Class<?> define(String binaryName, byte[] classFile, ClassLoader loader, ProtectionDomain domain);
    }

    /** Gives the injector; asked once per loader that needs definitions. */
    interface InjectorSource {
        Injector injector() throws Exception;
    }

    /**
     * The agent's class loader, which the netty module's classes are read through; and the protection domain
     * they are defined with (the agent jar's). Immutable.
     */
    private final ClassLoader agentLoader;
    private final ProtectionDomain agentDomain;
    /** Binary name of the wheel executor class the agent uses: a loader that cannot see one keeps Netty's timer. Immutable. */
    private final String wheelName;
    /** Immutable. */
    private final InjectorSource injectorSource;
    private final ClassLoader platformLoader = ClassLoader.getPlatformClassLoader();
    /** Loader -> whether its HashedWheelTimer was rewritten when it loaded; guarded by itself; weak so loaders can go. */
    private final Map<ClassLoader, Boolean> swapped = new WeakHashMap<>();
    /** The class files to define in a loader, read on first need; guarded by this. */
    private Map<String, byte[]> injectable;

    NettyTimerTransformer(ClassLoader agentLoader, ProtectionDomain agentDomain, String wheelName,
                          InjectorSource injectorSource) {
        this.agentLoader = agentLoader;
        this.agentDomain = agentDomain;
        this.wheelName = wheelName;
        this.injectorSource = injectorSource;
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> redefined, ProtectionDomain domain,
                            byte[] classFile) {
        if (!HASHED_WHEEL_TIMER.equals(className)) {
            return null;
        }
        try {
            if (redefined != null) {
                return swappedAtLoad(loader) ? HashedWheelTimerRewriter.rewrite(classFile).bytes() : null;
            }
            if (loader == null || loader == platformLoader) {
                return leave(loader, "the " + (loader == null ? "bootstrap" : "platform")
                        + " class loader cannot see the wheel executor");
            }
            HashedWheelTimerRewriter.Outcome outcome = HashedWheelTimerRewriter.rewrite(classFile);
            if (outcome.bytes() == null) {
                return leave(loader, outcome.refusal());
            }
            String why = makeVisible(loader);
            if (why != null) {
                return leave(loader, why);
            }
            remember(loader, true);
            AgentLog.debug("io.netty.util.HashedWheelTimer of class loader " + AgentLog.describe(loader)
                    + ": swapped, delegating to " + WheelShape.origin(Class.forName(binary(HashedWheelTimerRewriter.WHEEL_TIMER),
                    false, loader)));
            return outcome.bytes();
        } catch (Throwable failure) {
            return leave(loader, AgentLog.describe(failure));
        }
    }

    /** Leaves the class as it is, says why, remembers it. */
    private byte[] leave(ClassLoader loader, String why) {
        if (loader != null) {
            remember(loader, false);
        }
        AgentLog.problem("left io.netty.util.HashedWheelTimer" + (loader == null ? "" : " of class loader "
                + AgentLog.describe(loader)) + " as it is: " + why);
        return null;
    }

    private boolean swappedAtLoad(ClassLoader loader) {
        if (loader == null) {
            return false;
        }
        synchronized (swapped) {
            return Boolean.TRUE.equals(swapped.get(loader));
        }
    }

    private void remember(ClassLoader loader, boolean rewritten) {
        synchronized (swapped) {
            swapped.put(loader, rewritten);
        }
    }

    /** Makes our two classes resolvable from {@code loader}; null when done, else why not. See the class notes. */
    String makeVisible(ClassLoader loader) throws Exception {
        if (forName(wheelName, loader) == null) {
            return "its class loader does not see " + wheelName;
        }
        Class<?> timer = forName("io.netty.util.Timer", loader);
        if (timer == null) {
            return "its class loader does not see io.netty.util.Timer";
        }
        String wheelTimerResource = HashedWheelTimerRewriter.WHEEL_TIMER + ".class";
        URL own = loader.getResource(wheelTimerResource);
        boolean agentsCopy = own == null || own.equals(agentLoader.getResource(wheelTimerResource));
        if (forName(timer.getName(), agentLoader) == timer || !agentsCopy) {
            return Fits.check(loader, timer);
        }
        inject(loader);
        String misfit = Fits.check(loader, timer);
        if (misfit != null) {
            return misfit;
        }
        Class<?> resolved = forName(binary(HashedWheelTimerRewriter.WHEEL_TIMER), loader);
        if (resolved == null || resolved.getClassLoader() != loader) {
            return "its class loader does not resolve the io.timewheel.netty classes defined in it";
        }
        return null;
    }

    /** Defines every class of the netty module and of io.timewheel.agent.netty in {@code loader}, supertypes first. */
    private void inject(ClassLoader loader) throws Exception {
        Map<String, byte[]> classes = injectable();
        Injector injector = injectorSource.injector();
        Set<String> defined = new HashSet<>();
        for (String name : classes.keySet()) {
            define(name, classes, injector, loader, defined);
        }
        AgentLog.debug("defined " + defined.size() + " classes of io.timewheel.netty and io.timewheel.agent.netty in"
                + " class loader " + AgentLog.describe(loader));
    }

    private void define(String name, Map<String, byte[]> classes, Injector injector, ClassLoader loader,
                        Set<String> defined) {
        if (!defined.add(name)) {
            return;
        }
        ClassReader header = new ClassReader(classes.get(name));
        List<String> supertypes = new ArrayList<>();
        supertypes.add(header.getSuperName());
        for (String i : header.getInterfaces()) {
            supertypes.add(i);
        }
        for (String supertype : supertypes) {
            if (supertype != null && classes.containsKey(supertype)) {
                define(supertype, classes, injector, loader, defined);
            }
        }
        injector.define(binary(name), classes.get(name), loader, agentDomain);
    }

    private synchronized Map<String, byte[]> injectable() throws Exception {
        if (injectable == null) {
            Map<String, byte[]> classes = new LinkedHashMap<>(ClassFiles.tree(agentLoader,
                    HashedWheelTimerRewriter.WHEEL_TIMER, NETTY_MODULE_PREFIX));
            classes.putAll(ClassFiles.tree(agentLoader, HashedWheelTimerRewriter.SWAP, SWAP_PREFIX));
            injectable = classes;
        }
        return injectable;
    }

    /** The class {@code loader} resolves for {@code binaryName}, loaded but not initialised, or null. */
    static Class<?> forName(String binaryName, ClassLoader loader) {
        try {
            return Class.forName(binaryName, false, loader);
        } catch (ClassNotFoundException | LinkageError absent) {
            return null;
        }
    }

    static String binary(String internalName) {
        return internalName.replace('/', '.');
    }

    /**
     * Whether the classes a loader resolves for our two names are the ones the rewritten class can call:
     * every method it calls, with that loader's Netty types.
     */
    static final class Fits {

        private Fits() {
        }

        /** Null if they fit, else what does not. */
        static String check(ClassLoader loader, Class<?> timer) {
            Class<?> wheelTimer = forName(binary(HashedWheelTimerRewriter.WHEEL_TIMER), loader);
            Class<?> swap = forName(binary(HashedWheelTimerRewriter.SWAP), loader);
            Class<?> timerTask = forName("io.netty.util.TimerTask", loader);
            Class<?> timeout = forName("io.netty.util.Timeout", loader);
            if (wheelTimer == null || swap == null || timerTask == null || timeout == null) {
                return "its class loader does not see " + (wheelTimer == null ? "io.timewheel.netty.WheelTimer"
                        : swap == null ? binary(HashedWheelTimerRewriter.SWAP) : "io.netty.util.TimerTask and Timeout");
            }
            try {
                if (!timer.isAssignableFrom(wheelTimer)) {
                    return wheelTimer.getName() + " from " + WheelShape.origin(wheelTimer) + " is not an " + timer.getName()
                            + " of that loader";
                }
                instance(wheelTimer, "start", void.class);
                instance(wheelTimer, "newTimeout", timeout, timerTask, long.class, TimeUnit.class);
                instance(wheelTimer, "stop", Set.class);
                instance(wheelTimer, "pendingTimeouts", long.class);
                expect(swap.getMethod(HashedWheelTimerRewriter.SWAP_METHOD, timer, ThreadFactory.class, long.class,
                        TimeUnit.class, int.class, long.class, Executor.class), wheelTimer, true);
                expect(swap.getMethod(HashedWheelTimerRewriter.SWAP_METHOD, timer, ThreadFactory.class, long.class,
                        TimeUnit.class, int.class, long.class), wheelTimer, true);
                return null;
            } catch (NoSuchMethodException | IllegalStateException | LinkageError misfit) {
                return "the io.timewheel.netty classes it sees (from " + WheelShape.origin(wheelTimer) + ") do not fit: "
                        + AgentLog.describe(misfit);
            }
        }

        private static void instance(Class<?> type, String name, Class<?> returns, Class<?>... parameters)
                throws NoSuchMethodException {
            expect(type.getMethod(name, parameters), returns, false);
        }

        private static void expect(Method method, Class<?> returns, boolean isStatic) {
            if (method.getReturnType() != returns || Modifier.isStatic(method.getModifiers()) != isStatic) {
                throw new IllegalStateException(method + " is not " + (isStatic ? "static " : "") + returns.getName());
            }
        }
    }
}
