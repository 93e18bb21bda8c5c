package io.timewheel.agent;

import io.timewheel.executor.WheelScheduledExecutorService;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rewriting on real compiler output: the {@code fixtures} classes go through the agent's
 * transformer, are loaded under verification, and run.
 */
class SwapRewriterTest {

    private static final Class<?> WHEEL = WheelScheduledExecutorService.class;
    private static final Class<?> STPE = ScheduledThreadPoolExecutor.class;

    private final List<ExecutorService> toShutDown = new ArrayList<>();

    @AfterEach
    void shutDown() {
        toShutDown.forEach(ExecutorService::shutdownNow);
    }

    private static SwapTransformer transformer(String agentArguments, Set<String> wheelFinalMethods) {
        AgentOptions options = AgentOptions.resolve(agentArguments, new Properties(), Map.of());
        assertEquals(List.of(), options.problems());
        return new SwapTransformer(options, WHEEL, wheelFinalMethods);
    }

    private static TransformingLoader loader(String agentArguments) {
        return new TransformingLoader(transformer(agentArguments, Set.of()));
    }

    @SuppressWarnings("unchecked")
    private List<ScheduledExecutorService> call(Class<?> type, String method, Object... arguments) throws Exception {
        Class<?>[] parameterTypes = new Class<?>[arguments.length];
        for (int i = 0; i < arguments.length; i++) {
            parameterTypes[i] = arguments[i] instanceof Boolean ? boolean.class
                    : arguments[i] instanceof Integer ? int.class : arguments[i].getClass();
        }
        List<ScheduledExecutorService> built = (List<ScheduledExecutorService>) type.getMethod(method, parameterTypes)
                .invoke(null, arguments);
        toShutDown.addAll(built);
        return built;
    }

    private static void assertAllWheel(List<? extends ExecutorService> executors) {
        assertFalse(executors.isEmpty());
        for (ExecutorService executor : executors) {
            assertSame(WHEEL, executor.getClass(), executor.toString());
        }
    }

    private Object construct(Class<?> type, Class<?> parameterType, Object argument) throws Exception {
        Constructor<?> constructor = type.getConstructor(parameterType);
        try {
            Object built = constructor.newInstance(argument);
            toShutDown.add((ExecutorService) built);
            return built;
        } catch (InvocationTargetException e) {
            throw (Exception) e.getCause();
        }
    }

    @Test
    void everyConstructionShape_buildsTheWheelExecutor() throws Exception {
        Class<?> fixture = loader("").initialise("fixtures.Constructions");
        assertAllWheel(call(fixture, "allFourConstructors"));
        assertAllWheel(call(fixture, "nested"));
        assertAllWheel(call(fixture, "ternaries", true));
        assertAllWheel(call(fixture, "ternaries", false));
        assertAllWheel(call(fixture, "lambdas"));
        assertAllWheel(call(fixture, "tryCatch"));
        assertAllWheel(call(fixture, "switchWithTry", 0, "x"));
        assertAllWheel(call(fixture, "switchWithTry", 1, "3"));
        assertAllWheel(call(fixture, "switchWithTry", 1, "not a number"));
        assertAllWheel(call(fixture, "loop", 3));
        assertAllWheel(List.of((ExecutorService) fixture.getField("STATIC_FIELD").get(null),
                (ExecutorService) fixture.getField("STATIC_FALLBACK").get(null)));
    }

    @Test
    void swappedConstruction_keepsTheJdkArgumentChecks() throws Exception {
        Class<?> fixture = loader("").initialise("fixtures.Constructions");
        // tryCatch builds new STPE(-1) and new STPE(1, null) inside try blocks: both must still throw.
        List<ScheduledExecutorService> built = call(fixture, "tryCatch");
        assertEquals(3, built.size());
    }

    @Test
    void wheelExecutorFromRewrittenCode_runsTasks() throws Exception {
        Class<?> fixture = loader("").initialise("fixtures.Constructions");
        ScheduledExecutorService executor = call(fixture, "allFourConstructors").get(0);
        assertEquals("ran", executor.schedule(() -> "ran", 1, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS));
    }

