package io.timewheel.agent;

import java.io.IOException;
import java.io.InputStream;
import java.lang.instrument.Instrumentation;
import java.util.ArrayList;
import java.util.List;

/**
 * Under attach (agentmain): retransforms the application classes loaded before the agent that name
 * STPE, so that constructions they perform from now on are swapped. Not thread safe; start-up only.
 *
 * <p>Candidates are found without retransforming anything: each loaded class's file is read back
 * through its loader and put through the same constant-pool filter as newly loaded classes. Classes
 * loaded before the agent cannot be rebased (a retransformation may not change a superclass).
 */
final class LoadedClasses {

    private static final byte[] STPE_UTF8 = ClassFileScan.utf8(SwapRewriter.STPE);

    private LoadedClasses() {
    }

    /** @return how many classes were retransformed */
    static int retransform(Instrumentation instrumentation, SwapTransformer transformer) {
        ClassLoader platform = ClassLoader.getPlatformClassLoader();
        List<Class<?>> candidates = new ArrayList<>();
        for (Class<?> type : instrumentation.getAllLoadedClasses()) {
            ClassLoader loader = type.getClassLoader();
            if (loader == null || loader == platform || type.isArray() || type.isPrimitive() || type.isHidden()
                    || !instrumentation.isModifiableClass(type)) {
                continue;
            }
            String internalName = type.getName().replace('.', '/');
            if (!transformer.eligible(internalName)) {
                continue;
            }
            byte[] classFile = classFileOf(loader, internalName);
            if (classFile != null && ClassFileScan.hasUtf8(classFile, STPE_UTF8)) {
                candidates.add(type);
            }
        }
        int retransformed = 0;
        for (Class<?> type : candidates) {
            try {
                instrumentation.retransformClasses(type);
                retransformed++;
            } catch (Throwable failure) {
                AgentLog.problem("left " + type.getName() + " as it is: retransforming failed: "
                        + AgentLog.describe(failure));
            }
        }
        return retransformed;
    }

    /** How many loaded classes are named {@code binaryName} (one per class loader that loaded it). */
    static int count(Instrumentation instrumentation, String binaryName) {
        int count = 0;
        for (Class<?> type : instrumentation.getAllLoadedClasses()) {
            if (type.getName().equals(binaryName)) {
                count++;
            }
        }
        return count;
    }

    /** Reads a class file the way its loader would find it, or null. */
    private static byte[] classFileOf(ClassLoader loader, String internalName) {
        try (InputStream in = loader.getResourceAsStream(internalName + ".class")) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException | RuntimeException unreadable) {
            return null;
        }
    }
}
