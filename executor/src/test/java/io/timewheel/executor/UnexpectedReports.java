package io.timewheel.executor;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.awaitility.Awaitility.await;

/**
 * Fails a test on anything the executor reported through its {@code System.Logger} ("io.timewheel") at
 * WARNING or above that the test did not expect: a failure the tick thread caught and went on from, a
 * setting it ignored. The tick thread survives its own failures by design, so a broken invariant that
 * throws there would otherwise pass every test that only checks outcomes (a task late but run, an entry
 * re-filed). Tests that provoke a report on purpose take it with {@link #take} and check it.
 *
 * <p>Registered for every test of the tck module (JUnit extension auto-detection, its
 * META-INF/services) and by {@link ManualClockTestBase} here. Its afterEach runs after the test's own
 * cleanup (executors shut down and terminated), so reports made while they wind down count too. A report
 * that arrives after a test ended fails the next test: the shared tick thread serves every executor of the
 * JVM, so a report cannot always be pinned to one test; it is never lost.
 *
 * <p>With the JDK's default System.Logger backend (java.logging), a System.Logger named "io.timewheel" is
 * the java.util.logging Logger of that name; this class keeps a strong reference to it so that its handler
 * stays attached.
 */
public final class UnexpectedReports implements AfterEachCallback {
    private static final Logger LOGGER = Logger.getLogger("io.timewheel");
    private static final ConcurrentLinkedQueue<LogRecord> REPORTS = new ConcurrentLinkedQueue<>();

    static {
        LOGGER.addHandler(new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    REPORTS.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        });
    }

    /** Makes sure the handler is attached before the code under test first logs. */
    public UnexpectedReports() {
    }

    /**
     * Waits (up to 10 s) until {@code count} reports whose message, or whose exception's message, contains
     * {@code text} have arrived,
     * takes them out (they are expected now) and returns them. Fails if they do not arrive.
     */
    public static List<LogRecord> take(String text, int count) {
        Predicate<LogRecord> matches = r -> (r.getMessage() != null && r.getMessage().contains(text))
                || (r.getThrown() != null && String.valueOf(r.getThrown().getMessage()).contains(text));
        await().atMost(Duration.ofSeconds(10)).until(() -> REPORTS.stream().filter(matches).count() >= count);
        List<LogRecord> taken = new ArrayList<>();
        for (Iterator<LogRecord> it = REPORTS.iterator(); it.hasNext() && taken.size() < count; ) {
            LogRecord record = it.next();
            if (matches.test(record)) {
                it.remove();
                taken.add(record);
            }
        }
        return taken;
    }

    /** How many reports not yet taken contain {@code text} in their message, now. */
    public static long count(String text) {
        return REPORTS.stream().filter(r -> r.getMessage() != null && r.getMessage().contains(text)).count();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        List<LogRecord> unexpected = new ArrayList<>();
        for (LogRecord record; (record = REPORTS.poll()) != null; ) {
            unexpected.add(record);
        }
        if (!unexpected.isEmpty()) {
            StringBuilder text = new StringBuilder(unexpected.size()
                    + " unexpected report(s) from the executor (System.Logger io.timewheel) during or before "
                    + context.getDisplayName() + ":");
            for (LogRecord record : unexpected) {
                text.append("\n  ").append(record.getLevel()).append(' ').append(record.getMessage());
                if (record.getThrown() != null) {
                    StringWriter trace = new StringWriter();
                    record.getThrown().printStackTrace(new PrintWriter(trace));
                    text.append("\n    ").append(trace.toString().replace("\n", "\n    ").trim());
                }
            }
            throw new AssertionError(text);
        }
    }
}
