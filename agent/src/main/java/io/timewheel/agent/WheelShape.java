package io.timewheel.agent;

import net.bytebuddy.jar.asm.Type;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.RejectedExecutionHandler;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;

/**
 * Checks that a class named like the wheel executor is one the rewriting can target: it extends STPE
 * directly and has STPE's four public constructors. Stateless: any thread.
 */
final class WheelShape {
    /*
     * Implementation notes.
     *
     * By reflection on the loaded (not initialised) class rather than on its class file: the class may
     * come from any class loader (the agent's own copy, or an application's other version), and
     * reflection sees exactly what linking will. getConstructor and getDeclaredMethods invoke nothing,
     * so no java.lang.invoke machinery is spun up at start-up.
     */

    static final String WHEEL_NAME = SwapRewriter.WHEEL.replace('/', '.');

    private static final List<Class<?>[]> CONSTRUCTORS = List.of(
            new Class<?>[]{int.class},
            new Class<?>[]{int.class, ThreadFactory.class},
            new Class<?>[]{int.class, RejectedExecutionHandler.class},
            new Class<?>[]{int.class, ThreadFactory.class, RejectedExecutionHandler.class});

    private WheelShape() {
    }

    /**
     * {@code name + descriptor} of the final public and protected instance methods {@code wheel}
     * declares (a subclass overriding one cannot be rebased onto it).
     *
     * @throws IllegalStateException saying what is wrong, if the class is not usable as the wheel executor
     */
    static Set<String> check(Class<?> wheel) {
        if (wheel.getSuperclass() != ScheduledThreadPoolExecutor.class) {
            throw new IllegalStateException(wheel.getName() + " does not extend ScheduledThreadPoolExecutor directly");
        }
        for (Class<?>[] parameters : CONSTRUCTORS) {
            try {
                wheel.getConstructor(parameters);
            } catch (NoSuchMethodException absent) {
                throw new IllegalStateException(wheel.getName() + " lacks the public constructor "
                        + Type.getMethodDescriptor(Type.VOID_TYPE, types(parameters)));
            }
        }
        Set<String> finals = new HashSet<>();
        for (Method method : wheel.getDeclaredMethods()) {
            int modifiers = method.getModifiers();
            if (Modifier.isFinal(modifiers) && !Modifier.isStatic(modifiers)
                    && (Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers))) {
                finals.add(method.getName() + Type.getMethodDescriptor(method));
            }
        }
        return Set.copyOf(finals);
    }

    private static Type[] types(Class<?>[] classes) {
        Type[] types = new Type[classes.length];
        for (int i = 0; i < classes.length; i++) {
            types[i] = Type.getType(classes[i]);
        }
        return types;
    }

    /** Where a class was loaded from, for messages. */
    static String origin(Class<?> type) {
        try {
            java.security.CodeSource source = type.getProtectionDomain().getCodeSource();
            return source == null || source.getLocation() == null ? "(no code source)" : source.getLocation().toString();
        } catch (RuntimeException unknown) {
            return "(unknown)";
        }
    }
}
