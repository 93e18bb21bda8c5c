package io.timewheel.agent;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.FieldVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * nettyTimers on the real HashedWheelTimer of netty-common 4.1 (with and without the taskExecutor
 * constructor) and 4.2: the rewritten class is loaded under verification by a {@link NettyLoader}, the
 * netty module's classes are defined in that loader as the agent defines them in a child class loader,
 * and a scenario through Netty's API ({@code fixtures.netty.TimerScenario}) reports the same outcomes
 * as on Netty's own class from the same jar.
 */
class NettyTimerSwapTest {

    private static final String HWT = "io.netty.util.HashedWheelTimer";

    /** The netty-common versions the build copied (agent/pom.xml): 4.1, 4.2, and 4.1 before the taskExecutor constructor. */
    static Stream<String> nettyVersions() {
        return Stream.of(System.getProperty("netty.version"), System.getProperty("netty42.version"),
                System.getProperty("netty.old.version"));
    }

    static Path jar(String version) {
        Path jar = Paths.get(System.getProperty("netty.jars", "target/netty-common"), "netty-common-" + version + ".jar");
        assertTrue(Files.isRegularFile(jar), "no " + jar + ": run the build's generate-test-resources phase");
        return jar;
    }

    static NettyTimerTransformer transformer() {
        return new NettyTimerTransformer(NettyTimerSwapTest.class.getClassLoader(),
                NettyTimerSwapTest.class.getProtectionDomain(), WheelShape.WHEEL_NAME, () -> NettyLoader.INJECTOR);
    }

