package io.timewheel.agent;

import net.bytebuddy.jar.asm.AnnotationVisitor;
import net.bytebuddy.jar.asm.Attribute;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.FieldVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;
import net.bytebuddy.jar.asm.TypePath;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Rewrites Netty's {@code io.netty.util.HashedWheelTimer} class file so that each instance delegates to
 * an {@code io.timewheel.netty.WheelTimer} its constructor makes. Stateless: any thread.
 */
final class HashedWheelTimerRewriter {
    /*
     * Implementation notes
     *
     * What the rewritten class does:
     *   - It gets one field, timewheel$timer (private final synthetic, of type WheelTimer): the delegate.
     *   - Its main constructor, the one every other constructor ends in through this(..), gets a new
     *    body: Object.<init>(), then timewheel$timer = HashedWheelTimerSwap.delegate(this, <its arguments
     *    but leakDetection>), a static method that checks the arguments as Netty does and returns
     *    WheelTimer.behind(this, ..). The original body (the wheel, the worker thread from the thread
     *    factory, the leak tracker, the instance counter behind the "too many instances" warning) never
     *    runs. The other constructors keep their bodies: they compute defaults and call this(..).
     *   - start(), newTimeout(..), stop() and pendingTimeouts() get a one-call body: the same method on
     *    timewheel$timer. finalize() (Netty 4.1 and 4.2 decrement the instance counter there) gets an
     *    empty body, which also tells the JVM that instances need no finalization.
     *   - Everything else stays: the static initialiser, the nested classes (Worker, HashedWheelTimeout,
     *    HashedWheelBucket) and the synthetic accessors they call, which no swapped instance ever
     *    reaches (the nested classes are created only by the bodies replaced above).
     * Netty's own fields stay, unassigned (null or 0): the verifier does not require final fields to be
     * assigned, and only the replaced bodies read them.
     *
     * Which Netty versions: a dry run first checks the shape the rewrite relies on, and anything else is
     * refused (the class is left as it is): the superclass is Object; every constructor either calls
     * this(..) first or is a main constructor with one of the two known descriptors, (ThreadFactory,
     * long tickDuration, TimeUnit, int ticksPerWheel, boolean leakDetection, long maxPendingTimeouts),
     * Netty 4.0 and 4.1 up to the taskExecutor variant, and that one plus Executor taskExecutor, Netty 4.1
     * since and 4.2; the four public methods exist with their descriptors. A constructor "calls this(..)
     * first" when the first <init> call with no NEW open is on this class (the bracket nesting of
     * NEW/<init> that compilers emit, as in SwapRewriter).
     *
     * The new bodies have no branch, so they need no stack map frame; their max stack and locals are
     * computed here from the descriptors. Everything else is copied as it is.
     */

    static final String HASHED_WHEEL_TIMER = "io/netty/util/HashedWheelTimer";
    /** The delegate's class (the netty module) and the constructor half of the swap (this agent). */
    static final String WHEEL_TIMER = "io/timewheel/netty/WheelTimer";
    static final String SWAP = "io/timewheel/agent/netty/HashedWheelTimerSwap";
    static final String SWAP_METHOD = "delegate";
    static final String FIELD = "timewheel$timer";

    static final String MAIN_WITH_EXECUTOR =
            "(Ljava/util/concurrent/ThreadFactory;JLjava/util/concurrent/TimeUnit;IZJLjava/util/concurrent/Executor;)V";
    static final String MAIN_WITHOUT_EXECUTOR = "(Ljava/util/concurrent/ThreadFactory;JLjava/util/concurrent/TimeUnit;IZJ)V";
    /** Position of the boolean leakDetection in both main descriptors: the delegate has no use for it. */
    private static final int LEAK_DETECTION = 4;

    private static final String TIMER = "Lio/netty/util/Timer;";
    private static final String WHEEL_TIMER_DESCRIPTOR = "L" + WHEEL_TIMER + ";";
    /** name + descriptor of the methods that delegate. */
    static final List<String> DELEGATED = List.of("start()V",
            "newTimeout(Lio/netty/util/TimerTask;JLjava/util/concurrent/TimeUnit;)Lio/netty/util/Timeout;",
            "stop()Ljava/util/Set;", "pendingTimeouts()J");
    private static final String FINALIZE = "finalize()V";
    private static final String CONSTRUCTOR = "<init>";
    private static final int API = Opcodes.ASM9;

    private HashedWheelTimerRewriter() {
    }

    /**
     * What was done.
     *
     * @param bytes   the rewritten class file, or null when the class is left as it is
     * @param refusal why it is left as it is, or null
     */
    record Outcome(byte[] bytes, String refusal) {
    }

