package demo;

import java.util.concurrent.*;

public class App {
    public static void main(String[] args) throws Exception {
        ScheduledExecutorService executor = Executors.newScheduledThreadPool(1);
        System.out.println(executor.schedule(() -> "ran on " + executor.getClass().getName(), 10, TimeUnit.MILLISECONDS).get());
        if (!executor.getClass().getName().equals("io.timewheel.executor.WheelScheduledExecutorService")) System.exit(1);
        executor.shutdown();
    }
}