    static byte[] originalClassFile(String version) throws IOException {
        try (ZipFile zip = new ZipFile(jar(version).toFile());
             InputStream in = zip.getInputStream(zip.getEntry("io/netty/util/HashedWheelTimer.class"))) {
            return in.readAllBytes();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> scenario(NettyLoader loader) throws Exception {
        return ((Supplier<Map<String, String>>) Class.forName("fixtures.netty.TimerScenario", true, loader)
                .getConstructor().newInstance()).get();
    }

    /** What TimerScenario reports on Netty's own timer, every version: the swapped one must report the same. */
    private static void assertNettysPromises(Map<String, String> seen) {
        assertNull(seen.get("failure"), seen.toString());
        seen.forEach((key, value) -> {
            if (key.startsWith("[")) {
                assertEquals("fired", value, key);
            }
        });
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put("afterAThrowingTaskAndACancel", "fired");
        expected.put("cancel", "true,false,true,runs=0");
        expected.put("pending", "2");
        expected.put("stop", "2,true");
        expected.put("stop.again", "0");
        expected.put("afterStop.newTimeout", IllegalStateException.class.getName());
        expected.put("afterStop.start", IllegalStateException.class.getName());
        expected.put("stopped.runs", "0");
        expected.put("maxPending", java.util.concurrent.RejectedExecutionException.class.getName());
        expected.put("check.nullThreadFactory", NullPointerException.class.getName());
        expected.put("check.nullUnit", NullPointerException.class.getName());
        expected.put("check.zeroTick", IllegalArgumentException.class.getName());
        expected.put("check.negativeTick", IllegalArgumentException.class.getName());
        expected.put("check.zeroTicksPerWheel", IllegalArgumentException.class.getName());
        expected.put("check.tickOverflow", IllegalArgumentException.class.getName());
        expected.put("check.tickJustBelowTheOverflow", "ok");
        expected.put("check.tickAtTheOverflow", IllegalArgumentException.class.getName());
        expected.put("check.nullTask", NullPointerException.class.getName());
        expected.put("check.nullDelayUnit", NullPointerException.class.getName());
        expected.forEach((key, value) -> assertEquals(value, seen.get(key), key + " in " + seen));
    }

    @ParameterizedTest(name = "netty-common {0}")
    @MethodSource("nettyVersions")
    void swappedTimer_loadsVerified_delegates_andReportsWhatNettysOwnDoes(String version) throws Exception {
        Map<String, String> nettys = scenario(new NettyLoader("netty-" + version, jar(version), null));
        assertNettysPromises(nettys);

        NettyLoader loader = new NettyLoader("swapped-netty-" + version, jar(version), transformer());
        Map<String, String> swapped = scenario(loader);
        // The one difference on old versions (README): their stop() returns its timeouts without cancelling them.
        boolean old = version.equals(System.getProperty("netty.old.version"));
        assertEquals(old ? "false" : "true", nettys.remove("stop.returnedCancelled"));
        assertEquals("true", swapped.remove("stop.returnedCancelled"));
        assertEquals(nettys, swapped);
        Class<?> hwt = Class.forName(HWT, false, loader);
        Class<?> delegate = hwt.getDeclaredField(HashedWheelTimerRewriter.FIELD).getType();
        assertEquals("io.timewheel.netty.WheelTimer", delegate.getName());
        assertSame(loader, delegate.getClassLoader(), "the netty module is defined beside netty-common");
        assertTrue(Class.forName("io.netty.util.Timer", false, loader).isAssignableFrom(delegate));
    }

    @Test
    void ticksPerWheelAbove2To30_isAnIllegalArgument() throws Exception {
        NettyLoader loader = new NettyLoader("swapped", jar(System.getProperty("netty.version")), transformer());
        Class<?> hwt = Class.forName(HWT, true, loader);
        InvocationTargetException thrown = assertThrows(InvocationTargetException.class, () -> hwt
                .getConstructor(ThreadFactory.class, long.class, TimeUnit.class, int.class)
                .newInstance(Executors.defaultThreadFactory(), 100L, TimeUnit.MILLISECONDS, (1 << 30) + 1));
        assertEquals(IllegalArgumentException.class, thrown.getCause().getClass());
        Object largest = hwt.getConstructor(ThreadFactory.class, long.class, TimeUnit.class, int.class)
                .newInstance(Executors.defaultThreadFactory(), 100L, TimeUnit.MILLISECONDS, 1 << 30); // no wheel allocated
        hwt.getMethod("stop").invoke(largest);
    }

    /** Each method's code as a list of instructions, by name and descriptor. */
    private static Map<String, List<String>> code(byte[] classFile) {
        Map<String, List<String>> methods = new TreeMap<>();
        new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
                List<String> instructions = new ArrayList<>();
                methods.put(name + descriptor, instructions);
                return new MethodVisitor(Opcodes.ASM9) {
                    @Override
                    public void visitInsn(int opcode) {
                        instructions.add(Integer.toString(opcode));
                    }

                    @Override
                    public void visitVarInsn(int opcode, int varIndex) {
                        instructions.add(opcode + " " + varIndex);
                    }

                    @Override
                    public void visitTypeInsn(int opcode, String type) {
                        instructions.add(opcode + " " + type);
                    }

                    @Override
                    public void visitFieldInsn(int opcode, String owner, String name1, String descriptor1) {
                        instructions.add(opcode + " " + owner + "." + name1);
                    }

                    @Override
                    public void visitMethodInsn(int opcode, String owner, String name1, String descriptor1, boolean itf) {
                        instructions.add(opcode + " " + owner + "." + name1 + descriptor1);
                    }

                    @Override
                    public void visitJumpInsn(int opcode, net.bytebuddy.jar.asm.Label label) {
                        instructions.add(Integer.toString(opcode));
                    }

                    @Override
                    public void visitLdcInsn(Object value) {
                        instructions.add("ldc " + value);
                    }
                };
            }
        }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        return methods;
    }

    private static List<String> fields(byte[] classFile) {
        List<String> fields = new ArrayList<>();
        new ClassReader(classFile).accept(new ClassVisitor(Opcodes.ASM9) {
            @Override
            public FieldVisitor visitField(int access, String name, String descriptor, String signature, Object value) {
                fields.add(name + " " + descriptor);
                return null;
            }
        }, 0);
        return fields;
    }

