package io.timewheel.executor.internal.pool;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * Where the runs of an executor that does not run its tasks on its own pool threads go: a new virtual thread
 * per run (Java 21+), or any {@link Executor}. The state the pool keeps about those runs (in flight, running
 * threads, completed) lives here; the pool (WorkerPool.dispatch) drives it. Any thread.
 */
public final class RunDispatcher {
    /*
     * Implementation notes
     *
     * The pool's workers stay: they take due tasks off the ready queue exactly as before (so lateness, the
     * run state and getTask's exit rules are unchanged), but instead of running a task they hand it here and
     * go back for the next. The run (hooks included) happens on the target's thread. What the pool needs to
     * keep STPE's meaning:
     *   inFlight   runs handed over and not finished (any thread, atomic): termination waits for 0, as TPE's
     *              waits for its workers to finish their tasks; getActiveCount reports it;
     *   running    the threads running a run now (any thread, concurrent set): shutdownNow interrupts them, as
     *              TPE interrupts its workers;
     *   completed  finished runs (any thread, LongAdder): getCompletedTaskCount's share of dispatched runs;
     *   limit      the bound on concurrent runs, or null: a worker takes a permit before it hands a run over
     *              (so the runs beyond the bound wait in the ready queue, overdue) and the run gives it back.
     * Each of these is a shared write per run: the price of the option, never paid by the default path (the
     * pool's dispatcher field is null there).
     *
     * Virtual threads are reached through method handles looked up once (VirtualThreads), so the class files
     * stay Java 17 and there is no reflective access to warn about: Thread.ofVirtual and Thread.Builder are
     * public API on 21+.
     *
     * Cold start: a JVM's first virtual thread costs the JDK one-time work (the scheduler's pool, a carrier
     * thread, a named factory's first name), which the first executor built in this mode does in its
     * constructor (VirtualThreads.warmUp, through ExecutorOptions.dispatcher) instead of its first due run;
     * nothing on this path is a lambda (StartEach, WorkerPool.DispatchedRun), so no invokedynamic bootstrap
     * waits for it either, and the pool initializes DispatchedRun when it is built (ColdStart). tck's
     * fork.VirtualThreadWarmUpTest checks all three. What stays on a run's path is the mode's own cost: the
     * worker that found the task due starts its virtual thread, and a carrier must wake up for it.
     */

    /** Where runs go. Immutable. */
    final Executor target;
    /** The bound on concurrent runs, or null. Immutable reference. */
    private final Semaphore limit;
    /** Runs handed over and not finished. Any thread (atomic; see the notes). */
    final AtomicInteger inFlight = new AtomicInteger();
    /** The threads running a run now. Any thread (a concurrent set; see the notes). */
    final Set<Thread> running = ConcurrentHashMap.newKeySet();
    /** Finished runs. Any thread (LongAdder; see the notes). */
    final LongAdder completed = new LongAdder();

    private RunDispatcher(Executor target, int maxConcurrentRuns) {
        this.target = target;
        this.limit = maxConcurrentRuns > 0 ? new Semaphore(maxConcurrentRuns) : null;
    }

    /** Runs on {@code executor}. */
    public static RunDispatcher onExecutor(Executor executor) {
        return new RunDispatcher(Objects.requireNonNull(executor, "executor"), 0);
    }

    /**
     * A new virtual thread per run, named {@code namePrefix} and a number, at most {@code maxConcurrentRuns}
     * at a time (0: no bound).
     *
     * @throws UnsupportedOperationException before Java 21
     */
    public static RunDispatcher onVirtualThreads(String namePrefix, int maxConcurrentRuns) {
        ThreadFactory factory = VirtualThreads.factory(namePrefix);
        VirtualThreads.warmUp();
        return new RunDispatcher(new StartEach(factory), maxConcurrentRuns);
    }

    /** Starts each run on a new thread of its factory. A class, not a lambda: no invokedynamic bootstrap at build(). */
    private static final class StartEach implements Executor {
        private final ThreadFactory factory;

        StartEach(ThreadFactory factory) {
            this.factory = factory;
        }

