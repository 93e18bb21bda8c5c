package io.timewheel.tck.fork;

import io.timewheel.executor.WheelScheduledExecutorService;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A fresh JVM's first executor with virtual-thread dispatch (Java 21+) pays the JDK's one-time cost of a first
 * virtual thread at construction, not on its first due run (RunDispatcher.VirtualThreads.warmUp): a forked
 * JVM builds one, and before anything is scheduled a carrier thread must already exist (the JDK starts it
 * inside the warm-up thread's start()); its first run's
 * thread must still be named {@code <name>-run-0} (the warm-up's thread comes from a factory of its own); no
 * invokedynamic call site of ours may be linked on the way (the dispatched run and the start of its thread
 * are classes, not lambdas); and no class of ours may be loaded between the first schedule and its run (the
 * pool loads the dispatched run's class when it is built, as ColdStartTest checks for the platform mode). No
 * timing is asserted: what is checked is what the JVM had done.
 */
class VirtualThreadWarmUpTest {

    /** The forked JVM: prints whether a carrier thread exists after build(), then the first run's thread name. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            WheelScheduledExecutorService executor = WheelScheduledExecutorService.builder()
                    .name("warm").corePoolSize(1).virtualThreadPerRun().build();
            boolean carrier = Thread.getAllStackTraces().keySet().stream()
                    .anyMatch(t -> t.getClass().getName().equals("jdk.internal.misc.CarrierThread"));
            System.out.println("carrier after build: " + carrier);
            CountDownLatch ran = new CountDownLatch(1);
            String[] name = new String[1];
            Runnable timer = new Runnable() { // not a lambda: the child's own linkage would muddle the log
                @Override
                public void run() {
                    System.out.println("running");
                    name[0] = Thread.currentThread().getName();
                    ran.countDown();
                }
            };
            System.out.println("scheduling");
            executor.schedule(timer, 1, TimeUnit.MILLISECONDS);
            if (ran.await(30, TimeUnit.SECONDS)) {
                System.out.println("first run on: " + name[0]);
            }
            executor.shutdown();
            executor.awaitTermination(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void firstVirtualThreadExecutorOfAJvm_warmsUpAtConstruction_andLinksNoCallSiteOfOurs() throws Exception {
        assumeTrue(Runtime.version().feature() >= 21, "virtual threads need Java 21");
        String javaCommand = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        String cp = location(WheelScheduledExecutorService.class) + java.io.File.pathSeparator + location(Child.class);
        String output = run(javaCommand, "-Xlog:class+load=info:stdout",
                "-Djava.lang.invoke.MethodHandle.TRACE_METHOD_LINKAGE=true", "-cp", cp, Child.class.getName());
        List<String> lines = output.lines().collect(Collectors.toList());
        assertTrue(lines.contains("carrier after build: true"), "no carrier thread once build() returned:\n" + output);
        assertTrue(lines.contains("first run on: warm-run-0"), "the first run's thread is not warm-run-0:\n" + output);
        // the control: the log does name the call sites linked (the child's stream lambda)
        String child = "linkCallSite " + Child.class.getName();
        assertTrue(lines.stream().anyMatch(l -> l.startsWith(child + " ") || l.startsWith(child + ".")), output);
        List<String> ours = lines.stream()
                .filter(l -> l.startsWith("linkCallSite io.timewheel.executor.") || l.startsWith("linkCallSite io.timewheel.wheel."))
                .collect(Collectors.toList());
        assertEquals(List.of(), ours, "invokedynamic call sites of ours linked on the virtual-thread path");
        // the control: the log does name the classes loaded
        assertTrue(lines.stream().anyMatch(l -> l.contains(" io.timewheel.executor.internal.pool.RunDispatcher ")), output);
        int from = lines.indexOf("scheduling"), to = lines.indexOf("running");
        assertTrue(from >= 0 && to > from, output);
        List<String> loadedOnTheWay = lines.subList(from, to).stream()
                .filter(l -> l.contains(" io.timewheel.")).collect(Collectors.toList());
        assertEquals(List.of(), loadedOnTheWay, "classes of ours loaded between the first schedule and its run");
    }

    /**
     * Runs a child JVM to its end (at most 60 s) and returns its output. The environment's JVM options are
     * dropped (a JFR recording started through JAVA_TOOL_OPTIONS would link call sites of its own), and the
     * output goes to a file, so that a child that hangs fails the test instead of blocking its read.
     */
    static String run(String... command) throws Exception {
        Path out = Files.createTempFile("child", ".log");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile());
            builder.environment().remove("JAVA_TOOL_OPTIONS");
            builder.environment().remove("JDK_JAVA_OPTIONS");
            Process process = builder.start();
            boolean ended = process.waitFor(60, TimeUnit.SECONDS);
            if (!ended) {
                process.destroyForcibly().waitFor();
            }
            String output = Files.readString(out, StandardCharsets.UTF_8);
            assertTrue(ended, "the child did not end within 60 s:\n" + output);
            assertEquals(0, process.exitValue(), output);
            return output;
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