    @Test
    void directSubclass_isRebased_andItsOverridesStillRun() throws Exception {
        TransformingLoader loader = loader("");
        Class<?> subclass = loader.initialise("fixtures.ComputedSuper");
        assertSame(WHEEL, subclass.getSuperclass());
        for (Object built : List.of(construct(subclass, int.class, 6), construct(subclass, String.class, " 2 "),
                construct(subclass, boolean.class, true), construct(subclass, boolean.class, false),
                construct(subclass, ScheduledThreadPoolExecutor.class, new ScheduledThreadPoolExecutor(1)))) {
            ScheduledThreadPoolExecutor executor = (ScheduledThreadPoolExecutor) built;
            ExecutorService helper = (ExecutorService) subclass.getField("helper").get(executor);
            toShutDown.add(helper);
            assertSame(WHEEL, helper.getClass());
            assertEquals("ok", executor.schedule((Callable<String>) () -> "ok", 1, TimeUnit.MILLISECONDS)
                    .get(10, TimeUnit.SECONDS));
            executor.schedule(() -> { }, 1, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS);
            Object decorated = subclass.getField("decorated").get(executor);
            assertEquals("2", decorated.toString(), "both decorateTask overrides called");
        }
        assertTrue(loader.rewritten.contains("fixtures.ComputedSuper"));
    }

    @Test
    void negativeCoreSize_throwsThroughTheRebasedSuperCall() throws Exception {
        Class<?> subclass = loader("").initialise("fixtures.ComputedSuper");
        // Math.max(1, n) keeps the int constructor legal; the template one passes the JDK's value on.
        Object built = construct(subclass, int.class, -5);
        assertEquals(1, ((ScheduledThreadPoolExecutor) built).getCorePoolSize());
    }

    @Test
    void anonymousAndInnerSubclasses_areRebased() throws Exception {
        TransformingLoader loader = loader("");
        Class<?> constructions = loader.initialise("fixtures.Constructions");
        ExecutorService anonymous = (ExecutorService) constructions.getMethod("anonymous").invoke(null);
        toShutDown.add(anonymous);
        assertTrue(anonymous.getClass().isAnonymousClass());
        assertSame(WHEEL, anonymous.getClass().getSuperclass());

        Class<?> generic = loader.initialise("fixtures.GenericSubclass");
        Object outer = construct(generic, Comparable.class, "value");
        Class<?> inner = loader.initialise("fixtures.GenericSubclass$Inner");
        assertSame(WHEEL, inner.getSuperclass());
        Object innerInstance = inner.getConstructor(generic).newInstance(outer);
        toShutDown.add((ExecutorService) innerInstance);
        assertEquals("value", inner.getMethod("outerValue").invoke(innerInstance));
    }

    @Test
    void genericSubclass_signatureNamesTheWheelExecutorToo() throws Exception {
        Class<?> generic = loader("").initialise("fixtures.GenericSubclass");
        assertSame(WHEEL, generic.getSuperclass());
        assertSame(WHEEL, generic.getGenericSuperclass());
        assertEquals("value", ((Supplier<?>) construct(generic, Comparable.class, "value")).get());
    }

    @Test
    void constructorsOnly_swapsConstructionsButNeverTheSuperCall() throws Exception {
        Class<?> subclass = loader("subclasses=false").initialise("fixtures.ComputedSuper");
        assertSame(STPE, subclass.getSuperclass());
        Object built = construct(subclass, boolean.class, true); // new STPE(2) inside the super(..) arguments
        ExecutorService helper = (ExecutorService) subclass.getField("helper").get(built);
        toShutDown.add(helper);
        assertSame(WHEEL, helper.getClass());
        assertEquals("ok", ((ScheduledThreadPoolExecutor) built).schedule(() -> "ok", 1, TimeUnit.MILLISECONDS)
                .get(10, TimeUnit.SECONDS));
    }

    @Test
    void subclassesOnly_rebasesButLeavesConstructionsAlone() throws Exception {
        TransformingLoader loader = loader("constructors=false");
        Class<?> subclass = loader.initialise("fixtures.ComputedSuper");
        assertSame(WHEEL, subclass.getSuperclass());
        Object built = construct(subclass, boolean.class, true);
        ExecutorService helper = (ExecutorService) subclass.getField("helper").get(built);
        toShutDown.add(helper);
        assertSame(STPE, helper.getClass());

        Class<?> constructions = loader.initialise("fixtures.Constructions");
        for (ScheduledExecutorService executor : call(constructions, "allFourConstructors")) {
            assertSame(STPE, executor.getClass());
        }
        assertFalse(loader.rewritten.contains("fixtures.Constructions"));
    }

    @Test
    void subclassOverridingAFinalWheelMethod_staysOnTheJdkExecutor() throws Exception {
        String execute = "execute(Ljava/lang/Runnable;)V";
        TransformingLoader loader = new TransformingLoader(transformer("", Set.of(execute)));
        Class<?> subclass = loader.initialise("fixtures.ExecuteOverride");
        assertSame(STPE, subclass.getSuperclass());
        toShutDown.add((ExecutorService) subclass.getConstructor().newInstance());

        SwapRewriter.Outcome outcome = SwapRewriter.rewrite(TransformingLoader.classFile("fixtures/ExecuteOverride"),
                new SwapRewriter.Plan(true, true, null), Set.of(execute));
        assertFalse(outcome.rebased());
        assertTrue(outcome.refusal().contains(execute), outcome.refusal());
    }