    @ParameterizedTest(name = "netty-common {0}")
    @MethodSource("nettyVersions")
    void rewrite_addsTheDelegateField_andReplacesOnlyTheMainConstructorAndTheTimersMethods(String version)
            throws Exception {
        byte[] original = originalClassFile(version);
        HashedWheelTimerRewriter.Outcome outcome = HashedWheelTimerRewriter.rewrite(original);
        assertNull(outcome.refusal());
        assertNotNull(outcome.bytes());

        List<String> fields = fields(original);
        fields.add(HashedWheelTimerRewriter.FIELD + " Lio/timewheel/netty/WheelTimer;");
        assertEquals(fields, fields(outcome.bytes()));

        Map<String, List<String>> before = code(original);
        Map<String, List<String>> after = code(outcome.bytes());
        assertEquals(before.keySet(), after.keySet(), "no method added or removed");
        String field = "180 " + HashedWheelTimerRewriter.HASHED_WHEEL_TIMER + "." + HashedWheelTimerRewriter.FIELD; // getfield
        int mains = 0;
        for (String method : before.keySet()) {
            List<String> code = after.get(method);
            if (method.startsWith("<init>") && before.get(method).contains("183 java/lang/Object.<init>()V")) {
                mains++;
                String descriptor = method.substring("<init>".length());
                assertEquals("183 java/lang/Object.<init>()V", code.get(1), method);
                assertEquals("184 " + HashedWheelTimerRewriter.SWAP + "." + HashedWheelTimerRewriter.SWAP_METHOD
                        + HashedWheelTimerRewriter.swapDescriptor(descriptor), code.get(code.size() - 3), method);
                assertEquals("181 " + HashedWheelTimerRewriter.HASHED_WHEEL_TIMER + "." + HashedWheelTimerRewriter.FIELD,
                        code.get(code.size() - 2), method); // putfield
            } else if (HashedWheelTimerRewriter.DELEGATED.contains(method)) {
                assertEquals(field, code.get(1), method);
                assertTrue(code.contains("182 " + HashedWheelTimerRewriter.WHEEL_TIMER + "." + method), method + ": " + code);
            } else if (method.equals("finalize()V")) {
                assertEquals(List.of(Integer.toString(Opcodes.RETURN)), code, "an empty finalize: no finalization");
            } else {
                assertEquals(before.get(method), code, method + " is copied as it is");
            }
        }
        assertEquals(1, mains, "one main constructor");
    }

