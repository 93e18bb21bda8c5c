package sampleapp;

import io.timewheel.executor.WheelScheduledExecutorService;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * An application that has the executor jar on its own class path, and so uses the wheel executor
 * directly as well as through code the agent rewrites.
 */
public final class DoubleJarApp {

    private DoubleJarApp() {
    }

    public static void main(String[] args) {
        Class<?> direct = WheelScheduledExecutorService.class;
        Observe.print("direct.version", direct.getPackage().getImplementationVersion());
        Observe.print("direct.loader", direct.getClassLoader() == ClassLoader.getSystemClassLoader() ? "system"
                : String.valueOf(direct.getClassLoader()));
        WheelScheduledExecutorService own = new WheelScheduledExecutorService(1);
        Observe.print("direct.runs", Observe.runsTask(own));
        ScheduledThreadPoolExecutor constructed = new ScheduledThreadPoolExecutor(1);
        Observe.print("construction.same", Boolean.toString(constructed.getClass() == direct));
        Observe.print("construction.runs", Observe.runsTask(constructed));
        ScheduledExecutorService factory = Executors.newScheduledThreadPool(1);
        Observe.print("factory.same", Boolean.toString(factory.getClass() == direct));
        Observe.print("factory.runs", Observe.runsTask(factory));
        HookedScheduler subclass = new HookedScheduler(1, null);
        Observe.print("subclass.same", Boolean.toString(HookedScheduler.class.getSuperclass() == direct));
        Observe.print("subclass.runs", Observe.runsTask(subclass));
    }
}
