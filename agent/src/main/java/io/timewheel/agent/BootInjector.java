package io.timewheel.agent;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.net.URISyntaxException;
import java.security.CodeSource;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

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
     * The bridge's class file is read from the agent jar (directly when the agent was loaded from a
     * plain jar file: cheaper at start-up than a class loader resource, which goes through URL handlers
     * and probes the JDK's modules first) and defined in the bootstrap loader through BootDefiner. It
     * lands in the bootstrap loader's unnamed module; java.base is then given a read edge to it, as a
     * named module reads no unnamed module by default.
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
     */
    record Boot(Class<?> bridge, boolean injected) {
    }

    static Boot inject(Instrumentation instrumentation) throws Exception {
        Class<?> bridge = bootClass(BRIDGE_NAME);
        boolean injected = bridge == null;
        if (injected) {
            BiFunction<String, byte[], Class<?>> definer = BootDefiner.create(instrumentation);
            definer.apply(BRIDGE_NAME, bridgeClassFile());
            bridge = bootClass(BRIDGE_NAME);
            if (bridge == null) {
                throw new IllegalStateException(BRIDGE_NAME + " was defined but the bootstrap loader cannot find it");
            }
        }
        Module javaBase = Object.class.getModule();
        if (!javaBase.canRead(bridge.getModule())) {
            instrumentation.redefineModule(javaBase, Set.of(bridge.getModule()), Map.of(), Map.of(), Set.of(), Map.of());
        }
        return new Boot(bridge, injected);
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
        String entryName = SwapRewriter.BRIDGE + ".class";
        try {
            CodeSource source = BootInjector.class.getProtectionDomain().getCodeSource();
            if (source != null && source.getLocation() != null && "file".equals(source.getLocation().getProtocol())) {
                File location = new File(source.getLocation().toURI());
                if (location.isFile()) {
                    try (JarFile agentJar = new JarFile(location)) {
                        JarEntry entry = agentJar.getJarEntry(entryName);
                        if (entry != null) {
                            try (InputStream in = agentJar.getInputStream(entry)) {
                                return in.readAllBytes();
                            }
                        }
                    }
                }
            }
        } catch (IOException | URISyntaxException | RuntimeException notAPlainJar) {
            // fall back to the class loader
        }
        try (InputStream in = BootInjector.class.getResourceAsStream("/" + entryName)) {
            if (in == null) {
                throw new IllegalStateException("the agent jar has no " + entryName);
            }
            return in.readAllBytes();
        }
    }
}
