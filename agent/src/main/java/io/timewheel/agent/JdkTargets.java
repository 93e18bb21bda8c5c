package io.timewheel.agent;

import java.lang.instrument.Instrumentation;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Makes sure the targeted JDK classes go through the {@link SwapTransformer}. Not thread safe; used by
 * the agent's start-up only.
 *
 * <p>Loading a class that is not loaded yet (without initialising it) runs the transformer on it at
 * once; a class that was loaded before the agent was installed is retransformed instead. Either way
 * the transformer counts what it saw and swapped, and a JDK whose code is not what the agent expects
 * keeps its own executor and gets a note in the start-up line.
 */
final class JdkTargets {

    private JdkTargets() {
    }

    /**
     * {@code Executors}: the factory methods.
     *
     * @return whether the factories are swapped
     */
    static boolean factories(Instrumentation instrumentation, SwapTransformer transformer, List<String> notes) {
        String name = SwapTransformer.dotted(SwapTransformer.EXECUTORS);
        Class<?> executors = BootInjector.bootClass(name);
        if (executors == null) {
            notes.add("factories not swapped: " + name + " not found");
            return false;
        }
        return ensure(instrumentation, executors, transformer.executorsSeen, transformer.executorsSwaps, "factories", notes);
    }

    /**
     * {@code CompletableFuture$Delayer}: the static executor behind {@code orTimeout},
     * {@code completeOnTimeout} and {@code delayedExecutor} on JDK 17 to 24. JDK 25 schedules those
     * on {@code ForkJoinPool}'s delay scheduler and has no such class.
     *
     * @return whether the option has an effect on this JDK
     */
    static boolean delayer(Instrumentation instrumentation, SwapTransformer transformer, boolean attached,
                           List<String> notes) {
        Class<?> delayer = BootInjector.bootClass(SwapTransformer.dotted(SwapTransformer.DELAYER));
        if (delayer == null) {
            notes.add("jdkInternal does nothing on Java " + Runtime.version().feature()
                    + ": CompletableFuture has no ScheduledThreadPoolExecutor of its own there");
            return false;
        }
        boolean swapped = ensure(instrumentation, delayer, transformer.delayerSeen, transformer.delayerSwaps,
                "jdkInternal", notes);
        if (swapped && attached) {
            notes.add("jdkInternal: if CompletableFuture timeouts ran before the attach, the JDK's delayer stays");
        }
        return swapped;
    }

    private static boolean ensure(Instrumentation instrumentation, Class<?> target, AtomicInteger seen,
                                  AtomicInteger swaps, String option, List<String> notes) {
        if (seen.get() == 0) { // loaded before the transformer was installed
            if (!instrumentation.isModifiableClass(target)) {
                notes.add(option + " not swapped: " + target.getName() + " cannot be retransformed");
                return false;
            }
            try {
                instrumentation.retransformClasses(target);
            } catch (Throwable failure) {
                notes.add(option + " not swapped: retransforming " + target.getName() + " failed: "
                        + AgentLog.describe(failure));
                return false;
            }
        }
        if (swaps.get() == 0) {
            notes.add(option + " not swapped: no ScheduledThreadPoolExecutor construction found in "
                    + target.getName() + " of this JDK");
            return false;
        }
        return true;
    }
}