        @Override
        public void execute(Runnable run) {
            factory.newThread(run).start();
        }
    }

    /** Before a hand-over, on the worker: waits for a permit if runs are bounded. */
    void acquire() {
        if (limit != null) {
            limit.acquireUninterruptibly();
        }
    }

    /** After a run, on its thread. */
    void release() {
        if (limit != null) {
            limit.release();
        }
    }

    /** Thread.ofVirtual().name(prefix, 0).factory(), through method handles looked up once. */
    static final class VirtualThreads {
        // Immutable, set by the class initializer: the handles, or null with UNAVAILABLE saying why
        private static final MethodHandle OF_VIRTUAL;
        private static final MethodHandle NAME;
        private static final MethodHandle FACTORY;
        private static final String UNAVAILABLE;

        static {
            MethodHandle ofVirtual = null, name = null, factory = null;
            String unavailable = null;
            int feature = Runtime.version().feature();
            if (feature < 21) {
                unavailable = "virtual threads need Java 21 or later; this runtime is Java " + feature
                        + " (use runOn(Executor) instead)";
            } else {
                try {
                    MethodHandles.Lookup lookup = MethodHandles.publicLookup();
                    Class<?> builder = Class.forName("java.lang.Thread$Builder");
                    Class<?> ofVirtualClass = Class.forName("java.lang.Thread$Builder$OfVirtual");
                    ofVirtual = lookup.findStatic(Thread.class, "ofVirtual", MethodType.methodType(ofVirtualClass));
                    name = lookup.findVirtual(ofVirtualClass, "name",
                            MethodType.methodType(ofVirtualClass, String.class, long.class));
                    factory = lookup.findVirtual(builder, "factory", MethodType.methodType(ThreadFactory.class));
                } catch (ReflectiveOperationException | RuntimeException e) {
                    unavailable = "virtual threads are not available on this runtime (Java " + feature + "): " + e;
                }
            }
            OF_VIRTUAL = ofVirtual;
            NAME = name;
            FACTORY = factory;
            UNAVAILABLE = unavailable;
        }

        private VirtualThreads() {
        }

        /**
         * Set by the first warmUp of this JVM that started its thread. Any thread (volatile): two first builds
         * at once may both warm up, or a second may skip it while the first is still at it; either is harmless.
         */
        private static volatile boolean warm;

        /**
         * At the first build() in this mode in a JVM: starts a virtual thread that does nothing, so that the
         * JDK's one-time work for a JVM's first virtual thread (initializing the scheduler's pool, starting a
         * carrier thread, both inside start()) and for a named factory's first name (its counter's VarHandle
         * spins method-handle forms) is done by the constructor and not by the first due run. Not a class
         * preload (ColdStart's job): it starts the JVM's first virtual thread. It does not wait for the
         * thread: with every carrier busy the constructor would block, and the work it is there for is done
         * inside start(). The thread comes from a factory of its own, so the runs' names still count from 0.
         */
        static void warmUp() {
            if (warm) {
                return;
            }
            try {
                factory("timewheel-warm-up-").newThread(new Idle()).start();
                warm = true;
            } catch (RuntimeException | Error e) {
                // e.g. no native thread for a carrier: the build goes on, and the first run meets the same
                // failure where the pool handles it (WorkerPool.dispatch runs the task itself); a later build
                // tries again
            }
        }

        /** warmUp's task: nothing. A class, not a lambda (no invokedynamic bootstrap for it). */
        private static final class Idle implements Runnable {
            @Override
            public void run() {
            }
        }

        static ThreadFactory factory(String namePrefix) {
            if (UNAVAILABLE != null) {
                throw new UnsupportedOperationException(UNAVAILABLE);
            }
            try {
                Object builder = OF_VIRTUAL.invoke();
                builder = NAME.invoke(builder, namePrefix, 0L);
                return (ThreadFactory) FACTORY.invoke(builder);
            } catch (Throwable e) {
                throw new UnsupportedOperationException("virtual threads could not be created: " + e, e);
            }
        }
    }
}