    /** The descriptor of {@code HashedWheelTimerSwap.delegate} for a main constructor's descriptor. */
    static String swapDescriptor(String mainDescriptor) {
        Type[] arguments = Type.getArgumentTypes(mainDescriptor);
        StringBuilder d = new StringBuilder("(").append(TIMER);
        for (int i = 0; i < arguments.length; i++) {
            if (i != LEAK_DETECTION) {
                d.append(arguments[i].getDescriptor());
            }
        }
        return d.append(')').append(WHEEL_TIMER_DESCRIPTOR).toString();
    }

    /**
     * Rewrites {@code classFile}, Netty's HashedWheelTimer, or says why not.
     *
     * @throws IllegalArgumentException if ASM cannot read the class file
     */
    static Outcome rewrite(byte[] classFile) {
        ClassReader reader = new ClassReader(classFile);
        Shape shape = new Shape();
        reader.accept(shape, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        String refusal = shape.refusal(reader.getSuperName());
        if (refusal != null) {
            return new Outcome(null, refusal);
        }
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(new Swap(writer, shape.mainConstructors), 0);
        return new Outcome(writer.toByteArray(), null);
    }

    /** The dry run: constructors, methods and fields, and whether the rewrite fits them. */
    private static final class Shape extends ClassVisitor {
        private final Set<String> methods = new HashSet<>();
        private final List<String> mainConstructors = new ArrayList<>();
        private boolean fieldTaken;
        private String brokenConstructor;

        Shape() {
            super(API);
        }

        String refusal(String superName) {
            if (!"java/lang/Object".equals(superName)) {
                return "its superclass is " + superName.replace('/', '.') + ", not Object";
            }
            if (fieldTaken) {
                return "it already has a field " + FIELD;
            }
            if (brokenConstructor != null) {
                return "constructor " + brokenConstructor + " does not nest its new/<init> pairs as compilers do";
            }
            if (mainConstructors.isEmpty()) {
                return "no constructor of it calls Object's";
            }
            for (String main : mainConstructors) {
                if (!main.equals(MAIN_WITH_EXECUTOR) && !main.equals(MAIN_WITHOUT_EXECUTOR)) {
                    return "its constructor " + CONSTRUCTOR + main + " is not one of Netty 4.0 to 4.2's";
                }
            }
            for (String method : DELEGATED) {
                if (!methods.contains(method)) {
                    return "it has no instance method " + method;
                }
            }
            return null;
        }

        @Override
        public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
            fieldTaken |= FIELD.equals(name);
            return null;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            if ((access & (Opcodes.ACC_STATIC | Opcodes.ACC_ABSTRACT)) == 0) {
                methods.add(name + descriptor);
            }
            if (!CONSTRUCTOR.equals(name)) {
                return null;
            }
            return new MethodVisitor(API) {
                private final ArrayDeque<String> openNews = new ArrayDeque<>();
                private boolean decided;

                @Override
                public void visitTypeInsn(int opcode, String type) {
                    if (opcode == Opcodes.NEW) {
                        openNews.push(type);
                    }
                }

                @Override
                public void visitMethodInsn(int opcode, String owner, String name1, String descriptor1, boolean isInterface) {
                    if (opcode != Opcodes.INVOKESPECIAL || !CONSTRUCTOR.equals(name1)) {
                        return;
                    }
                    if (!openNews.isEmpty()) {
                        if (!openNews.pop().equals(owner)) {
                            brokenConstructor = CONSTRUCTOR + descriptor;
                        }
                    } else if (!decided) { // the this(..) or super(..) call
                        decided = true;
                        if (!HASHED_WHEEL_TIMER.equals(owner)) {
                            mainConstructors.add(descriptor);
                        }
                    }
                }

                @Override
                public void visitEnd() {
                    if (!decided || !openNews.isEmpty()) {
                        brokenConstructor = CONSTRUCTOR + descriptor;
                    }
                }
            };
        }
    }

    /** The rewriting pass. */
    private static final class Swap extends ClassVisitor {
        /** Descriptors of the constructors that call Object's (the dry run's); the others call this(..) and stay. */
        private final List<String> mainConstructors;

        Swap(ClassVisitor next, List<String> mainConstructors) {
            super(API, next);
            this.mainConstructors = mainConstructors;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            MethodVisitor target = super.visitMethod(access, name, descriptor, signature, exceptions);
            boolean instance = (access & Opcodes.ACC_STATIC) == 0;
            if (CONSTRUCTOR.equals(name) && mainConstructors.contains(descriptor)) {
                return new NewBody(target) {
                    @Override
                    void write(MethodVisitor code) {
                        mainConstructor(code, descriptor);
                    }
                };
            }
            if (instance && DELEGATED.contains(name + descriptor)) {
                return new NewBody(target) {
                    @Override
                    void write(MethodVisitor code) {
                        delegate(code, name, descriptor);
                    }
                };
            }
            if (instance && FINALIZE.equals(name + descriptor)) {
                return new NewBody(target) {
                    @Override
                    void write(MethodVisitor code) {
                        code.visitInsn(Opcodes.RETURN);
                        code.visitMaxs(0, 1);
                    }
                };
            }
            return target;
        }

