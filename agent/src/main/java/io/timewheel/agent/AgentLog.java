package io.timewheel.agent;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The agent's only output: single lines on stderr, each starting with {@value #PREFIX}. Any thread.
 *
 * <p>Standard error rather than {@code System.Logger}: the agent runs before the application has
 * configured its logging, and must not be the one that initialises it.
 */
final class AgentLog {

    static final String PREFIX = "timewheel-agent: ";
    /** After this many problem lines only a debug run shows more. */
    private static final int PROBLEM_LINES = 20;

    /** Written once by the agent's start-up, before the transformer is installed. */
    private static volatile boolean debug;
    /** Problem lines printed so far; any thread. */
    private static final AtomicInteger problemLines = new AtomicInteger();

    private AgentLog() {
    }

    static void debugEnabled(boolean on) {
        debug = on;
    }

    static boolean debugEnabled() {
        return debug;
    }

    /** A line that is always printed: the start-up line. */
    static void line(String message) {
        System.err.println(PREFIX + message);
    }

    /** Something could not be swapped; the JDK behaviour stays for it. Capped unless debugging. */
    static void problem(String message) {
        int n = problemLines.incrementAndGet();
        if (debug || n <= PROBLEM_LINES) {
            line(message);
        } else if (n == PROBLEM_LINES + 1) {
            line("more problems are not shown; run with debug=true to see them all");
        }
    }

    static void debug(String message) {
        if (debug) {
            line(message);
        }
    }

    /** A class loader, for messages: its name if it has one, and what it says of itself. */
    static String describe(ClassLoader loader) {
        return loader.getName() == null ? loader.toString() : "'" + loader.getName() + "' (" + loader + ")";
    }

    /** One line for a throwable: its class and message, and the cause's if there is one. */
    static String describe(Throwable t) {
        StringBuilder b = new StringBuilder(t.getClass().getName());
        if (t.getMessage() != null) {
            b.append(": ").append(t.getMessage());
        }
        Throwable cause = t.getCause();
        if (cause != null && cause != t) {
            b.append(" (caused by ").append(cause.getClass().getName());
            if (cause.getMessage() != null) {
                b.append(": ").append(cause.getMessage());
            }
            b.append(')');
        }
        return b.toString().replace('\n', ' ');
    }
}
