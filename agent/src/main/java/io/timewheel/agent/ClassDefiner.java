package io.timewheel.agent;

import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Defines classes in a class loader of the agent's choice, the bootstrap loader included, through a
 * small class generated here that calls {@code jdk.internal.misc.Unsafe.defineClass}. Immutable once
 * created: any thread.
 */
final class ClassDefiner {
    /*
     * Implementation notes
     *
     * The generated class lives in a throw-away class loader of its own, and jdk.internal.misc is
     * exported to that loader's unnamed module only: the application gains no access to JDK internals.
     * It calls Unsafe directly rather than through reflection because on JDK 18 and later a first
     * reflective call of a six-argument method spins up java.lang.invoke classes, some 40 ms of
     * start-up on JDK 25. Why not the alternatives: Instrumentation.appendToBootstrapClassLoaderSearch
     * makes HotSpot print a class-sharing warning on JDK 25; sun.misc.Unsafe warns on JDK 24 and
     * later; a Lookup can only define classes in its own package; ClassLoader.defineClass through
     * reflection needs java.lang opened, and opened to the agent's module it would be opened to every
     * class on the class path (the agent jar is on it).
     *
     * Users: BootInjector (the bridge, in the bootstrap loader, at start-up) and NettyTimerTransformer (the
     * netty module's classes, in the class loader of an io.netty.util.HashedWheelTimer, when one loads).
     */

    /** Internal name of the generated class; under io/timewheel/ so no transformer ever touches it. */
    private static final String NAME = "io/timewheel/agent/GeneratedClassDefiner";
    private static final String UNSAFE = "jdk/internal/misc/Unsafe";

    /** Takes {name, class file, loader, protection domain}; returns the class. Immutable. */
    private final Function<Object[], Object> unsafeDefine;

    private ClassDefiner(Function<Object[], Object> unsafeDefine) {
        this.unsafeDefine = unsafeDefine;
    }

    /** Generates the defining class and exports {@code jdk.internal.misc} to it alone. Start-up only. */
    @SuppressWarnings("unchecked")
    static ClassDefiner create(Instrumentation instrumentation) throws ReflectiveOperationException {
        IsolatedLoader loader = new IsolatedLoader();
        Class<?> definer = loader.define(NAME.replace('/', '.'), classFile());
        instrumentation.redefineModule(Object.class.getModule(), Set.of(),
                Map.of("jdk.internal.misc", Set.of(loader.getUnnamedModule())), Map.of(), Set.of(), Map.of());
        return new ClassDefiner((Function<Object[], Object>) definer.getConstructor().newInstance());
    }

    /**
     * Defines {@code classFile} as {@code binaryName} in {@code loader} (null: the bootstrap loader). No
     * check of the loader's own: the caller makes sure the loader has no class of that name.
     *
     * @throws LinkageError as {@code ClassLoader.defineClass} would (a duplicate, a bad class file, a
     *                      superclass the loader cannot resolve)
     */
    Class<?> define(String binaryName, byte[] classFile, ClassLoader loader, ProtectionDomain domain) {
        return (Class<?>) unsafeDefine.apply(new Object[]{binaryName, classFile, loader, domain});
    }

    /**
     * <pre>{@code
     * public final class GeneratedClassDefiner implements Function {
     *     public Object apply(Object request) {
     *         Object[] r = (Object[]) request; // name, class file, loader, protection domain
     *         return Unsafe.getUnsafe().defineClass((String) r[0], (byte[]) r[1], 0, ((byte[]) r[1]).length,
     *                 (ClassLoader) r[2], (ProtectionDomain) r[3]);
     *     }
     * }}</pre>
     */
    static byte[] classFile() {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_FINAL | Opcodes.ACC_SUPER, NAME, null,
                "java/lang/Object", new String[]{"java/util/function/Function"});
        MethodVisitor init = writer.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        MethodVisitor apply = writer.visitMethod(Opcodes.ACC_PUBLIC, "apply",
                "(Ljava/lang/Object;)Ljava/lang/Object;", null, null);
        apply.visitCode();
        apply.visitVarInsn(Opcodes.ALOAD, 1);
        apply.visitTypeInsn(Opcodes.CHECKCAST, "[Ljava/lang/Object;");
        apply.visitVarInsn(Opcodes.ASTORE, 2);
        apply.visitMethodInsn(Opcodes.INVOKESTATIC, UNSAFE, "getUnsafe", "()L" + UNSAFE + ";", false);
        element(apply, 0, "java/lang/String");
        element(apply, 1, "[B");
        apply.visitInsn(Opcodes.ICONST_0);
        element(apply, 1, "[B");
        apply.visitInsn(Opcodes.ARRAYLENGTH);
        element(apply, 2, "java/lang/ClassLoader");
        element(apply, 3, "java/security/ProtectionDomain");
        apply.visitMethodInsn(Opcodes.INVOKEVIRTUAL, UNSAFE, "defineClass",
                "(Ljava/lang/String;[BIILjava/lang/ClassLoader;Ljava/security/ProtectionDomain;)Ljava/lang/Class;", false);
        apply.visitInsn(Opcodes.ARETURN);
        apply.visitMaxs(0, 0);
        apply.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }

    /** Pushes {@code ((type) request[index])}; the request array is local 2. */
    private static void element(MethodVisitor method, int index, String type) {
        method.visitVarInsn(Opcodes.ALOAD, 2);
        method.visitIntInsn(Opcodes.BIPUSH, index);
        method.visitInsn(Opcodes.AALOAD);
        method.visitTypeInsn(Opcodes.CHECKCAST, type);
    }

    /** Parent: the bootstrap loader, so the generated class sees java.base only. */
    private static final class IsolatedLoader extends ClassLoader {
        IsolatedLoader() {
            super("timewheel-agent-class-definer", null);
        }

        Class<?> define(String name, byte[] classFile) {
            return defineClass(name, classFile, 0, classFile.length);
        }
    }
}