    /**
     * A HashedWheelTimer-like class file: the given superclass, main constructors and field; the given methods
     * are abstract, so they do not count as instance methods to delegate.
     */
    private static byte[] synthetic(String superName, List<String> mainConstructors, List<String> methods, String field) {
        ClassWriter writer = new ClassWriter(ClassWriter.COMPUTE_MAXS);
        writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, HashedWheelTimerRewriter.HASHED_WHEEL_TIMER, null, superName, null);
        if (field != null) {
            writer.visitField(Opcodes.ACC_PRIVATE, field, "I", null, null).visitEnd();
        }
        for (String descriptor : mainConstructors) {
            MethodVisitor init = writer.visitMethod(Opcodes.ACC_PUBLIC, "<init>", descriptor, null, null);
            init.visitCode();
            init.visitVarInsn(Opcodes.ALOAD, 0);
            init.visitMethodInsn(Opcodes.INVOKESPECIAL, superName, "<init>", "()V", false);
            init.visitInsn(Opcodes.RETURN);
            init.visitMaxs(0, 0);
            init.visitEnd();
        }
        for (String method : methods) {
            int paren = method.indexOf('(');
            MethodVisitor m = writer.visitMethod(Opcodes.ACC_PUBLIC | Opcodes.ACC_ABSTRACT, method.substring(0, paren),
                    method.substring(paren), null, null);
            m.visitEnd();
        }
        writer.visitEnd();
        return writer.toByteArray();
    }

    @Test
    void rewrite_refusesEveryShapeItDoesNotKnow() {
        List<String> methods = HashedWheelTimerRewriter.DELEGATED;
        String main = HashedWheelTimerRewriter.MAIN_WITH_EXECUTOR;
        assertRefused("it has no instance method start()V", synthetic("java/lang/Object", List.of(main), List.of(), null));
        assertRefused("it has no instance method start()V", synthetic("java/lang/Object", List.of(main), methods, null));
        assertRefused("its constructor <init>(Ljava/util/concurrent/ThreadFactory;J)V is not one of Netty 4.0 to 4.2's",
                synthetic("java/lang/Object", List.of(main, "(Ljava/util/concurrent/ThreadFactory;J)V"), methods, null));
        assertRefused("no constructor of it calls Object's", synthetic("java/lang/Object", List.of(), methods, null));
        assertRefused("its superclass is java.lang.Thread, not Object",
                synthetic("java/lang/Thread", List.of(main), methods, null));
        assertRefused("it already has a field " + HashedWheelTimerRewriter.FIELD,
                synthetic("java/lang/Object", List.of(main), methods, HashedWheelTimerRewriter.FIELD));
    }

    private static void assertRefused(String why, byte[] classFile) {
        HashedWheelTimerRewriter.Outcome outcome = HashedWheelTimerRewriter.rewrite(classFile);
        assertNull(outcome.bytes());
        assertEquals(why, outcome.refusal());
    }

    /**
     * Runs {@code action}, returns what it printed on stderr. With the agent's debug output on, so that no
     * problem line is held back by the cap on them (other tests print some too).
     */
    private static String stderrOf(Runnable action) {
        PrintStream saved = System.err;
        boolean debug = AgentLog.debugEnabled();
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        AgentLog.debugEnabled(true);
        try {
            action.run();
        } finally {
            AgentLog.debugEnabled(debug);
            System.setErr(saved);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aClassItCannotRewrite_isLeftAsItIs_withOneLine() throws Exception {
        NettyTimerTransformer transformer = transformer();
        NettyLoader loader = new NettyLoader("unknown-shape", jar(System.getProperty("netty.version")), null);
        byte[] unknown = synthetic("java/lang/Object", List.of("(I)V"), HashedWheelTimerRewriter.DELEGATED, null);
        String printed = stderrOf(() -> assertNull(transformer.transform(loader, HashedWheelTimerRewriter.HASHED_WHEEL_TIMER,
                null, null, unknown)));
        assertEquals(AgentLog.PREFIX + "left io.netty.util.HashedWheelTimer of class loader " + AgentLog.describe(loader)
                + " as it is: its constructor <init>(I)V is not one of Netty 4.0 to 4.2's" + System.lineSeparator(), printed);
        assertNull(transformer.transform(loader, "io/netty/util/Timer", null, null, unknown), "other classes: untouched");
    }

    @Test
    void bootstrapAndPlatformLoaders_areLeftAlone() throws Exception {
        byte[] original = originalClassFile(System.getProperty("netty.version"));
        NettyTimerTransformer transformer = transformer();
        String printed = stderrOf(() -> {
            assertNull(transformer.transform(null, HashedWheelTimerRewriter.HASHED_WHEEL_TIMER, null, null, original));
            assertNull(transformer.transform(ClassLoader.getPlatformClassLoader(), HashedWheelTimerRewriter.HASHED_WHEEL_TIMER,
                    null, null, original));
        });
        assertTrue(printed.contains("as it is: the bootstrap class loader cannot see the wheel executor"), printed);
        assertTrue(printed.contains("as it is: the platform class loader cannot see the wheel executor"), printed);
    }

    @Test
    void retransformation_repeatsTheLoadTimeRewrite_andLeavesClassesLoadedBeforeAlone() throws Exception {
        byte[] original = originalClassFile(System.getProperty("netty.version"));
        NettyTimerTransformer transformer = transformer();
        NettyLoader swapped = new NettyLoader("swapped", jar(System.getProperty("netty.version")), transformer);
        Class<?> hwt = Class.forName(HWT, false, swapped);
        byte[] again = transformer.transform(swapped, HashedWheelTimerRewriter.HASHED_WHEEL_TIMER, hwt, null, original);
        assertArrayEquals(HashedWheelTimerRewriter.rewrite(original).bytes(), again, "the same class file, so the same shape");

        NettyLoader before = new NettyLoader("loaded-before-the-agent", jar(System.getProperty("netty.version")), null);
        Class<?> unswapped = Class.forName(HWT, false, before);
        assertNull(transformer.transform(before, HashedWheelTimerRewriter.HASHED_WHEEL_TIMER, unswapped, null, original),
                "a loaded class cannot gain a field");
    }

    @Test
    void fits_refusesAWheelTimerBuiltOnAnotherNettyCommon() throws Exception {
        NettyLoader loader = new NettyLoader("child", jar(System.getProperty("netty42.version")), null);
        Class<?> timer = Class.forName("io.netty.util.Timer", false, loader);
        // The loader resolves io.timewheel.netty.WheelTimer through its parent, where it implements the parent's Timer.
        String misfit = NettyTimerTransformer.Fits.check(loader, timer);
        assertNotNull(misfit);
        assertTrue(misfit.startsWith("io.timewheel.netty.WheelTimer from ") && misfit.endsWith(
                " is not an io.netty.util.Timer of that loader"), misfit);
        assertNull(NettyTimerTransformer.Fits.check(NettyTimerSwapTest.class.getClassLoader(),
                Class.forName("io.netty.util.Timer")), "the test class path's own netty-common and netty module fit");
    }
}
