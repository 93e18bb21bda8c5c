package io.timewheel.agent;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

import java.io.File;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.security.CodeSource;
import java.lang.instrument.Instrumentation;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarInputStream;

/**
 * Makes the executor classes embedded in the agent jar visible to the bootstrap class loader, so that
 * code rewritten inside {@code java.base} ({@code Executors}, {@code CompletableFuture$Delayer}) can
 * name the wheel executor, and every class loader that delegates to its parent sees the same class.
 * Not thread safe; called once, by the agent's start-up.
 *
 * <h2>Implementation notes</h2>
 *
 * The executor jar sits in the agent jar as {@value #EMBEDDED_JAR}, where no class loader looks for
 * classes: the application class loader (which loads the agent) must never define its own copy. Its
 * classes are defined directly in the bootstrap loader, supertypes first (defining a class resolves its
 * superclass and interfaces at once; everything else resolves lazily), through {@link BootDefiner}.
 * They land in the bootstrap loader's unnamed module; {@code java.base} is then given a read edge to
 * it, as a named module reads no unnamed module by default.
 */
final class BootInjector {

    static final String EMBEDDED_JAR = "/META-INF/timewheel/timewheel-executor.jar";
    static final String WHEEL_NAME = SwapRewriter.WHEEL.replace('/', '.');
    /** STPE's four public constructors, which the wheel executor must have too. */
    private static final List<String> CONSTRUCTORS = List.of(
            "(I)V",
            "(ILjava/util/concurrent/ThreadFactory;)V",
            "(ILjava/util/concurrent/RejectedExecutionHandler;)V",
            "(ILjava/util/concurrent/ThreadFactory;Ljava/util/concurrent/RejectedExecutionHandler;)V");

    private BootInjector() {
    }

    /**
     * The wheel executor as the bootstrap loader sees it.
     *
     * @param wheel        the class, defined by the bootstrap loader
     * @param finalMethods {@code name + descriptor} of its final public/protected instance methods
     * @param injected     false if it was there already (a second agent start, or the same classes
     *                     added to the boot class path by hand)
     */
    record Boot(Class<?> wheel, Set<String> finalMethods, boolean injected) {
    }

    static Boot inject(Instrumentation instrumentation) throws Exception {
        Map<String, byte[]> classes = readEmbedded();
        byte[] wheelFile = classes.get(SwapRewriter.WHEEL);
        if (wheelFile == null) {
            throw new IllegalStateException(EMBEDDED_JAR + " has no " + WHEEL_NAME);
        }
        Set<String> finalMethods = checkShape(wheelFile);
        Class<?> wheel = bootClass(WHEEL_NAME);
        boolean injected = wheel == null;
        if (injected) {
            BiFunction<String, byte[], Class<?>> definer = BootDefiner.create(instrumentation);
            Set<String> defined = new HashSet<>();
            for (String name : classes.keySet()) {
                define(name, classes, defined, definer);
            }
            wheel = bootClass(WHEEL_NAME);
            if (wheel == null) {
                throw new IllegalStateException(WHEEL_NAME + " was defined but the bootstrap loader cannot find it");
            }
        }
        Module javaBase = Object.class.getModule();
        if (!javaBase.canRead(wheel.getModule())) {
            instrumentation.redefineModule(javaBase, Set.of(wheel.getModule()), Map.of(), Map.of(), Set.of(), Map.of());
        }
        return new Boot(wheel, finalMethods, injected);
    }

    /** The class named {@code binaryName} if the bootstrap loader has it, else null; loads, never initialises. */
    static Class<?> bootClass(String binaryName) {
        try {
            return Class.forName(binaryName, false, null);
        } catch (ClassNotFoundException | LinkageError absent) {
            return null;
        }
    }

