package org.streambench.generator;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Paces one generator instance on a fixed schedule: permit k is due at {@code start + k / rate}.
 * A limiter that fell behind (a stall, backpressure) never skips permits; it hands them out at
 * once until it is back on schedule, and {@link #lagNanos()} says how far behind it is. Every
 * permit carries its intended time, so latency can be measured from when a record should have been
 * emitted. A rate of 0 or less means unthrottled: the engine's backpressure is then the only brake,
 * and a permit's intended time is the time it was taken.
 */
public final class RateLimiter {

    private static final double SECOND = 1e9;

    private final double permitsPerSecond;
    private final LongSupplier clock;
    private final long start;
    private long issued;

    /** A limiter on the {@link EpochClock}. */
    public RateLimiter(double permitsPerSecond) {
        this(permitsPerSecond, EpochClock::nowNanos);
    }

    RateLimiter(double permitsPerSecond, LongSupplier clock) {
        this.permitsPerSecond = permitsPerSecond > 0 ? permitsPerSecond : 0;
        this.clock = clock;
        this.start = clock.getAsLong();
    }

    public boolean throttled() {
        return permitsPerSecond > 0;
    }

    /** When the next permit is due; for an unthrottled limiter, now. */
    public long nextDueNanos() {
        return throttled() ? start + (long) (issued * SECOND / permitsPerSecond) : clock.getAsLong();
    }

    /** How long until the next permit is due; 0 or less when it is due now. */
    public long nanosUntilDue() {
        return throttled() ? nextDueNanos() - clock.getAsLong() : 0;
    }

    /** How far behind its schedule the limiter is: the age of the oldest permit not yet taken; 0 when on time. */
    public long lagNanos() {
        return Math.max(0, -nanosUntilDue());
    }

    /** Takes the next permit without waiting, whether it is due or not; returns its intended time. */
    public long take() {
        long due = nextDueNanos();
        issued++;
        return due;
    }

    /** Blocks until the next permit is due, then takes it; returns its intended time. */
    public long acquire() {
        long wait = nanosUntilDue();
        while (wait > 0) {
            LockSupport.parkNanos(wait);
            wait = nanosUntilDue();
        }
        return take();
    }
}
