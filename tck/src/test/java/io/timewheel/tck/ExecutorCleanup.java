package io.timewheel.tck;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Leaks nothing: after each test opens every {@link Gate} handed out, then shuts down every tracked executor
 * with {@code shutdownNow} and fails the test if one does not terminate. Also clears a stray interrupt of the
 * test thread so it cannot leak into the next test.
 */
public final class ExecutorCleanup implements AfterEachCallback {
    private static final long TERMINATION_SECONDS = 30;

    private final List<ExecutorService> executors = new CopyOnWriteArrayList<>();
    private final List<Gate> gates = new CopyOnWriteArrayList<>();

    public <E extends ExecutorService> E track(E executor) {
        executors.add(executor);
        return executor;
    }

    public Gate gate() {
        Gate gate = new Gate();
        gates.add(gate);
        return gate;
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        Thread.interrupted();
        gates.forEach(Gate::open);
        List<String> stuck = new ArrayList<>();
        for (ExecutorService executor : executors) {
            try {
                executor.shutdownNow();
            } catch (RuntimeException | Error e) {
                // A test hook may throw from terminated(); the executor is still checked below.
            }
        }
        for (ExecutorService executor : executors) {
            if (!executor.awaitTermination(TERMINATION_SECONDS, TimeUnit.SECONDS)) {
                stuck.add(executor.toString());
            }
        }
        executors.clear();
        gates.clear();
        if (!stuck.isEmpty()) {
            throw new AssertionError("executors did not terminate after shutdownNow: " + stuck);
        }
    }
}
