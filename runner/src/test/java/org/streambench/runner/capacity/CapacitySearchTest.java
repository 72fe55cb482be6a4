package org.streambench.runner.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.streambench.model.CapacityDocument;

/**
 * The search on simulated pipelines of known capacity: a queue that keeps up below its capacity C
 * (processing what it is given, p99 rising as the rate nears C) and falls behind above it.
 */
class CapacitySearchTest {

    private static final CapacitySearch.Objective FIFTY_MS = new CapacitySearch.Objective(50_000);
    private static final CapacitySearch.Bounds BOUNDS = new CapacitySearch.Bounds(12, Long.MAX_VALUE, 0.05);

    /** A pipeline of capacity {@code capacity} whose p99 is 2 ms at rest and grows as 1 / (1 - load). */
    private static CapacitySearch.Pipeline queue(double capacity, List<Double> tried) {
        return rate -> {
            tried.add(rate);
            boolean keepsUp = rate <= capacity;
            double load = Math.min(rate / capacity, 0.999);
            long p99 = Math.round(2_000 / (1 - load));
            return CapacitySearch.judge(
                    rate, keepsUp ? rate : capacity, 1_000L, p99, p99 * 2, !keepsUp, null, "step", FIFTY_MS);
        };
    }

    @Test
    void findsTheRateWhereTheObjectiveStopsBeingMetWithinTheTolerance() throws Exception {
        // p99 <= 50 ms while 2 / (1 - load) <= 50: load <= 0.96, so 960 records/s of a capacity of 1,000
        List<Double> tried = new ArrayList<>();
        CapacitySearch.Result result = CapacitySearch.search(1_000, queue(1_000, tried), BOUNDS, () -> 0, (n, s) -> {});
        assertTrue(result.capacity() >= 960 * 0.95 && result.capacity() <= 960, "capacity " + result.capacity());
        assertEquals(900.0, tried.get(0), "the first step at 0.9 of the probe");
        assertTrue(
                result.stopReason().startsWith("the highest pass and the lowest failure within 5 %"),
                result.stopReason());
        assertEquals(tried.size(), result.steps().size(), "every step kept");
    }

    @Test
    void aTightObjectiveIsFoundFarBelowTheProbeByHalvingFirst() throws Exception {
        // 10 ms: load <= 0.8, 800/s of a capacity of 1,000, but the probe said 2,000 (a faster unthrottled run)
        CapacitySearch.Objective tenMs = new CapacitySearch.Objective(10_000);
        List<Double> tried = new ArrayList<>();
        CapacitySearch.Pipeline pipeline = rate -> {
            tried.add(rate);
            double load = Math.min(rate / 1_000, 0.999);
            long p99 = Math.round(2_000 / (1 - load));
            return CapacitySearch.judge(rate, Math.min(rate, 1_000), 1L, p99, p99, rate > 1_000, null, "step", tenMs);
        };
        CapacitySearch.Result result = CapacitySearch.search(2_000, pipeline, BOUNDS, () -> 0, (n, s) -> {});
        // 1,800 fell short (1,000 processed): next 0.95 x 1,000; 950 kept up but missed the objective: halved
        assertEquals(List.of(1800.0, 950.0, 475.0), tried.subList(0, 3), "below what was processed, then halving");
        assertTrue(result.capacity() >= 800 * 0.95 && result.capacity() <= 800, "capacity " + result.capacity());
    }

    @Test
    void anObjectiveNoRateMeetsEndsWithNoCapacity() throws Exception {
        CapacitySearch.Objective oneMicro = new CapacitySearch.Objective(1);
        CapacitySearch.Pipeline pipeline =
                rate -> CapacitySearch.judge(rate, rate, 10L, 2_000L, 3_000L, false, null, "step", oneMicro);
        CapacitySearch.Result result = CapacitySearch.search(
                1_000, pipeline, new CapacitySearch.Bounds(50, Long.MAX_VALUE, 0.05), () -> 0, (n, s) -> {});
        assertNull(result.capacity());
        assertEquals("no rate from 1 record/s met the objective", result.stopReason());
        assertTrue(result.steps().stream().noneMatch(CapacityDocument.Step::passed));
    }

    @Test
    void aSearchEndsAtItsMostStepsOrItsLongestTime() throws Exception {
        List<Double> tried = new ArrayList<>();
        CapacitySearch.Result fewSteps = CapacitySearch.search(
                1_000, queue(1_000, tried), new CapacitySearch.Bounds(3, Long.MAX_VALUE, 0.001), () -> 0, (n, s) -> {});
        assertEquals(3, fewSteps.steps().size());
        assertEquals("the most steps, 3", fewSteps.stopReason());

        AtomicLong now = new AtomicLong();
        CapacitySearch.Pipeline slow = rate -> {
            now.addAndGet(60_000_000_000L); // each step a minute
            return queue(1_000, new ArrayList<>()).run(rate);
        };
        CapacitySearch.Result shortTime = CapacitySearch.search(
                1_000, slow, new CapacitySearch.Bounds(100, 150_000_000_000L, 0.001), now::get, (n, s) -> {});
        assertEquals(3, shortTime.steps().size(), "steps started within 2.5 minutes");
        assertEquals("the longest search time", shortTime.stopReason());
    }

    @Test
    void aStepIsJudgedByEveryPartOfTheObjective() {
        assertTrue(CapacitySearch.judge(100, 99.5, 1L, 40_000L, 1L, false, null, "f", FIFTY_MS)
                .passed());
        assertEquals(
                "processed 98/s, below 99 % of the target",
                CapacitySearch.judge(100, 98, 1L, 40_000L, 1L, false, null, "f", FIFTY_MS)
                        .why());
        assertEquals(
                "fell behind: the records emitted but not processed yet kept growing",
                CapacitySearch.judge(100, 100, 1L, 40_000L, 1L, true, null, "f", FIFTY_MS)
                        .why());
        assertEquals(
                "p99 60.0 ms above the objective 50.0 ms",
                CapacitySearch.judge(100, 100, 1L, 60_000L, 1L, false, null, "f", FIFTY_MS)
                        .why());
        assertEquals(
                "the run failed: verification found 1 mismatches",
                CapacitySearch.judge(100, 100, 1L, 1L, 1L, false, "verification found 1 mismatches", "f", FIFTY_MS)
                        .why());
    }
}
