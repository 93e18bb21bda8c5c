package demo;

import io.timewheel.executor.WheelScheduledExecutorService;
import java.util.concurrent.TimeUnit;

public class Main {
    public static void main(String[] args) throws Exception {
        WheelScheduledExecutorService executor = new WheelScheduledExecutorService(1);
        System.out.println(executor.schedule(() -> "ran on the wheel", 10, TimeUnit.MILLISECONDS).get());
        executor.shutdown();
    }
}