    /** Internal name to class file, for every class of the embedded executor jar. */
    private static Map<String, byte[]> readEmbedded() throws IOException {
        Map<String, byte[]> classes = new LinkedHashMap<>();
        try (InputStream in = openEmbedded()) {
            try (JarInputStream jar = new JarInputStream(in)) {
                for (JarEntry entry; (entry = jar.getNextJarEntry()) != null; ) {
                    String name = entry.getName();
                    if (name.endsWith(".class") && !name.startsWith("META-INF/") && !name.endsWith("module-info.class")) {
                        classes.put(name.substring(0, name.length() - ".class".length()), jar.readAllBytes());
                    }
                }
            }
        }
        return classes;
    }

    /**
     * The embedded executor jar. Read from the agent jar directly when the agent was loaded from one
     * (cheaper at start-up than a class loader resource, which goes through URL handlers and probes the
     * JDK's modules first), else as a resource.
     */
    private static InputStream openEmbedded() throws IOException {
        String entryName = EMBEDDED_JAR.substring(1);
        try {
            CodeSource source = BootInjector.class.getProtectionDomain().getCodeSource();
            if (source != null && source.getLocation() != null && "file".equals(source.getLocation().getProtocol())) {
                JarFile agentJar = new JarFile(new File(source.getLocation().toURI()));
                JarEntry entry = agentJar.getJarEntry(entryName);
                if (entry != null) {
                    return new FilterInputStream(agentJar.getInputStream(entry)) {
                        @Override
                        public void close() throws IOException {
                            try {
                                super.close();
                            } finally {
                                agentJar.close();
                            }
                        }
                    };
                }
                agentJar.close();
            }
        } catch (IOException | URISyntaxException | RuntimeException notAPlainJar) {
            // fall back to the class loader
        }
        InputStream in = BootInjector.class.getResourceAsStream(EMBEDDED_JAR);
        if (in == null) {
            throw new IllegalStateException("the agent jar has no " + EMBEDDED_JAR);
        }
        return in;
    }

    /**
     * Checks that the wheel executor extends STPE and has its four constructors (what the rewriting
     * relies on) and returns its final public/protected instance methods.
     */
    private static Set<String> checkShape(byte[] wheelFile) {
        ClassReader reader = new ClassReader(wheelFile);
        if (!SwapRewriter.STPE.equals(reader.getSuperName())) {
            throw new IllegalStateException(WHEEL_NAME + " does not extend ScheduledThreadPoolExecutor");
        }
        Set<String> constructors = new HashSet<>();
        Set<String> finals = new HashSet<>();
        reader.accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                if ("<init>".equals(name) && (access & Opcodes.ACC_PUBLIC) != 0) {
                    constructors.add(descriptor);
                } else if ((access & Opcodes.ACC_FINAL) != 0 && (access & Opcodes.ACC_STATIC) == 0
                        && (access & (Opcodes.ACC_PUBLIC | Opcodes.ACC_PROTECTED)) != 0) {
                    finals.add(name + descriptor);
                }
                return null;
            }
        }, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        for (String descriptor : CONSTRUCTORS) {
            if (!constructors.contains(descriptor)) {
                throw new IllegalStateException(WHEEL_NAME + " lacks the public constructor " + descriptor);
            }
        }
        return Set.copyOf(finals);
    }

    private static void define(String name, Map<String, byte[]> classes, Set<String> defined,
                               BiFunction<String, byte[], Class<?>> definer) {
        if (!defined.add(name)) {
            return;
        }
        byte[] classFile = classes.get(name);
        ClassReader reader = new ClassReader(classFile);
        String superName = reader.getSuperName();
        if (superName != null && classes.containsKey(superName)) {
            define(superName, classes, defined, definer);
        }
        for (String itf : reader.getInterfaces()) {
            if (classes.containsKey(itf)) {
                define(itf, classes, defined, definer);
            }
        }
        String binaryName = name.replace('/', '.');
        if (bootClass(binaryName) == null) {
            definer.apply(binaryName, classFile);
        }
    }
}
