package org.streambench.runner.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntToLongFunction;
import org.junit.jupiter.api.Test;
import org.streambench.model.RunDocument;
import org.streambench.model.RunDocument.Second;

/** The measured window's trend, on per-second series computed by hand. */
class ThroughputTrendTest {

    /** {@code warmup} warm-up seconds, then {@code measured} seconds; records of second i (1-based) from {@code records}. */
    private static RunDocument.Throughput of(int warmup, int measured, IntToLongFunction records) {
        List<Second> seconds = new ArrayList<>();
        for (int i = 1; i <= warmup + measured; i++) {
            seconds.add(Second.of(i, i <= warmup, records.applyAsLong(i)));
        }
        return WindowStatistics.throughput(seconds);
    }

    @Test
    void aFlatNoisyWindowIsSteady() {
        RunDocument.Throughput flat = of(5, 30, i -> i % 2 == 0 ? 1100 : 900);
        assertEquals(1000, flat.mean(), 1e-9);
        assertTrue(Math.abs(flat.trendPercent()) < 2, "trend " + flat.trendPercent());
        assertFalse(flat.trending());
    }

    /** As the issue saw on Cassandra: throughput still rising from ~260 to ~900 records/s inside the window. */
    @Test
    void aWindowThatStillRisesIsFlagged() {
        RunDocument.Throughput rising = of(5, 30, i -> 260 + (i - 6) * 22 + (i % 3) * 15);
        assertTrue(rising.trending());
        // the line through the window rises by 29 x 22 = 638 records/s; mean = 260 + 14.5 x 22 + 15 = 594 (noise adds
        // ~0)
        assertEquals(638.0 / 594.0 * 100, rising.trendPercent(), 3);
    }

    @Test
    void aFallingWindowIsFlaggedToo() {
        RunDocument.Throughput falling = of(0, 20, i -> 2000 - i * 40);
        assertTrue(falling.trending());
        assertTrue(falling.trendPercent() < -40, "trend " + falling.trendPercent());
    }

    @Test
    void onlyTheMeasuredSecondsCount() {
        RunDocument.Throughput afterRamp = of(10, 20, i -> i <= 10 ? i * 100 : 1000);
        assertEquals(1000, afterRamp.mean(), 1e-9);
        assertEquals(0, afterRamp.trendPercent(), 1e-9);
        assertFalse(afterRamp.trending());
    }

    @Test
    void aSmallButSteadyDriftIsNoTrend() {
        RunDocument.Throughput drift = of(0, 30, i -> 1000 + i); // +3 % over the window, perfectly linear
        assertTrue(drift.trendPercent() > 2 && drift.trendPercent() < 4, "trend " + drift.trendPercent());
        assertFalse(drift.trending(), "below the tolerance");
    }
}
