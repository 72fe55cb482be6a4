package org.streambench.generator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The schedule on a hand-driven clock, so no assertion depends on how busy the machine is. */
class RateLimiterTest {

    private static final long MS = 1_000_000L;

    private final AtomicLong now = new AtomicLong(5_000 * MS);

    @Test
    void permitKIsDueAtStartPlusKIntervals() {
        RateLimiter limiter = new RateLimiter(2000, now::get); // one permit every 0.5 ms
        assertEquals(5_000 * MS, limiter.take());
        assertEquals(5_000 * MS + MS / 2, limiter.nextDueNanos());
        assertEquals(MS / 2, limiter.nanosUntilDue());
        now.addAndGet(MS / 2);
        assertEquals(0, limiter.nanosUntilDue());
        assertEquals(5_000 * MS + MS / 2, limiter.take());
    }

    @Test
    void aLimiterBehindItsScheduleSkipsNothingAndReportsItsLag() {
        RateLimiter limiter = new RateLimiter(1000, now::get);
        limiter.take();
        now.addAndGet(10 * MS); // a stall of 10 ms: permits 1..10 are overdue
        assertEquals(9 * MS, limiter.lagNanos());
        for (int k = 1; k <= 10; k++) {
            assertTrue(limiter.nanosUntilDue() <= 0, "permit " + k + " is due at once");
            assertEquals(5_000 * MS + k * MS, limiter.take(), "permit " + k + " keeps its intended time");
        }
        assertEquals(0, limiter.lagNanos());
        assertEquals(MS, limiter.nanosUntilDue());
    }

    @Test
    void fractionalIntervalsDoNotDrift() {
        RateLimiter limiter = new RateLimiter(3, now::get); // 333,333,333.3 ns apart
        for (int k = 0; k < 3_000; k++) {
            limiter.take();
        }
        assertEquals(
                5_000 * MS + 1_000_000 * MS,
                limiter.nextDueNanos(),
                "permit 3000 is due exactly 1000 s after the start");
    }

    @Test
    void zeroMeansUnthrottled() {
        RateLimiter limiter = new RateLimiter(0, now::get);
        assertFalse(limiter.throttled());
        assertEquals(0, limiter.nanosUntilDue());
        now.addAndGet(7 * MS);
        assertEquals(now.get(), limiter.take(), "an unthrottled permit is intended for the moment it is taken");
        assertEquals(0, limiter.lagNanos());
    }

    @Test
    void acquireWaitsForTheRealClock() {
        RateLimiter limiter = new RateLimiter(100);
        limiter.acquire();
        long second = limiter.acquire();
        assertTrue(EpochClock.nowNanos() >= second, "acquire returns no earlier than the permit's intended time");
    }
}