        @Override
        public void visitEnd() {
            super.visitField(Opcodes.ACC_PRIVATE | Opcodes.ACC_FINAL | Opcodes.ACC_SYNTHETIC, FIELD, WHEEL_TIMER_DESCRIPTOR,
                    null, null).visitEnd();
            super.visitEnd();
        }

        /** {@code super(); this.timewheel$timer = HashedWheelTimerSwap.delegate(this, args but leakDetection); } */
        private static void mainConstructor(MethodVisitor code, String descriptor) {
            code.visitVarInsn(Opcodes.ALOAD, 0);
            code.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", CONSTRUCTOR, "()V", false);
            code.visitVarInsn(Opcodes.ALOAD, 0);
            code.visitVarInsn(Opcodes.ALOAD, 0);
            Type[] arguments = Type.getArgumentTypes(descriptor);
            int local = 1;
            int stack = 2;
            for (int i = 0; i < arguments.length; i++) {
                if (i != LEAK_DETECTION) {
                    code.visitVarInsn(arguments[i].getOpcode(Opcodes.ILOAD), local);
                    stack += arguments[i].getSize();
                }
                local += arguments[i].getSize();
            }
            code.visitMethodInsn(Opcodes.INVOKESTATIC, SWAP, SWAP_METHOD, swapDescriptor(descriptor), false);
            code.visitFieldInsn(Opcodes.PUTFIELD, HASHED_WHEEL_TIMER, FIELD, WHEEL_TIMER_DESCRIPTOR);
            code.visitInsn(Opcodes.RETURN);
            code.visitMaxs(stack, local);
        }

        /** {@code return this.timewheel$timer.name(args); } */
        private static void delegate(MethodVisitor code, String name, String descriptor) {
            code.visitVarInsn(Opcodes.ALOAD, 0);
            code.visitFieldInsn(Opcodes.GETFIELD, HASHED_WHEEL_TIMER, FIELD, WHEEL_TIMER_DESCRIPTOR);
            int local = 1;
            for (Type argument : Type.getArgumentTypes(descriptor)) {
                code.visitVarInsn(argument.getOpcode(Opcodes.ILOAD), local);
                local += argument.getSize();
            }
            code.visitMethodInsn(Opcodes.INVOKEVIRTUAL, WHEEL_TIMER, name, descriptor, false);
            Type returned = Type.getReturnType(descriptor);
            code.visitInsn(returned.getOpcode(Opcodes.IRETURN));
            code.visitMaxs(Math.max(local, returned.getSize()), local); // receiver + arguments on the stack
        }
    }

    /**
     * Replaces a method's code with what {@link #write} emits, and keeps the method's annotations and
     * parameters. The original instructions, frames, exception table and debug information are dropped.
     */
    private abstract static class NewBody extends MethodVisitor {
        private final MethodVisitor target;

        NewBody(MethodVisitor target) {
            super(API); // no delegate: the original code goes nowhere
            this.target = target;
        }

        /** Emits the whole body, visitMaxs included. */
        abstract void write(MethodVisitor code);

        @Override
        public void visitParameter(String name, int access) {
            target.visitParameter(name, access);
        }

        @Override
        public AnnotationVisitor visitAnnotationDefault() {
            return target.visitAnnotationDefault();
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            return target.visitAnnotation(descriptor, visible);
        }

        @Override
        public AnnotationVisitor visitTypeAnnotation(int typeRef, TypePath typePath, String descriptor, boolean visible) {
            return target.visitTypeAnnotation(typeRef, typePath, descriptor, visible);
        }

        @Override
        public void visitAnnotableParameterCount(int parameterCount, boolean visible) {
            target.visitAnnotableParameterCount(parameterCount, visible);
        }

        @Override
        public AnnotationVisitor visitParameterAnnotation(int parameter, String descriptor, boolean visible) {
            return target.visitParameterAnnotation(parameter, descriptor, visible);
        }

        @Override
        public void visitAttribute(Attribute attribute) {
            // non-standard attributes may describe the old code: dropped with it
        }

        @Override
        public void visitCode() {
            target.visitCode();
            write(target);
        }

        @Override
        public void visitEnd() {
            target.visitEnd();
        }
    }
}
