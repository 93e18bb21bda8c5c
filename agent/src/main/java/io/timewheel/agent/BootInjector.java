package io.timewheel.agent;

import java.io.IOException;
import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Set;

/**
 * Makes {@link io.timewheel.agent.bridge.ExecutorBridge}, and nothing else of the agent or the
 * executor, visible to the bootstrap class loader, so that code rewritten inside {@code java.base}
 * ({@code Executors}, {@code CompletableFuture$Delayer}) can call it. Not thread safe; called once, by
 * the agent's start-up.
 */
final class BootInjector {
    /*
     * Implementation notes.
     *
     * The bridge's class file is read from the agent jar (ClassFiles) and defined in the bootstrap
     * loader through ClassDefiner. It lands in the bootstrap loader's unnamed module; java.base is then
     * given a read edge to it, as a named module reads no unnamed module by default.
     *
     * The executor classes are not defined here: the system class loader loads them from the agent jar
     * (or from the application's class path, if the application has its own copy ahead of the agent),
     * so they never pass for JDK classes (a null getClassLoader()).
     */

    static final String BRIDGE_NAME = SwapRewriter.BRIDGE.replace('/', '.');

    private BootInjector() {
    }

    /**
     * The bridge as the bootstrap loader sees it.
     *
     * @param bridge   the class, defined by the bootstrap loader
     * @param injected false if it was there already (the same classes added to the boot class path by hand)
     * @param definer  the definer that defined it, or null if none was needed
     */
    record Boot(Class<?> bridge, boolean injected, ClassDefiner definer) {
    }

    static Boot inject(Instrumentation instrumentation) throws Exception {
        Class<?> bridge = bootClass(BRIDGE_NAME);
        boolean injected = bridge == null;
        ClassDefiner definer = null;
        if (injected) {
            definer = ClassDefiner.create(instrumentation);
            definer.define(BRIDGE_NAME, bridgeClassFile(), null, null);
            bridge = bootClass(BRIDGE_NAME);
            if (bridge == null) {
                throw new IllegalStateException(BRIDGE_NAME + " was defined but the bootstrap loader cannot find it");
            }
        }
        Module javaBase = Object.class.getModule();
        if (!javaBase.canRead(bridge.getModule())) {
            instrumentation.redefineModule(javaBase, Set.of(bridge.getModule()), Map.of(), Map.of(), Set.of(), Map.of());
        }
        return new Boot(bridge, injected, definer);
    }

    /** The class named {@code binaryName} if the bootstrap loader has it, else null; loads, never initialises. */
    static Class<?> bootClass(String binaryName) {
        try {
            return Class.forName(binaryName, false, null);
        } catch (ClassNotFoundException | LinkageError absent) {
            return null;
        }
    }

    /** The bridge's class file, from the agent jar. */
    static byte[] bridgeClassFile() throws IOException {
        return ClassFiles.of(BootInjector.class, SwapRewriter.BRIDGE);
    }
}
