package io.timewheel.executor.internal.queue;

import io.timewheel.executor.internal.NanoClock;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The first tie between two deadlines must not deoptimize the ready queue's compiled code (ReadyQueue.trainTies):
 * a forked JVM compiles synchronously (-Xbatch) while it pushes and takes 200,000 entries with distinct
 * deadlines, then pushes entries with equal deadlines; -XX:+PrintCompilation must show no method of
 * ReadyQueue made not entrant at level 4 (a C2 method thrown away) after that point. Without the training,
 * C2 compiled less's tie branch into a trap, and each compiled method that inlined it was thrown away at its
 * first tie (pushLocked, then less). No timing is asserted: what is checked is what the JIT did.
 */
class ReadyQueueTieDeoptTest {

    /** Everything due: the clock stands far after every deadline the child uses. */
    static final class LateClock implements NanoClock {
        @Override
        public long nanoTime() {
            return Long.MAX_VALUE >> 1;
        }
    }

    /** The forked JVM. */
    public static final class Child {
        public static void main(String[] args) throws Exception {
            TaskQueue executor = QueueTestBase.newQueue(new LateClock());
            ReadyQueue ready = new ReadyQueue(new LateClock(), null);
            Runnable nothing = new Runnable() {
                @Override
                public void run() {
                }
            };
            SplittableRandom random = new SplittableRandom(1);
            long deadline = 0;
            QueueEntry[] batch = new QueueEntry[64];
            for (int round = 0; round < 200_000 / batch.length; round++) {
                for (int i = 0; i < batch.length; i++) { // random order, distinct deadlines: heap and ring, no tie
                    deadline += 1 + random.nextInt(1000);
                    batch[i] = entry(executor, random.nextBoolean() ? deadline : deadline - 500_000);
                    deadline += 1000;
                }
                for (QueueEntry e : batch) {
                    ready.push(e, 0L);
                }
                for (int i = 0; i < batch.length; i++) {
                    ready.take(true, 0L, null);
                }
            }
            System.out.println("TIES");
            for (int i = 0; i < 16; i++) { // equal deadlines, each way round
                deadline += 1_000_000;
                ready.push(entry(executor, deadline), 0L);
                ready.push(entry(executor, deadline), 0L);
                ready.push(entry(executor, deadline - 1), 0L);
                ready.push(entry(executor, deadline - 1), 0L);
                for (int k = 0; k < 4; k++) {
                    ready.take(true, 0L, null);
                }
            }
            System.out.println("DONE");
        }

        private static QueueEntry entry(TaskQueue queue, long deadline) {
            ScheduledTask<Void> task = new ScheduledTask<>(queue, (Runnable) null, deadline);
            task.markQueued();
            return task;
        }
    }

    @Test
    void firstTieBetweenDeadlines_throwsAwayNoCompiledMethodOfTheReadyQueue() throws Exception {
        String javaCommand = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
        String cp = location(ReadyQueue.class) + java.io.File.pathSeparator + location(Child.class);
        Path out = Files.createTempFile("child", ".log");
        String output;
        try {
            // the environment's JVM options are dropped (they could change what the JIT does), and the output
            // goes to a file, so that a child that hangs fails the test instead of blocking its read
            ProcessBuilder builder = new ProcessBuilder(javaCommand, "-Xbatch", "-XX:+PrintCompilation", "-cp", cp,
                    Child.class.getName()).redirectErrorStream(true).redirectOutput(out.toFile());
            builder.environment().remove("JAVA_TOOL_OPTIONS");
            builder.environment().remove("JDK_JAVA_OPTIONS");
            Process process = builder.start();
            boolean ended = process.waitFor(120, TimeUnit.SECONDS);
            if (!ended) {
                process.destroyForcibly().waitFor();
            }
            output = Files.readString(out, StandardCharsets.UTF_8);
            assertTrue(ended, "the child did not end within 120 s:\n" + output);
            assertEquals(0, process.exitValue(), output);
        } finally {
            Files.deleteIfExists(out);
        }
        List<String> lines = output.lines().collect(Collectors.toList());
        int ties = lines.indexOf("TIES");
        int done = lines.indexOf("DONE");
        assertTrue(ties >= 0 && done > ties, output);
        // the control: C2 did compile the ready queue's methods before the ties
        assertTrue(lines.subList(0, ties).stream().anyMatch(l -> isLevel4(l) && l.contains("io.timewheel.executor.internal.queue.ReadyQueue::")),
                "no ReadyQueue method reached C2 before the ties:\n" + output);
        List<String> thrownAway = lines.subList(ties, done).stream()
                .filter(l -> isLevel4(l) && l.contains("io.timewheel.executor.internal.queue.ReadyQueue::") && l.contains("made not entrant"))
                .collect(Collectors.toList());
        assertEquals(List.of(), thrownAway, "C2-compiled ready-queue code deoptimized by the first ties");
    }

    private static String location(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    /** A PrintCompilation line of a level-4 (C2) method: "  timestamp  id  flags  4  method ...". */
    private static boolean isLevel4(String line) {
        String[] fields = line.trim().split("\\s+");
        for (int i = 2; i < Math.min(fields.length, 6); i++) {
            if (fields[i].equals("4")) {
                return true;
            }
            if (fields[i].contains("::")) {
                return false;
            }
        }
        return false;
    }
}
