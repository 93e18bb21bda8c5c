/**
 * timewheel: a {@link java.util.concurrent.ScheduledThreadPoolExecutor} drop-in on a hashed
 * hierarchical timing wheel. Depends on {@code java.base} only.
 */
module io.timewheel.executor {
    exports io.timewheel.executor;
    exports io.timewheel.wheel;
}
