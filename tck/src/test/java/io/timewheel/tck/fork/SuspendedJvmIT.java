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
 * SIGSTOP for 10 s between two runs, then continued with SIGCONT. Under RUN_ONCE exactly one run follows
 * within 100 ms of the continue, and none more before the task's next grid point (its first run plus whole
 * periods); under CATCH_UP (STPE's behaviour) nine or more runs follow back to back. Both JVMs run side by
 * side (about 14 s). Skipped where {@code kill} cannot stop a
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

    /**
     * The first time from {@code from} on (in 10 ms steps) at least 200 ms away from every run of two 1 s grids
     * starting at {@code a} and {@code b}: one exists within a second whatever their offset (two windows of
     * 600 ms in a 1 s circle overlap).
     */
    private static long midPeriod(long from, long a, long b) {
        for (long t = from; ; t += SECOND / 100) {
            long pa = Math.floorMod(t - a, SECOND), pb = Math.floorMod(t - b, SECOND);
            if (pa >= SECOND / 5 && pa <= SECOND * 4 / 5 && pb >= SECOND / 5 && pb <= SECOND * 4 / 5) {
                return t;
            }
        }
    }

    /** The first of {@code origin + k * period} (k >= 0) that is not before {@code now}. */
    private static long nextGridPoint(long origin, long now, long period) {
        long behind = now - origin;
        return behind <= 0 ? origin : origin + (behind / period + (behind % period == 0 ? 0 : 1)) * period;
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
            // stop between runs, not at the end of one: a stop that catches a run before it re-arms makes that
            // run overrun by 10 s, after which RUN_ONCE continues on the grid with no extra run (PeriodicPolicy)
            long stopAt = midPeriod(System.nanoTime() + SECOND / 100, runOnce.runs.get(0), catchUp.runs.get(0));
            new CountDownLatch(1).await(Math.max(0, stopAt - System.nanoTime()), TimeUnit.NANOSECONDS);
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

            assertEquals(1, runOnce.runsBetween(continued, continued + SECOND / 10),
                    "RUN_ONCE: one run within 100 ms of the continue; runs (ms after the continue) " + afterOnce);
            // then back on the grid: no run until the next grid point (first run + whole periods), which can
            // fall anywhere in the second after the continue (it depends on when the stop came)
            long first = runOnce.runs.get(0);
            long nextGrid = nextGridPoint(first, continued + SECOND / 10, SECOND);
            assertEquals(0, runOnce.runsBetween(continued + SECOND / 10, nextGrid - SECOND / 10),
                    "RUN_ONCE: a second catch-up run before the grid point "
                            + (nextGrid - continued) / 1_000_000 + " ms after the continue; runs " + afterOnce);
            long caughtUp = catchUp.runsBetween(continued, continued + SECOND * 9 / 10);
            List<Long> afterCatchUp = new ArrayList<>();
            catchUp.runs.forEach(t -> afterCatchUp.add((t - continued) / 1_000_000));
            assertTrue(caughtUp >= 9, "CATCH_UP ran " + caughtUp + " times after the continue; runs (ms after it) "
                    + afterCatchUp);
        } finally {
            runOnce.process.destroyForcibly();
            catchUp.process.destroyForcibly();
            runOnce.process.waitFor(10, TimeUnit.SECONDS);
            catchUp.process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
