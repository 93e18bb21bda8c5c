package io.timewheel.agent;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.ConstantDynamic;
import net.bytebuddy.jar.asm.Handle;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

import java.util.ArrayDeque;
import java.util.Set;

/**
 * Rewrites one class file so that what it builds, or what it extends, is the wheel executor instead of
 * the JDK's {@code ScheduledThreadPoolExecutor} (STPE). Stateless: any thread.
 */
final class SwapRewriter {
    /*
     * Implementation notes
     *
     * Two rewrites, and both only change a class name inside instructions that are already there: no
     * instruction is added, removed or moved, so max stack, max locals and every stack map frame stay valid
     * as javac wrote them, and nothing has to be loaded to recompute frames.
     *   1. Construction swap: NEW STPE becomes NEW Wheel, and {@code INVOKESPECIAL
     *    STPE.<init>(d)} becomes Wheel.<init>(d) with the same descriptor d (the wheel executor has
     *    STPE's four public constructors). Constructor references (REF_newInvokeSpecial handles, as
     *    javac emits for ScheduledThreadPoolExecutor::new) are retargeted the same way.
     *   2. Rebase: a class whose direct superclass is STPE gets the wheel executor as its superclass (and
     *    in its generic Signature), and the super(..) call of each of its constructors is
     *    retargeted to the wheel executor's constructor of the same descriptor. Its overrides of STPE's
     *    hooks now override the wheel executor's, which calls them as STPE does.
     *
     * The verifier pairs every <init> call with the NEW of the same class. So in a method
     * that cannot hold a super(..) call to STPE (everything except the constructors of a direct
     * subclass), swapping every NEW STPE and every STPE.<init> is correct whatever the
     * control flow: ternaries, try/catch, nested new in argument lists, lambda bodies, static
     * initialisers. In the constructors of a direct subclass an STPE.<init> is either the
     * super(..) call or the initialisation of a new; with both rewrites on, both are
     * swapped and the difference does not matter. Only when exactly one is on must they be told apart,
     * and there we rely on the nesting every Java compiler emits: NEW ... <init> pairs nest like
     * brackets in code order, and the super(..) call is the <init> met with no NEW
     * open. A dry run first checks that nesting as far as a linear scan can (a NEW closed by the
     * <init> of another class, or left open); a class that fails it is left as it is. Hand-written
     * bytecode that keeps a NEW STPE open across the super(..) call would pass that check
     * and be mis-rewritten; no compiler emits it.
     *
     * Classes of the bootstrap loader (Executors, CompletableFuture$Delayer) cannot
     * name the wheel executor, which the system class loader defines. For them a construction goes
     * through io.timewheel.agent.bridge.ExecutorBridge instead (Plan#viaBridge()):
     * NEW STPE; DUP; args; INVOKESPECIAL STPE.<init>(d)V becomes {@code args; INVOKESTATIC
     * ExecutorBridge.newExecutor(d')} where d' is d returning STPE. That removes two instructions, so it
     * is done only where it cannot invalidate anything: the DUP must follow the NEW at
     * once, and no stack map frame may fall between the NEW and its <init> (a frame there
     * would name the removed NEW as an uninitialised type). Max stack stays an upper bound (the
     * rewritten code needs two slots less). The targeted JDK methods are straight-line code; a JDK whose
     * code breaks these rules has its class left as it is, with one line.
     */

    /** Internal name of the JDK class being replaced. */
    static final String STPE = "java/util/concurrent/ScheduledThreadPoolExecutor";
    /** Internal name of its replacement; it must have STPE's four public constructors. */
    static final String WHEEL = "io/timewheel/executor/WheelScheduledExecutorService";
    /** Internal name of the bootstrap-visible factory the rewritten JDK classes call. */
    static final String BRIDGE = "io/timewheel/agent/bridge/ExecutorBridge";
    static final String BRIDGE_METHOD = "newExecutor";

    private static final String STPE_DESCRIPTOR = "L" + STPE + ";";
    private static final String WHEEL_DESCRIPTOR = "L" + WHEEL + ";";
    private static final String CONSTRUCTOR = "<init>";
    /** The ASM API level of the relocated Byte Buddy copy. */
    private static final int API = Opcodes.ASM9;

    private SwapRewriter() {
    }

    /**
     * What to do to one class.
     *
     * @param constructions swap {@code new ScheduledThreadPoolExecutor(..)} and constructor references
     * @param rebase        rebase the class onto the wheel executor if it directly extends STPE
     * @param onlyMethods   names of the methods whose constructions to swap, or null for every method
     * @param viaBridge     constructions call {@code ExecutorBridge.newExecutor} instead of naming the
     *                      wheel executor (for classes of the bootstrap loader; see the class notes)
     */
    record Plan(boolean constructions, boolean rebase, Set<String> onlyMethods, boolean viaBridge) {

