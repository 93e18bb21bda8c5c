package sampleapp;

import java.lang.reflect.Field;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * CompletableFuture's timeouts, which run on the JDK's own scheduled executor
 * ({@code CompletableFuture$Delayer} on JDK 17 to 24). Run with
 * {@code --add-opens java.base/java.util.concurrent=ALL-UNNAMED} to see which executor that is.
 */
public final class TimeoutApp {

    private TimeoutApp() {
    }

    public static void main(String[] args) throws Exception {
        Observe.print("java", Runtime.version().feature());
        try {
            new CompletableFuture<String>().orTimeout(5, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS);
            Observe.print("orTimeout", "no timeout");
        } catch (ExecutionException e) {
            Observe.print("orTimeout", e.getCause().getClass().getName());
        }
        Observe.print("completeOnTimeout", new CompletableFuture<String>()
                .completeOnTimeout("fallback", 5, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS));
        Executor delayed = CompletableFuture.delayedExecutor(5, TimeUnit.MILLISECONDS);
        Observe.print("delayedExecutor", CompletableFuture.supplyAsync(() -> "delayed", delayed).get(10, TimeUnit.SECONDS));
        Observe.print("delayer", delayerClass());
    }

    /** The class of the JDK's internal delayer executor, "none" if this JDK has none. */
    static String delayerClass() {
        try {
            Class<?> delayer = Class.forName("java.util.concurrent.CompletableFuture$Delayer");
            Field field = delayer.getDeclaredField("delayer");
            field.setAccessible(true);
            return field.get(null).getClass().getName();
        } catch (ClassNotFoundException absent) {
            return "none";
        } catch (ReflectiveOperationException | RuntimeException e) {
            return "?(" + e + ")";
        }
    }
}
