package io.timewheel.tck.soak;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The broken promises of one soak run, each named with the operation, the implementation, the run's seed
 * and the round, so that {@code -Dsoak.seed=N} replays the same sequence of operations. Any thread.
 */
final class Violations {
    private static final int KEPT = 25;

    private final String impl;
    private final long seed;
    private final AtomicLong count = new AtomicLong();
    private final List<String> first = new ArrayList<>(); // guarded by itself
    /** The round being run; written by the test thread before the round's threads start. */
    volatile int round;

    Violations(String impl, long seed) {
        this.impl = impl;
        this.seed = seed;
    }

    /** Records a violation: {@code what} says the operation and what went wrong. */
    void add(String what) {
        count.incrementAndGet();
        String line = "[soak " + impl + " seed=" + seed + " round=" + round + "] " + what;
        synchronized (first) {
            if (first.size() < KEPT) {
                first.add(line);
                System.out.println("VIOLATION " + line);
            }
        }
    }

    /** Records an exception a public call threw although STPE would not have. */
    void threw(String op, Throwable t) {
        add(op + " threw " + t);
    }

    void check(boolean ok, String what) {
        if (!ok) {
            add(what);
        }
    }

    /** As check(ok, what + task.describe()), the description built only on failure. */
    void check(boolean ok, SoakTask task, String what) {
        if (!ok) {
            add(what + task.describe());
        }
    }

    long count() {
        return count.get();
    }

    String report() {
        synchronized (first) {
            return count.get() + " violation(s), the first " + first.size() + ":\n  " + String.join("\n  ", first)
                    + "\nreplay with -Dsoak.seed=" + seed;
        }
    }
}
