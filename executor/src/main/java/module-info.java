/**
 * timewheel: a {@link java.util.concurrent.ScheduledThreadPoolExecutor} drop-in on a hashed
 * hierarchical timing wheel. Depends on {@code java.base} only at run time: jdk.jfr (its JFR events) and
 * java.management (its opt-in MXBean) are used when the runtime has them and skipped when it does not.
 */
module io.timewheel.executor {
    requires static jdk.jfr;
    requires static java.management;

    // The API and the wheel. io.timewheel.executor.internal and the rooms under it (observe, pool, tick,
    // queue) are not exported: on the module path their public members serve one another only
    // (package-info.java maps the rooms)
    exports io.timewheel.executor;
    exports io.timewheel.wheel;
    // JFR instruments and reads the event classes
    exports io.timewheel.executor.jfr to jdk.jfr;
    // the netty module's WheelTimer puts its timeouts, each its own entry, into a shared executor's queue
    exports io.timewheel.executor.internal.queue to io.timewheel.netty;
}
