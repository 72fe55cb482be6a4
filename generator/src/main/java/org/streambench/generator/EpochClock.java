package org.streambench.generator;

/**
 * Wall-clock time in nanoseconds since the epoch with {@link System#nanoTime()}'s resolution and
 * monotonicity: anchored once per JVM to {@link System#currentTimeMillis()}. Times taken in one JVM
 * are exact relative to each other; across JVMs they agree to about a millisecond (the anchor), and
 * they can be joined with other wall-clock data such as Prometheus samples.
 */
public final class EpochClock {

    private static final long ANCHOR_EPOCH_NANOS = System.currentTimeMillis() * 1_000_000L;
    private static final long ANCHOR_NANO_TIME = System.nanoTime();

    private EpochClock() {}

    public static long nowNanos() {
        return ANCHOR_EPOCH_NANOS + (System.nanoTime() - ANCHOR_NANO_TIME);
    }
}
