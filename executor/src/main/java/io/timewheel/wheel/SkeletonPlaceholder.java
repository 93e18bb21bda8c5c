package io.timewheel.wheel;

/**
 * Placeholder so that the exported package {@code io.timewheel.wheel} is not empty and the skeleton
 * compiles (javac rejects {@code exports} of a package holding only a package-info). Delete it when
 * {@code TimerWheel} lands.
 */
final class SkeletonPlaceholder {
    private SkeletonPlaceholder() {}
}
