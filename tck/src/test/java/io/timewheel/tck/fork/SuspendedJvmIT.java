package io.timewheel.tck.fork;

import io.timewheel.executor.PeriodicPolicy;
import io.timewheel.executor.WheelScheduledExecutorService;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 27's suspend scenario, in real processes: a forked JVM runs a 1 s fixed-rate task, is stopped with
 * SIGSTOP for 10 s, then continued with SIGCONT. Under RUN_ONCE exactly one run follows within 100 ms of the
 * continue (and none more in the rest of that period); under CATCH_UP (STPE's behaviour) nine or more runs
 * follow back to back. Both JVMs run side by side (about 13 s). Skipped where {@code kill} cannot stop a
 * process (not a POSIX system, no kill command). An integration test: it asserts on real time, which unit
 * tests never do.
 */
class SuspendedJvmIT {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    /** The forked JVM: schedules the task under the policy named by args[0] and prints "run <nanoTime>". */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            WheelScheduledExecutorService e = WheelScheduledExecutorService.builder().build();
            PeriodicPolicy policy = PeriodicPolicy.STPE.missedRuns(PeriodicPolicy.MissedRuns.valueOf(args[0]));
            e.scheduleAtFixedRate(() -> {
                System.out.println("run " + System.nanoTime()); // nanoTime: CLOCK_MONOTONIC, shared by processes
                System.out.flush();
            }, 0, 1, TimeUnit.SECONDS, policy);
            new CountDownLatch(1).await(); // until the parent destroys this JVM
        }
    }

    /** A forked child and the run times it printed. */
    private static final class Forked {
        final Process process;
        final List<Long> runs = new CopyOnWriteArrayList<>();
        final CompletableFuture<Void> firstRun = new CompletableFuture<>();

        Forked(String policy) throws Exception {
            String javaCommand = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
            String cp = location(WheelScheduledExecutorService.class) + java.io.File.pathSeparator + location(Child.class);
            process = new ProcessBuilder(javaCommand, "-cp", cp, Child.class.getName(), policy).redirectErrorStream(true).start();
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(
                        new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = in.readLine()) != null; ) {
                        if (line.startsWith("run ")) {
                            runs.add(Long.parseLong(line.substring(4).trim()));
                            firstRun.complete(null);
                        } else {
                            System.out.println("child " + policy + ": " + line);
                        }
                    }
                } catch (Exception ignored) {
                    // the child was destroyed
                }
            });
            reader.setDaemon(true);
            reader.start();
        }

        long runsBetween(long from, long to) {
            return runs.stream().filter(t -> t - from >= 0 && t - to < 0).count();
        }
    }

    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    private static boolean kill(String signal, long pid) throws Exception {
        Process p = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true).start();
        return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    private static boolean killAvailable() {
        try {
            return kill("0", ProcessHandle.current().pid());
        } catch (Exception e) {
            return false;
        }
    }

    @Test
    void stoppedTenSeconds_runOnceRunsOnceOnContinue_catchUpRunsTheMissedOnes() throws Exception {
        assumeTrue(!System.getProperty("os.name").toLowerCase().contains("win") && killAvailable(),
                "kill -STOP is not available here");
        Forked runOnce = new Forked("RUN_ONCE");
        Forked catchUp = new Forked("CATCH_UP");
        try {
            runOnce.firstRun.get(20, TimeUnit.SECONDS);
            catchUp.firstRun.get(20, TimeUnit.SECONDS);
            assertTrue(kill("STOP", runOnce.process.pid()) && kill("STOP", catchUp.process.pid()), "SIGSTOP failed");
            new CountDownLatch(1).await(10, TimeUnit.SECONDS); // the suspend the scenario is about
            long continued = System.nanoTime();
            assertTrue(kill("CONT", runOnce.process.pid()) && kill("CONT", catchUp.process.pid()), "SIGCONT failed");
            // collect what runs in the 1.5 s after the continue
            new CountDownLatch(1).await(1500, TimeUnit.MILLISECONDS);

            List<Long> afterOnce = new ArrayList<>();
            for (long t : runOnce.runs) {
                if (t - continued >= 0) {
                    afterOnce.add((t - continued) / 1_000_000);
                }
            }
            assertEquals(1, runOnce.runsBetween(continued, continued + SECOND * 9 / 10),
                    "RUN_ONCE: runs (ms after the continue) " + afterOnce);
            assertTrue(runOnce.runsBetween(continued, continued + SECOND / 10) == 1,
                    "RUN_ONCE: no run within 100 ms of the continue: " + afterOnce);
            long caughtUp = catchUp.runsBetween(continued, continued + SECOND * 9 / 10);
            assertTrue(caughtUp >= 9, "CATCH_UP ran " + caughtUp + " times after the continue");
        } finally {
            runOnce.process.destroyForcibly();
            catchUp.process.destroyForcibly();
            runOnce.process.waitFor(10, TimeUnit.SECONDS);
            catchUp.process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
