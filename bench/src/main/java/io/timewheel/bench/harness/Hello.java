package io.timewheel.bench.harness;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** The hello-world application of the agent start-up measurement: one scheduled executor, one task. */
public final class Hello {

    private Hello() {
    }

    public static void main(String[] args) throws Exception {
        ScheduledExecutorService executor = Executors.newScheduledThreadPool(1);
        try {
            executor.schedule(() -> { }, 1, TimeUnit.MILLISECONDS).get();
            System.out.println("hello from " + executor.getClass().getName());
        } finally {
            executor.shutdown();
        }
    }
}
