package io.timewheel.agent;

import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

import java.lang.instrument.Instrumentation;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;

/**
 * Builds the function that defines classes in the bootstrap class loader: a small class, generated
 * here, that calls {@code jdk.internal.misc.Unsafe.defineClass(name, bytes, 0, length, null, null)}.
 * Not thread safe; used once, by the agent's start-up.
 */
final class BootDefiner {
    /*
     * Implementation notes
     *
     * The generated class lives in a throw-away class loader of its own, and jdk.internal.misc is
     * exported to that loader's unnamed module only: the application gains no access to JDK internals.
     * It calls Unsafe directly rather than through reflection because on JDK 18 and later a first
     * reflective call of a six-argument method spins up java.lang.invoke classes, some 40 ms of
     * start-up on JDK 25. Why not the alternatives: Instrumentation.appendToBootstrapClassLoaderSearch
     * makes HotSpot print a class-sharing warning on JDK 25; sun.misc.Unsafe warns on JDK 24 and
     * later; a Lookup can only define classes in its own package.
     */

    /** Internal name of the generated class; under io/timewheel/ so no transformer ever touches it. */
    private static final String NAME = "io/timewheel/agent/GeneratedBootDefiner";
    private static final String UNSAFE = "jdk/internal/misc/Unsafe";

    private BootDefiner() {
    }

    /** A function (binary name, class file) to the class it defined in the bootstrap class loader. */
    @SuppressWarnings("unchecked")
    static BiFunction<String, byte[], Class<?>> create(Instrumentation instrumentation) throws ReflectiveOperationException {
        IsolatedLoader loader = new IsolatedLoader();
        Class<?> definer = loader.define(NAME.replace('/', '.'), classFile());
        instrumentation.redefineModule(Object.class.getModule(), Set.of(),
                Map.of("jdk.internal.misc", Set.of(loader.getUnnamedModule())), Map.of(), Set.of(), Map.of());
        return (BiFunction<String, byte[], Class<?>>) definer.getConstructor().newInstance();
    }

    /**
     * <pre>{@code
     * public final class GeneratedBootDefiner implements BiFunction {
     *     public Object apply(Object name, Object bytes) {
     *         return Unsafe.getUnsafe().defineClass((String) name, (byte[]) bytes, 0, ((byte[]) bytes).length, null, null);
     *     }
     * }}</pre>
     */
    static byte[] classFile() {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SUPER, NAME, null,
                "java/lang/Object", new String[]{"java/util/function/BiFunction"});
        MethodVisitor init = writer.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        MethodVisitor apply = writer.visitMethod(Opcodes.ACC_PUBLIC, "apply",
                "(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", null, null);
        apply.visitCode();
        apply.visitMethodInsn(Opcodes.INVOKESTATIC, UNSAFE, "getUnsafe", "()L" + UNSAFE + ";", false);
        apply.visitVarInsn(Opcodes.ALOAD, 1);
        apply.visitTypeInsn(Opcodes.CHECKCAST, "java/lang/String");
        apply.visitVarInsn(Opcodes.ALOAD, 2);
        apply.visitTypeInsn(Opcodes.CHECKCAST, "[B");
        apply.visitInsn(Opcodes.ICONST_0);
        apply.visitVarInsn(Opcodes.ALOAD, 2);
        apply.visitTypeInsn(Opcodes.CHECKCAST, "[B");
        apply.visitInsn(Opcodes.ARRAYLENGTH);
        apply.visitInsn(Opcodes.ACONST_NULL);
        apply.visitInsn(Opcodes.ACONST_NULL);
        apply.visitMethodInsn(Opcodes.INVOKEVIRTUAL, UNSAFE, "defineClass",
                "(Ljava/lang/String;[BIILjava/lang/ClassLoader;Ljava/security/ProtectionDomain;)Ljava/lang/Class;", false);
        apply.visitInsn(Opcodes.ARETURN);
        apply.visitMaxs(0, 0);
        apply.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }

    /** Parent: the bootstrap loader, so the generated class sees java.base only. */
    private static final class IsolatedLoader extends ClassLoader {
        IsolatedLoader() {
            super("timewheel-agent-boot-definer", null);
        }

        Class<?> define(String name, byte[] classFile) {
            return defineClass(name, classFile, 0, classFile.length);
        }
    }
}
