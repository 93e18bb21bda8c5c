package io.timewheel.agent;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.security.ProtectionDomain;
import java.util.function.BiFunction;

/**
 * Defines classes in the bootstrap class loader through {@code jdk.internal.misc.Unsafe#defineClass}.
 * Not thread safe; used once, by the agent's start-up.
 *
 * <p>This class is never loaded by the application's class loader: {@link BootInjector} defines it in a
 * throw-away class loader of its own and exports {@code jdk.internal.misc} to that loader's unnamed
 * module only. So the application gains no access to JDK internals, and the JVM has no reason to warn
 * (unlike {@code Instrumentation.appendToBootstrapClassLoaderSearch}, which makes HotSpot print a
 * class-sharing warning on JDK 25, or {@code sun.misc.Unsafe}, which warns on JDK 24 and later).
 * It may refer to nothing but {@code java.base}.
 */
public final class BootDefiner implements BiFunction<String, byte[], Class<?>> {

    private final Object unsafe;
    private final Method defineClass;

    public BootDefiner() throws ReflectiveOperationException {
        Class<?> unsafeClass = Class.forName("jdk.internal.misc.Unsafe");
        unsafe = unsafeClass.getMethod("getUnsafe").invoke(null);
        defineClass = unsafeClass.getMethod("defineClass", String.class, byte[].class, int.class, int.class,
                ClassLoader.class, ProtectionDomain.class);
    }

    /** Defines {@code binaryName} from {@code classFile} in the bootstrap class loader. */
    @Override
    public Class<?> apply(String binaryName, byte[] classFile) {
        try {
            return (Class<?>) defineClass.invoke(unsafe, binaryName, classFile, 0, classFile.length, null, null);
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(cause);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
