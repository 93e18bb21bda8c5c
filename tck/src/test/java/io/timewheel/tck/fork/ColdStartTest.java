package io.timewheel.tck.fork;

import io.timewheel.executor.WheelScheduledExecutorService;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a fresh JVM's first executor costs beyond loading its own classes (WheelScheduledExecutorService's notes,
 * "Cold start"): a forked JVM constructs one, runs one 1 ms timer and shuts it down, and its class-loading and
 * method-linkage logs must show no java.util.logging start (a logger looked up in a static initializer) and
 * no invokedynamic call site of ours linked (a lambda, a method reference or an indy string concatenation on
 * that path); and no class of the executor's jar may use indy string concatenation at all (the module is
 * compiled with -XDstringConcat=inline); and no class of ours may be loaded between the first schedule and
 * that timer's run (the constructor initializes what they need). No timing is asserted: what is checked is
 * what the JVM had to do.
 */
class ColdStartTest {

    /**
     * The forked JVM: one executor, one 1 ms timer, then a second executor with the starvation warning on;
     * shutdown; prints "ran" once the timer ran.
     */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            WheelScheduledExecutorService executor = new WheelScheduledExecutorService(1);
            CountDownLatch ran = new CountDownLatch(1);
            Runnable timer = new Runnable() { // not a lambda: the child's own linkage would muddle the log
                @Override
                public void run() {
                    System.out.println("running");
                    ran.countDown();
                }
            };
            System.out.println("scheduling");
            executor.schedule(timer, 1, TimeUnit.MILLISECONDS);
            if (ran.await(30, TimeUnit.SECONDS)) {
                System.out.println("ran");
            }
            // the opt-in starvation warning's watch is built with its executor, and must not start logging either
            WheelScheduledExecutorService watched = WheelScheduledExecutorService.builder().starvationWarning(true).build();
            watched.shutdown();
            executor.shutdown();
            executor.awaitTermination(30, TimeUnit.SECONDS);
            watched.awaitTermination(30, TimeUnit.SECONDS);
            Runnable control = () -> System.out.println("linked"); // the test's control: a call site the log must show
            control.run();
        }
    }

    @Test
    void firstExecutorOfAJvm_startsNoLoggingAndLinksNoCallSiteOfOurs() throws Exception {
        String javaCommand = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        String cp = location(WheelScheduledExecutorService.class) + java.io.File.pathSeparator + location(Child.class);
        Process process = new ProcessBuilder(javaCommand, "-Xlog:class+load=info:stdout",
                "-Djava.lang.invoke.MethodHandle.TRACE_METHOD_LINKAGE=true", "-cp", cp, Child.class.getName())
                .redirectErrorStream(true).start();
        String output;
        try (InputStream in = process.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), output);
        List<String> lines = output.lines().collect(Collectors.toList());
        assertTrue(lines.contains("ran"), "the timer did not run:\n" + output);
        // the controls: the log does name the classes loaded and the call sites linked
        assertTrue(lines.stream().anyMatch(l -> l.contains(" io.timewheel.executor.internal.tick.TickThread ")), output);
        // JDK 17 names the caller's class ("linkCallSite C java.lang..."), JDK 25 its method ("linkCallSite C.main(...)")
        String child = "linkCallSite " + Child.class.getName();
        assertTrue(lines.stream().anyMatch(l -> l.startsWith(child + " ") || l.startsWith(child + ".")), output);

        List<String> logging = lines.stream().filter(l -> l.contains(" java.util.logging.LogManager ")).collect(Collectors.toList());
        assertEquals(List.of(), logging, "java.util.logging started");
        List<String> ours = lines.stream()
                .filter(l -> l.startsWith("linkCallSite io.timewheel.executor.") || l.startsWith("linkCallSite io.timewheel.wheel."))
                .collect(Collectors.toList());
        assertEquals(List.of(), ours, "invokedynamic call sites of ours linked on the first executor's path");

        // nothing of ours is loaded between the first schedule and its run: the constructors did it (ColdStart)
        int from = lines.indexOf("scheduling"), to = lines.indexOf("running");
        assertTrue(from >= 0 && to > from, output);
        List<String> loadedOnTheWay = lines.subList(from, to).stream()
                .filter(l -> l.contains(" io.timewheel.")).collect(Collectors.toList());
        assertEquals(List.of(), loadedOnTheWay, "classes of ours loaded between the first schedule and its run");
    }

    @Test
    void noClassOfTheExecutor_usesInvokedynamicStringConcatenation() throws Exception {
        Path jar = Path.of(location(WheelScheduledExecutorService.class));
        List<String> offenders = new ArrayList<>();
        int classes = 0;
        if (Files.isDirectory(jar)) {
            try (Stream<Path> files = Files.walk(jar)) {
                for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
                    classes++;
                    if (usesIndyConcat(Files.readAllBytes(f))) {
                        offenders.add(jar.relativize(f).toString());
                    }
                }
            }
        } else {
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                for (ZipEntry e : zip.stream().collect(Collectors.toList())) {
                    if (e.getName().endsWith(".class")) {
                        classes++;
                        try (InputStream in = zip.getInputStream(e)) {
                            if (usesIndyConcat(in.readAllBytes())) {
                                offenders.add(e.getName());
                            }
                        }
                    }
                }
            }
        }
        assertTrue(classes > 30, "found " + classes + " classes at " + jar);
        assertEquals(List.of(), offenders);
    }

    /** Whether a class file's constant pool names StringConcatFactory's bootstrap (as modified UTF-8, ASCII here). */
    private static boolean usesIndyConcat(byte[] classFile) {
        return new String(classFile, StandardCharsets.ISO_8859_1).contains("makeConcatWithConstants");
    }

    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
