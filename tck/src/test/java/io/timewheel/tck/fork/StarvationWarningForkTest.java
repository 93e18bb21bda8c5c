package io.timewheel.tck.fork;

import io.timewheel.executor.WheelScheduledExecutorService;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The starvation warning's promise on a real clock, in fresh JVMs: with the only worker blocked, it speaks
 * about when a task has waited the late threshold (100 ms), not at a later periodic look; the task here is
 * due within the ready queue's near term, so it goes from its producer straight to the workers and no
 * hand-over tells the tick thread of it. The bound checked is the promise's, loosely: the warning comes at
 * most 100 ms after the threshold has passed (it is logged through the common pool, and the tick thread may
 * wait for a CPU on a busy machine).
 */
class StarvationWarningForkTest {

    /** Milliseconds: the late threshold, and how long after its deadline the starved task may be reported. */
    static final long THRESHOLD_MS = 100, WITHIN_MS = 100;

    /** The forked JVM: prints "warned after threshold: N ms" (or "no warning") and exits. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            CountDownLatch warned = new CountDownLatch(1);
            long[] warnedAt = new long[1];
            Logger logger = Logger.getLogger("io.timewheel");
            logger.addHandler(new Handler() {
                @Override
                public void publish(LogRecord record) {
                    if (record.getLevel().intValue() >= Level.WARNING.intValue()
                            && String.valueOf(record.getMessage()).contains("overdue")) {
                        warnedAt[0] = System.nanoTime();
                        System.out.println("warning: " + record.getMessage());
                        warned.countDown();
                    }
                }

                @Override
                public void flush() {
                }

                @Override
                public void close() {
                }
            });
            WheelScheduledExecutorService executor = WheelScheduledExecutorService.builder().corePoolSize(1)
                    .lateThreshold(THRESHOLD_MS, TimeUnit.MILLISECONDS).starvationWarning(true).build();
            CountDownLatch blocked = new CountDownLatch(1);
            executor.execute(() -> { // the only worker: blocked until the warning came (or 5 s passed)
                blocked.countDown();
                try {
                    warned.await(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            blocked.await();
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(10);
            executor.schedule(() -> { }, 10, TimeUnit.MILLISECONDS);
            if (warned.await(5, TimeUnit.SECONDS)) {
                long after = warnedAt[0] - (deadline + TimeUnit.MILLISECONDS.toNanos(THRESHOLD_MS));
                System.out.println("warned after threshold: " + TimeUnit.NANOSECONDS.toMillis(after) + " ms");
            } else {
                System.out.println("no warning");
            }
            executor.shutdownNow();
            executor.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void withTheOnlyWorkerBlocked_theWarningSpeaksSoonAfterATaskPassesTheThreshold() throws Exception {
        String javaCommand = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        String cp = location(WheelScheduledExecutorService.class) + java.io.File.pathSeparator + location(Child.class);
        for (int launch = 0; launch < 3; launch++) {
            String output = VirtualThreadWarmUpTest.run(javaCommand, "-cp", cp, Child.class.getName());
            List<String> lines = output.lines().filter(l -> l.startsWith("warned after threshold: "))
                    .collect(Collectors.toList());
            assertEquals(1, lines.size(), "no warning within 5 s of the task's deadline:\n" + output);
            System.out.println("StarvationWarningForkTest: launch " + launch + ": " + lines.get(0));
            assertTrue(lines.get(0).matches("warned after threshold: \\d+ ms"), "spoke before the threshold:\n" + output);
            long ms = Long.parseLong(lines.get(0).replaceAll("\\D+", ""));
            assertTrue(ms <= WITHIN_MS, "spoke " + ms + " ms after the threshold:\n" + output);
        }
    }

    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
