package sampleapp.netty;

import io.netty.util.HashedWheelTimer;

import java.lang.reflect.Field;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** Whether this loader's HashedWheelTimer is the agent's swap, and whether a timer of it fires: "swapped,fired". */
public final class SwapProbe implements Supplier<String> {

    @Override
    public String get() {
        boolean swapped = false;
        for (Field field : HashedWheelTimer.class.getDeclaredFields()) {
            swapped |= field.getName().equals("timewheel$timer");
        }
        HashedWheelTimer timer = new HashedWheelTimer();
        try {
            CountDownLatch ran = new CountDownLatch(1);
            timer.newTimeout(t -> ran.countDown(), 1, TimeUnit.MILLISECONDS);
            return (swapped ? "swapped," : "netty's,") + (ran.await(10, TimeUnit.SECONDS) ? "fired" : "did not fire");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        } finally {
            timer.stop();
        }
    }
}