    @Test
    void descriptorOnlyMentions_areNotRewritten() throws Exception {
        byte[] classFile = TransformingLoader.classFile("fixtures/DescriptorOnly");
        assertFalse(ClassFileScan.hasUtf8(classFile, ClassFileScan.utf8(SwapRewriter.STPE)));
        assertTrue(ClassFileScan.hasUtf8(TransformingLoader.classFile("fixtures/Constructions"),
                ClassFileScan.utf8(SwapRewriter.STPE)));
        assertFalse(ClassFileScan.hasUtf8(new byte[]{1, 2, 3}, ClassFileScan.utf8(SwapRewriter.STPE)));
        TransformingLoader loader = loader("");
        loader.initialise("fixtures.DescriptorOnly");
        assertFalse(loader.rewritten.contains("fixtures.DescriptorOnly"));
    }

    @Test
    void rebaseSignature_replacesOnlyTheSuperclass() {
        String stpe = "Ljava/util/concurrent/ScheduledThreadPoolExecutor;";
        String wheel = "Lio/timewheel/executor/WheelScheduledExecutorService;";
        assertNull(SwapRewriter.rebaseSignature(null));
        assertEquals(wheel + "Ljava/util/function/Supplier<TT;>;",
                SwapRewriter.rebaseSignature(stpe + "Ljava/util/function/Supplier<TT;>;"));
        assertEquals("<T::Ljava/lang/Comparable<-TT;>;>" + wheel,
                SwapRewriter.rebaseSignature("<T::Ljava/lang/Comparable<-TT;>;>" + stpe));
        String other = "<T:" + stpe + ">Ljava/lang/Object;";
        assertEquals(other, SwapRewriter.rebaseSignature(other), "a bound is not the superclass");
    }

