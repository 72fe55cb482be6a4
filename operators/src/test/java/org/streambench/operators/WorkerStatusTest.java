package org.streambench.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** What a worker pushes is what the collector reads, and the job's report adds its workers up exactly. */
class WorkerStatusTest {

    @Test
    void everyFieldOfAStatusSurvivesTheWire() {
        WorkerStatus sent = status("host-a:12", Map.of(0, 100L, 3, 98L), 101, 97, 2, window(1_000, 5_000, 2));
        WorkerStatus read = WorkerStatus.fromText(sent.toText());
        assertEquals(sent.worker(), read.worker());
        assertEquals(sent.endpoint(), read.endpoint());
        assertEquals(sent.engineVersion(), read.engineVersion());
        assertEquals(sent.emittedByInstance(), read.emittedByInstance());
        assertEquals(sent.endedInstances(), read.endedInstances());
        assertEquals(sent.processed(), read.processed());
        assertEquals(sent.errors(), read.errors());
        assertEquals(7, read.awaitingCommit());
        assertEquals(sent.firstError(), read.firstError());
        assertEquals(sent.failure(), read.failure());
        assertEquals(sent.faultInjectedAtEpochMillis(), read.faultInjectedAtEpochMillis());
        assertEquals(1_763_999_999_000L, read.emittingSinceEpochMillis());
        assertTrue(read.claimsFault());
        assertTrue(read.isFinal());
        for (OperatorMetrics.ReadResult result : OperatorMetrics.ReadResult.values()) {
            assertEquals(
                    sent.window().byResult().get(result),
                    read.window().byResult().get(result),
                    result.label());
        }
        assertEquals(sent.window().successful(), read.window().successful());
        assertEquals(sent.window().endToEnd(), read.window().endToEnd());
        assertEquals(sent.window().generatorDelay(), read.window().generatorDelay());
        assertEquals(sent.window().access(), read.window().access(), "the access mode's latencies too");
    }

    @Test
    void aStatusBeforeTheEndCarriesNoWindow() {
        WorkerStatus read =
                WorkerStatus.fromText(status("w", Map.of(), 0, 0, 0, null).toText());
        assertFalse(read.isFinal());
        assertNull(read.window());
    }

    @Test
    void theCollectorsAnswerSurvivesTheWire() {
        WorkerStatus.View sent = new WorkerStatus.View(
                true, false, Map.of(1, 40L, 2, 2L), Set.of(2), 39, 17, true, 3, 1_764_000_000_123L, "host:42");
        assertEquals(sent, WorkerStatus.View.fromText(sent.toText()));
        WorkerStatus.View noFault = new WorkerStatus.View(true, false, Map.of(), Set.of(), 0, 0, false, 1, 0, null);
        assertEquals(noFault, WorkerStatus.View.fromText(noFault.toText()));
    }

    /** One worker's reads took 1 ms, the other's 9 ms: the job's median is between them, not an average of two medians. */
    @Test
    void theJobsReportAddsCountsAndMergesHistogramsAcrossWorkers() {
        WorkerStatus a = status("a", Map.of(0, 10L), 6, 4, 0, window(1_000_000, 1_000_000, 3));
        WorkerStatus b = status("b", Map.of(1, 7L), 5, 2, 1, window(9_000_000, 9_000_000, 1));
        JobReport report = JobReport.of("finished", null, List.of(a, b));
        assertEquals(Map.of(0, 10L, 1, 7L), report.emittedByInstance());
        assertEquals(11, report.processed().get(Operation.INSERT));
        assertEquals(6, report.processed().get(Operation.UPDATE));
        assertEquals(1, report.errors());
        assertEquals(6, report.latency().count(), "every successful read (hit or miss) of both workers");
        assertEquals(1_000, report.latency().p50(), 5, "4 of the 6 reads took 1 ms");
        assertEquals(9_000, report.latency().max(), 10);
        assertEquals(4, report.endToEnd().count());
        assertEquals(
                2, report.access().get(OperatorMetrics.LatencyWindow.WRITE_CALL).count(), "a write call each");
        assertEquals("Engine 1.0", report.engineVersion());
    }

    @Test
    void aReportFromWorkersThatNeverFinishedHasCountsButNoLatencies() {
        JobReport report = JobReport.of("failed", "killed", List.of(status("a", Map.of(0, 3L), 3, 0, 0, null)));
        assertEquals(3, report.totalEmitted());
        assertNull(report.latency());
    }

    /**
     * A generator instance that the engine restarted in another JVM reports there again what its
     * first JVM had reported: the job counts it once, at its highest count.
     */
    @Test
    void anInstanceReportedByTwoWorkersCountsOnceAtItsHighestCount() {
        JobReport report = JobReport.of(
                "failed",
                "killed",
                List.of(
                        status("first", Map.of(0, 1_000L, 1, 400L), 0, 0, 0, null),
                        status("second", Map.of(0, 1_200L), 0, 0, 0, null)));
        assertEquals(Map.of(0, 1_200L, 1, 400L), report.emittedByInstance());
        assertEquals(1_600, report.totalEmitted());
    }

    private static WorkerStatus status(
            String worker,
            Map<Integer, Long> emitted,
            long inserts,
            long updates,
            long errors,
            OperatorMetrics.LatencyWindow window) {
        Map<Operation, Long> processed = new EnumMap<>(Operation.class);
        processed.put(Operation.READ, 0L);
        processed.put(Operation.INSERT, inserts);
        processed.put(Operation.UPDATE, updates);
        return new WorkerStatus(
                worker,
                "http://" + worker + ":9000",
                "Engine 1.0",
                emitted,
                emitted.keySet(),
                processed,
                errors,
                7, // records awaiting their checkpoint's commit
                errors > 0 ? "insert: refused=1\nsecond line" : null,
                errors > 0 ? "a database call failed" : null,
                errors,
                errors > 0 ? 1_764_000_000_000L + errors : 0,
                emitted.isEmpty() ? 0 : 1_763_999_999_000L,
                errors > 0 ? 1_764_000_000_500L : 0,
                errors > 0,
                window);
    }

    /** {@code reads} hits of {@code hitNanos}, one miss of {@code missNanos}, as many end-to-end latencies. */
    private static OperatorMetrics.LatencyWindow window(long hitNanos, long missNanos, int reads) {
        Map<OperatorMetrics.ReadResult, Histogram> byResult = new EnumMap<>(OperatorMetrics.ReadResult.class);
        for (OperatorMetrics.ReadResult result : OperatorMetrics.ReadResult.values()) {
            byResult.put(result, new Histogram(3));
        }
        Histogram endToEnd = new Histogram(3);
        for (int i = 0; i < reads; i++) {
            byResult.get(OperatorMetrics.ReadResult.HIT).recordValue(hitNanos);
            endToEnd.recordValue(hitNanos * 2);
        }
        byResult.get(OperatorMetrics.ReadResult.MISS).recordValue(missNanos);
        Histogram delay = new Histogram(3);
        delay.recordValue(42);
        Histogram writeCall = new Histogram(3);
        writeCall.recordValue(hitNanos * 3);
        return OperatorMetrics.LatencyWindow.of(
                byResult, endToEnd, delay, Map.of(OperatorMetrics.LatencyWindow.WRITE_CALL, writeCall));
    }
}