        /** A plan for a class that can name the wheel executor. */
        Plan(boolean constructions, boolean rebase, Set<String> onlyMethods) {
            this(constructions, rebase, onlyMethods, false);
        }
    }

    /**
     * What was done.
     *
     * @param bytes         the rewritten class file, or null when the class is unchanged
     * @param constructions how many constructions and constructor references were swapped
     * @param rebased       whether the class was rebased onto the wheel executor
     * @param refusal       why something the plan asked for was not done, or null
     */
    record Outcome(byte[] bytes, int constructions, boolean rebased, String refusal) {
        static final Outcome UNCHANGED = new Outcome(null, 0, false, null);
    }

    /**
     * Rewrites {@code classFile} according to {@code plan}.
     *
     * @param wheelFinalMethods {@code name + descriptor} of the wheel executor's final public and
     *                          protected instance methods: a subclass overriding one is not rebased
     * @throws IllegalArgumentException if ASM cannot read the class file (for example a newer version)
     * @throws IllegalStateException    if a bridged construction is not shaped as the class notes require
     */
    static Outcome rewrite(byte[] classFile, Plan plan, Set<String> wheelFinalMethods) {
        ClassReader reader = new ClassReader(classFile);
        boolean directSubclass = STPE.equals(reader.getSuperName());
        boolean rebase = plan.rebase() && directSubclass;
        String refusal = null;
        if (directSubclass && (plan.rebase() || plan.constructions())) {
            DryRun dry = new DryRun(wheelFinalMethods);
            reader.accept(dry, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
            if (rebase && dry.finalOverride != null) {
                rebase = false;
                refusal = "not rebased: it overrides " + dry.finalOverride + ", which is final in the wheel executor";
            }
            // Only when exactly one of the two rewrites applies must super(..) calls be told apart.
            if (rebase != plan.constructions() && dry.brokenNesting != null) {
                return new Outcome(null, 0, false, (refusal == null ? "" : refusal + "; ") + "constructor "
                        + dry.brokenNesting + " does not nest its new/<init> pairs as compilers do: left as it is");
            }
        }
        if (!rebase && !plan.constructions()) {
            return refusal == null ? Outcome.UNCHANGED : new Outcome(null, 0, false, refusal);
        }
        ClassWriter writer = new ClassWriter(reader, 0);
        Swap swap = new Swap(writer, plan.constructions(), rebase, directSubclass, plan.onlyMethods(), plan.viaBridge());
        reader.accept(swap, 0);
        boolean changed = swap.constructions > 0 || swap.rebased;
        return new Outcome(changed ? writer.toByteArray() : null, swap.constructions, swap.rebased, refusal);
    }

    /**
     * Replaces the superclass in a class {@code Signature} attribute ({@code <formal type
     * parameters>? superclass interfaces*}) when it is STPE; returns it unchanged otherwise.
     */
    static String rebaseSignature(String signature) {
        if (signature == null) {
            return null;
        }
        int start = 0;
        if (signature.startsWith("<")) {
            int depth = 0;
            do {
                char c = signature.charAt(start++);
                if (c == '<') {
                    depth++;
                } else if (c == '>') {
                    depth--;
                }
            } while (depth > 0);
        }
        return signature.startsWith(STPE_DESCRIPTOR, start)
                ? signature.substring(0, start) + WHEEL_DESCRIPTOR + signature.substring(start + STPE_DESCRIPTOR.length())
                : signature;
    }

    /** Retargets a constructor reference to STPE; returns any other constant unchanged. */
    private static Object retarget(Object constant) {
        if (constant instanceof Handle handle && isStpeConstructorHandle(handle)) {
            return new Handle(handle.getTag(), WHEEL, handle.getName(), handle.getDesc(), handle.isInterface());
        }
        if (constant instanceof ConstantDynamic dynamic) {
            Object[] arguments = new Object[dynamic.getBootstrapMethodArgumentCount()];
            boolean changed = false;
            for (int i = 0; i < arguments.length; i++) {
                Object argument = dynamic.getBootstrapMethodArgument(i);
                arguments[i] = retarget(argument);
                changed |= arguments[i] != argument;
            }
            return changed
                    ? new ConstantDynamic(dynamic.getName(), dynamic.getDescriptor(), dynamic.getBootstrapMethod(), arguments)
                    : dynamic;
        }
        return constant;
    }

    private static boolean isStpeConstructorHandle(Handle handle) {
        return handle.getTag() == Opcodes.H_NEWINVOKESPECIAL && STPE.equals(handle.getOwner());
    }

    /**
     * Tells the {@code <init>} calls of one method apart: a {@code super(..)}/{@code this(..)} call or
     * the initialisation of a {@code new}. Tracks the open {@code NEW}s only when asked to (constructors
     * of a direct STPE subclass); elsewhere every {@code <init>} initialises a {@code new}.
     */
    private static class InitTracker extends MethodVisitor {
        private final ArrayDeque<String> openNews;
        /** Set when the code does not nest NEW/&lt;init&gt; like brackets; see the class notes. */
        boolean broken;

        InitTracker(MethodVisitor next, boolean track) {
            super(API, next);
            this.openNews = track ? new ArrayDeque<>() : null;
        }

        /** Called for every NEW before it is passed on. */
        final void openNew(String type) {
            if (openNews != null) {
                openNews.push(type);
            }
        }

        /** Called for every INVOKESPECIAL &lt;init&gt;; true if it is a super(..) or this(..) call. */
        final boolean closeInit(String owner) {
            if (openNews == null) {
                return false;
            }
            if (openNews.isEmpty()) {
                return true;
            }
            if (!openNews.pop().equals(owner)) {
                broken = true;
            }
            return false;
        }

        final void checkClosed() {
            if (openNews != null && !openNews.isEmpty()) {
                broken = true;
            }
        }
    }

    /** First pass over a direct STPE subclass: nesting and final-method conflicts. */
    private static final class DryRun extends ClassVisitor {
        private final Set<String> wheelFinalMethods;
        String brokenNesting;
        String finalOverride;

        DryRun(Set<String> wheelFinalMethods) {
            super(API);
            this.wheelFinalMethods = wheelFinalMethods;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            if ((access & (Opcodes.ACC_STATIC | Opcodes.ACC_PRIVATE)) == 0
                    && wheelFinalMethods.contains(name + descriptor) && finalOverride == null) {
                finalOverride = name + descriptor;
            }
            if (!CONSTRUCTOR.equals(name)) {
                return null;
            }
            return new InitTracker(null, true) {
                @Override
                public void visitTypeInsn(int opcode, String type) {
                    if (opcode == Opcodes.NEW) {
                        openNew(type);
                    }
                }

                @Override
                public void visitMethodInsn(int opcode, String owner, String name1, String descriptor1, boolean isInterface) {
                    if (opcode == Opcodes.INVOKESPECIAL && CONSTRUCTOR.equals(name1)) {
                        closeInit(owner);
                    }
                }

                @Override
                public void visitEnd() {
                    checkClosed();
                    if (broken && brokenNesting == null) {
                        brokenNesting = CONSTRUCTOR + descriptor;
                    }
                }
            };
        }
    }

    /** The rewriting pass. */
    private static final class Swap extends ClassVisitor {
        private final boolean swapConstructions;
        private final boolean rebase;
        private final boolean directSubclass;
        private final Set<String> onlyMethods;
        private final boolean viaBridge;
        int constructions;
        boolean rebased;

        Swap(ClassVisitor next, boolean swapConstructions, boolean rebase, boolean directSubclass, Set<String> onlyMethods,
             boolean viaBridge) {
            super(API, next);
            this.viaBridge = viaBridge;
            this.swapConstructions = swapConstructions;
            this.rebase = rebase;
            this.directSubclass = directSubclass;
            this.onlyMethods = onlyMethods;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
            if (rebase) {
                superName = WHEEL;
                signature = rebaseSignature(signature);
                rebased = true;
            }
            super.visit(version, access, name, signature, superName, interfaces);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            MethodVisitor next = super.visitMethod(access, name, descriptor, signature, exceptions);
            boolean isConstructor = CONSTRUCTOR.equals(name);
            boolean swapHere = swapConstructions && (onlyMethods == null || onlyMethods.contains(name));
            boolean superCallsHere = rebase && isConstructor;
            if (!swapHere && !superCallsHere) {
                return next;
            }
            return new SwapMethod(next, directSubclass && isConstructor, swapHere, superCallsHere);
        }

        private final class SwapMethod extends InitTracker {
            private final boolean swapHere;
            private final boolean superCallsHere;

            /** Bridged NEWs whose {@code <init>} is still to come. */
            private int bridgedOpen;
            /** A bridged NEW was just dropped: the next instruction must be its DUP, dropped too. */
            private boolean dupExpected;

            SwapMethod(MethodVisitor next, boolean track, boolean swapHere, boolean superCallsHere) {
                super(next, track);
                this.swapHere = swapHere;
                this.superCallsHere = superCallsHere;
            }

            /** Called before anything but the DUP that must follow a dropped NEW. */
            private void notTheDup() {
                if (dupExpected) {
                    throw new IllegalStateException("a new " + STPE.replace('/', '.') + " is not followed by dup");
                }
            }

            @Override
            public void visitInsn(int opcode) {
                if (dupExpected) {
                    dupExpected = false;
                    if (opcode == Opcodes.DUP) {
                        return;
                    }
                    throw new IllegalStateException("a new " + STPE.replace('/', '.') + " is not followed by dup");
                }
                super.visitInsn(opcode);
            }

            @Override
            public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
                notTheDup();
                if (bridgedOpen > 0) {
                    throw new IllegalStateException("a stack map frame between new "
                            + STPE.replace('/', '.') + " and its constructor call");
                }
                super.visitFrame(type, numLocal, local, numStack, stack);
            }

            @Override
            public void visitMaxs(int maxStack, int maxLocals) {
                notTheDup();
                if (bridgedOpen != 0) {
                    throw new IllegalStateException("a new " + STPE.replace('/', '.') + " without its constructor call");
                }
                super.visitMaxs(maxStack, maxLocals);
            }

            @Override
            public void visitIntInsn(int opcode, int operand) {
                notTheDup();
                super.visitIntInsn(opcode, operand);
            }

            @Override
            public void visitVarInsn(int opcode, int varIndex) {
                notTheDup();
                super.visitVarInsn(opcode, varIndex);
            }

            @Override
            public void visitFieldInsn(int opcode, String owner, String name, String descriptor) {
                notTheDup();
                super.visitFieldInsn(opcode, owner, name, descriptor);
            }

            @Override
            public void visitJumpInsn(int opcode, Label label) {
                notTheDup();
                super.visitJumpInsn(opcode, label);
            }

            @Override
            public void visitLabel(Label label) {
                notTheDup();
                super.visitLabel(label);
            }

            @Override
            public void visitIincInsn(int varIndex, int increment) {
                notTheDup();
                super.visitIincInsn(varIndex, increment);
            }

            @Override
            public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
                notTheDup();
                super.visitTableSwitchInsn(min, max, dflt, labels);
            }

            @Override
            public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
                notTheDup();
                super.visitLookupSwitchInsn(dflt, keys, labels);
            }

