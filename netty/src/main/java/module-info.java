/**
 * timewheel for Netty: {@link io.timewheel.netty.WheelTimer}, an {@code io.netty.util.Timer} on timewheel's
 * shared tick thread. netty-common is the application's own (io.netty.common: 4.1's Automatic-Module-Name,
 * 4.2's module descriptor).
 */
module io.timewheel.netty {
    requires io.timewheel.executor;
    requires io.netty.common;

    exports io.timewheel.netty;
}
