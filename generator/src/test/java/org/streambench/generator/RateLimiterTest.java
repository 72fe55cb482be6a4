package org.streambench.generator;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RateLimiterTest {

    @Test
    void holdsASetRate() {
        RateLimiter limiter = new RateLimiter(2000);
        long start = System.nanoTime();
        int permits = 0;
        while (System.nanoTime() - start < 1_000_000_000L) {
            limiter.acquire();
            permits++;
        }
        // one second at 2000/s; the first permit is immediate
        assertTrue(permits >= 1800 && permits <= 2100, "permits in one second: " + permits);
    }

    @Test
    void zeroMeansUnthrottled() {
        RateLimiter limiter = new RateLimiter(0);
        assertFalse(limiter.throttled());
        long start = System.nanoTime();
        for (int i = 0; i < 1_000_000; i++) {
            limiter.acquire();
        }
        assertTrue(System.nanoTime() - start < 1_000_000_000L, "an unthrottled limiter must not wait");
    }
}