            @Override
            public void visitMultiANewArrayInsn(String descriptor, int numDimensions) {
                notTheDup();
                super.visitMultiANewArrayInsn(descriptor, numDimensions);
            }

            @Override
            public void visitTypeInsn(int opcode, String type) {
                notTheDup();
                if (opcode == Opcodes.NEW && viaBridge && swapHere && STPE.equals(type)) {
                    bridgedOpen++;
                    dupExpected = true;
                    constructions++;
                    return;
                }
                if (opcode == Opcodes.NEW) {
                    openNew(type);
                    if (swapHere && STPE.equals(type)) {
                        type = WHEEL;
                        constructions++;
                    }
                }
                super.visitTypeInsn(opcode, type);
            }

            @Override
            public void visitMethodInsn(int opcode, String owner, String name, String descriptor, boolean isInterface) {
                notTheDup();
                if (viaBridge && opcode == Opcodes.INVOKESPECIAL && CONSTRUCTOR.equals(name) && STPE.equals(owner)
                        && swapHere) {
                    if (bridgedOpen == 0) {
                        throw new IllegalStateException("a constructor call of " + STPE.replace('/', '.')
                                + " without its new");
                    }
                    bridgedOpen--;
                    super.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, BRIDGE_METHOD,
                            descriptor.substring(0, descriptor.length() - 1) + STPE_DESCRIPTOR, false);
                    return;
                }
                if (opcode == Opcodes.INVOKESPECIAL && CONSTRUCTOR.equals(name)) {
                    boolean superCall = closeInit(owner);
                    if (STPE.equals(owner) && (superCall ? superCallsHere : swapHere)) {
                        owner = WHEEL;
                    }
                }
                super.visitMethodInsn(opcode, owner, name, descriptor, isInterface);
            }

            @Override
            public void visitInvokeDynamicInsn(String name, String descriptor, Handle bootstrap, Object... arguments) {
                notTheDup();
                if (swapHere && !viaBridge) {
                    Object[] swapped = arguments.clone();
                    for (int i = 0; i < swapped.length; i++) {
                        swapped[i] = retarget(arguments[i]);
                        if (swapped[i] != arguments[i]) {
                            constructions++;
                        }
                    }
                    arguments = swapped;
                }
                super.visitInvokeDynamicInsn(name, descriptor, bootstrap, arguments);
            }

            @Override
            public void visitLdcInsn(Object value) {
                notTheDup();
                if (swapHere && !viaBridge) {
                    Object swapped = retarget(value);
                    if (swapped != value) {
                        constructions++;
                        value = swapped;
                    }
                }
                super.visitLdcInsn(value);
            }
        }
    }
}
