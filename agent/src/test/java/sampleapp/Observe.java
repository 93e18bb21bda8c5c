package sampleapp;

import java.lang.reflect.Field;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** What the sample applications print: {@code key=value} lines the integration tests read. */
final class Observe {

    private Observe() {
    }

    static void print(String key, Object value) {
        System.out.println(key + "=" + value);
    }

    /**
     * The executor's class; for the JDK's wrappers ({@code Executors$Delegated...}) the wrapper and,
     * after {@code >}, the class inside (needs {@code --add-opens java.base/java.util.concurrent=ALL-UNNAMED}).
     */
    static String describe(ExecutorService executor) {
        String name = executor.getClass().getName();
        if (!name.startsWith("java.util.concurrent.Executors$Delegated")) {
            return name;
        }
        for (Class<?> c = executor.getClass(); c != null; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                if (ExecutorService.class.isAssignableFrom(field.getType())) {
                    try {
                        field.setAccessible(true);
                        return name + ">" + field.get(executor).getClass().getName();
                    } catch (ReflectiveOperationException | RuntimeException e) {
                        return name + ">?(" + e + ")";
                    }
                }
            }
        }
        return name + ">?";
    }

    /** Schedules one short task, waits for it, shuts the executor down; "ran" or what went wrong. */
    static String runsTask(ScheduledExecutorService executor) {
        try {
            String result = executor.schedule(() -> "ran", 2, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS);
            executor.shutdown();
            return executor.awaitTermination(10, TimeUnit.SECONDS) ? result : "did not terminate";
        } catch (Exception e) {
            return "failed: " + e;
        }
    }
}
