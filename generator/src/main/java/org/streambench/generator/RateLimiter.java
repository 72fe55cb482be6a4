package org.streambench.generator;

import java.util.concurrent.locks.LockSupport;

/**
 * Paces one generator instance at a fixed rate. A rate of 0 or less means unthrottled: the
 * engine's backpressure is then the only brake. A limiter that falls behind catches up for at
 * most one second, so a stall never turns into a long burst.
 */
public final class RateLimiter {

    private static final long SECOND = 1_000_000_000L;

    private final long intervalNanos;
    private long nextSlot;

    public RateLimiter(double permitsPerSecond) {
        this.intervalNanos = permitsPerSecond > 0 ? Math.max(1L, Math.round(SECOND / permitsPerSecond)) : 0;
        this.nextSlot = System.nanoTime();
    }

    public boolean throttled() {
        return intervalNanos > 0;
    }

    /** Blocks until the next permit is due. */
    public void acquire() {
        if (intervalNanos == 0) {
            return;
        }
        long now = System.nanoTime();
        if (now - nextSlot > SECOND) {
            nextSlot = now - SECOND;
        }
        long wait = nextSlot - now;
        while (wait > 0) {
            LockSupport.parkNanos(wait);
            wait = nextSlot - System.nanoTime();
        }
        nextSlot += intervalNanos;
    }
}
