package sampleapp;

import com.sun.tools.attach.VirtualMachine;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Loads the agent into itself after start-up (the attach API), then shows what is swapped from then
 * on. Arguments: the agent jar, then optionally its options. Needs
 * {@code -Djdk.attach.allowAttachSelf=true} (and {@code -XX:+EnableDynamicAgentLoading} on JDK 21+).
 */
public final class AttachApp {

    private AttachApp() {
    }

    public static void main(String[] args) throws Exception {
        ScheduledThreadPoolExecutor early = EarlyUser.create();
        Observe.print("before.earlyUser", early.getClass().getName());
        ScheduledThreadPoolExecutor earlySubclass = new EarlySubclass();
        ScheduledExecutorService earlyFactory = Executors.newScheduledThreadPool(1);

        VirtualMachine vm = VirtualMachine.attach(Long.toString(ProcessHandle.current().pid()));
        try {
            vm.loadAgent(args[0], args.length > 1 ? args[1] : "");
        } finally {
            vm.detach();
        }

        Observe.print("after.earlyExecutor", early.getClass().getName());
        Observe.print("after.earlyUser", EarlyUser.create().getClass().getName());
        Observe.print("after.factory", Executors.newScheduledThreadPool(1).getClass().getName());
        Observe.print("after.lateUser", LateUser.create().getClass().getName());
        Observe.print("after.earlySubclass.super", EarlySubclass.class.getSuperclass().getName());
        Observe.print("after.lateSubclass.super", LateSubclass.class.getSuperclass().getName());
        Observe.print("after.lateSubclass.runs", Observe.runsTask(new LateSubclass()));
        for (ScheduledExecutorService executor : new ScheduledExecutorService[]{early, earlySubclass, earlyFactory}) {
            executor.shutdown();
            executor.awaitTermination(10, TimeUnit.SECONDS);
        }
        System.exit(0); // the executors made after the attach are not kept; exit without waiting for them
    }

    /** Loaded and used before the attach: retransformed by it. */
    static final class EarlyUser {
        static ScheduledThreadPoolExecutor create() {
            return new ScheduledThreadPoolExecutor(1);
        }
    }

    /** Loaded only after the attach. */
    static final class LateUser {
        static ScheduledThreadPoolExecutor create() {
            return new ScheduledThreadPoolExecutor(1);
        }
    }

    /** Loaded before the attach: its superclass cannot change any more. */
    static final class EarlySubclass extends ScheduledThreadPoolExecutor {
        EarlySubclass() {
            super(1);
        }
    }

    /** Loaded after the attach: rebased as under premain. */
    static final class LateSubclass extends ScheduledThreadPoolExecutor {
        LateSubclass() {
            super(1);
        }
    }
}