    @Test
    void executorsOfThisJdk_callsTheBridgeForTheFourFactoryConstructionsOnly() {
        SwapTransformer transformer = transformer("", Set.of());
        byte[] original = TransformingLoader.classFile(SwapTransformer.EXECUTORS);
        byte[] rewritten = transform(transformer, null, SwapTransformer.EXECUTORS, original);
        assertNotNull(rewritten);
        assertEquals(4, transformer.executorsSwaps.get());
        Map<String, List<String>> bridgeCalls = new TreeMap<>();
        List<String> namesOfStpeOrWheel = new ArrayList<>();
        new ClassReader(rewritten).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitTypeInsn(int opcode, String type) {
                        if (type.equals(SwapRewriter.STPE) || type.equals(SwapRewriter.WHEEL)) {
                            namesOfStpeOrWheel.add(name + descriptor + ": " + opcode + " " + type);
                        }
                    }

                    @Override
                    public void visitMethodInsn(int opcode, String owner, String method, String desc, boolean itf) {
                        if (owner.equals(SwapRewriter.BRIDGE)) {
                            assertEquals(Opcodes.INVOKESTATIC, opcode);
                            bridgeCalls.computeIfAbsent(name + descriptor, k -> new ArrayList<>()).add(method + desc);
                        }
                        if (owner.equals(SwapRewriter.STPE) || owner.equals(SwapRewriter.WHEEL)) {
                            namesOfStpeOrWheel.add(name + descriptor + ": " + owner + "." + method);
                        }
                    }
                };
            }
        }, 0);
        String stpe = "Ljava/util/concurrent/ScheduledThreadPoolExecutor;";
        assertEquals(Map.of(
                "newScheduledThreadPool(I)Ljava/util/concurrent/ScheduledExecutorService;",
                List.of("newExecutor(I)" + stpe),
                "newScheduledThreadPool(ILjava/util/concurrent/ThreadFactory;)Ljava/util/concurrent/ScheduledExecutorService;",
                List.of("newExecutor(ILjava/util/concurrent/ThreadFactory;)" + stpe),
                "newSingleThreadScheduledExecutor()Ljava/util/concurrent/ScheduledExecutorService;",
                List.of("newExecutor(I)" + stpe),
                "newSingleThreadScheduledExecutor(Ljava/util/concurrent/ThreadFactory;)Ljava/util/concurrent/ScheduledExecutorService;",
                List.of("newExecutor(ILjava/util/concurrent/ThreadFactory;)" + stpe)),
                bridgeCalls);
        // The JDK class names neither executor any more: it links to the bridge only.
        assertEquals(List.of(), namesOfStpeOrWheel);
        assertNull(transform(transformer("factories=false", Set.of()), null, SwapTransformer.EXECUTORS, original));
    }

    @Test
    void jdkClassesOtherThanTheTargets_areNeverTransformed() {
        SwapTransformer transformer = transformer("jdkInternal=true", Set.of());
        byte[] completableFuture = TransformingLoader.classFile("java/util/concurrent/CompletableFuture");
        assertNull(transform(transformer, null, "java/util/concurrent/CompletableFuture", completableFuture));
        // The same bytes under an application loader and a JDK name: the name alone rules it out.
        assertNull(transform(transformer, getClass().getClassLoader(), "java/util/concurrent/CompletableFuture",
                completableFuture));
        assertFalse(transformer.eligible("io/timewheel/agent/shaded/bytebuddy/ByteBuddy"));
        assertFalse(transformer.eligible("jdk/internal/Foo"));
        assertFalse(transformer.eligible("com/sun/Foo"));
        assertFalse(transformer.eligible("sun/misc/Foo"));
        assertTrue(transformer.eligible("com/sunny/Foo"));
    }

    @Test
    void includeAndExclude_selectClassesByPrefix() {
        SwapTransformer transformer = transformer("include=com.app.|org.lib.,exclude=com.app.legacy.", Set.of());
        assertTrue(transformer.eligible("com/app/Main"));
        assertTrue(transformer.eligible("org/lib/Scheduler$1"));
        assertFalse(transformer.eligible("com/app/legacy/Old"));
        assertFalse(transformer.eligible("com/other/Main"));
    }

    @Test
    void classOfALoaderThatCannotSeeTheWheel_isLeftAlone() throws Exception {
        SwapTransformer transformer = transformer("", Set.of());
        ClassLoader blind = new ClassLoader("blind", ClassLoader.getPlatformClassLoader()) { };
        byte[] classFile = TransformingLoader.classFile("fixtures/Constructions");
        assertNull(transform(transformer, blind, "fixtures/Constructions", classFile));
        assertNotNull(transform(transformer, getClass().getClassLoader(), "fixtures/Constructions", classFile));
    }

    @Test
    void classFileTheAgentCannotRead_isLeftAlone_neverThrown() {
        byte[] future = TransformingLoader.classFile("fixtures/Constructions").clone();
        future[6] = 0; // major version 99: newer than the agent's ASM reads
        future[7] = 99;
        assertNull(transform(transformer("", Set.of()), getClass().getClassLoader(), "fixtures/Constructions", future));
    }

    @Test
    void brokenNesting_inAMixedPlan_leavesTheClassAsItIs() throws Exception {
        byte[] odd = oddSubclass();
        SwapRewriter.Outcome mixed = SwapRewriter.rewrite(odd, new SwapRewriter.Plan(true, false, null), Set.of());
        assertNull(mixed.bytes());
        assertTrue(mixed.refusal().contains("does not nest"), mixed.refusal());

        // With both rewrites on, every STPE.<init> is swapped: correct without telling them apart.
        SwapRewriter.Outcome both = SwapRewriter.rewrite(odd, new SwapRewriter.Plan(true, true, null), Set.of());
        assertTrue(both.rebased());
        Class<?> loaded = new ClassLoader(getClass().getClassLoader()) {
            Class<?> define(byte[] bytes) {
                return defineClass("fixtures.Odd", bytes, 0, bytes.length);
            }
        }.define(both.bytes());
        ExecutorService instance = (ExecutorService) loaded.getConstructor().newInstance();
        toShutDown.add(instance);
        assertSame(WHEEL, loaded.getSuperclass());
    }

    /**
     * {@code class Odd extends STPE { Odd() { NEW Object; DUP; super(1); Object.<init>; POP } }}: legal
     * bytecode no compiler emits, with a {@code new} left open across the super(..) call.
     */
    private static byte[] oddSubclass() {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, "fixtures/Odd", null, SwapRewriter.STPE, null);
        MethodVisitor init = writer.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitTypeInsn(Opcodes.NEW, "java/lang/Object");
        init.visitInsn(Opcodes.DUP);
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitInsn(Opcodes.ICONST_1);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, SwapRewriter.STPE, "<init>", "(I)V", false);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        init.visitInsn(Opcodes.POP);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }

    private static byte[] transform(SwapTransformer transformer, ClassLoader loader, String name, byte[] classFile) {
        return transformer.transform(loader, name, null, null, classFile);
    }
}
