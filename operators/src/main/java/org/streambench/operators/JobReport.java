package org.streambench.operators;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.streambench.model.RunDocument.Latency;

/**
 * What a job did, as the runner builds it from its workers' statuses ({@link #of}). Latencies are over the measured window:
 * {@code latency} of the successful reads; {@code latencyByResult} of hits, misses and failed reads,
 * each apart (only those that occurred); {@code endToEnd} from each record's intended emit time to
 * the end of its processing; {@code generatorDelay} how late the generators emitted; {@code access}
 * the access mode's own latencies (write calls, batch wait), those that occurred;
 * {@code restartedInstances} the processing operator instances the engine restarted from a checkpoint;
 * {@code faultInjectedAtEpochMillis} when the run's injected fault fired, on the job's clock (0: it did not).
 */
public record JobReport(
        String status,
        String error,
        String engineVersion,
        Map<Integer, Long> emittedByInstance,
        Map<Operation, Long> processed,
        long errors,
        String firstError,
        Latency latency,
        Map<String, Latency> latencyByResult,
        Latency endToEnd,
        Latency generatorDelay,
        Map<String, Latency> access,
        long restartedInstances,
        long faultInjectedAtEpochMillis) {

    /**
     * The job's report from its workers' last statuses: counts added up (a generator instance
     * is hosted by one worker), latency histograms merged, so the statistics are those of every
     * read of the job, not an average of averages. Workers without a final status add counts only.
     */
    public static JobReport of(String status, String error, Collection<WorkerStatus> workers) {
        Map<Integer, Long> emitted = new TreeMap<>();
        Map<Operation, Long> processed = new EnumMap<>(Operation.class);
        for (Operation op : Operation.values()) {
            processed.put(op, 0L);
        }
        long errors = 0;
        long restarted = 0;
        long faultInjectedAt = 0;
        String firstError = null;
        String engineVersion = null;
        List<OperatorMetrics.LatencyWindow> windows = new ArrayList<>();
        for (WorkerStatus worker : workers) {
            WorkerStatus.mergeEmitted(emitted, worker.emittedByInstance());
            worker.processed().forEach((op, count) -> processed.merge(op, count, Long::sum));
            errors += worker.errors();
            restarted += worker.restartedInstances();
            if (worker.faultInjectedAtEpochMillis() > 0) {
                faultInjectedAt = faultInjectedAt == 0
                        ? worker.faultInjectedAtEpochMillis()
                        : Math.min(faultInjectedAt, worker.faultInjectedAtEpochMillis());
            }
            firstError = firstError == null ? worker.firstError() : firstError;
            engineVersion = engineVersion == null ? worker.engineVersion() : engineVersion;
            if (worker.isFinal()) {
                windows.add(worker.window());
            }
        }
        if (windows.isEmpty()) {
            return new JobReport(
                    status,
                    error,
                    engineVersion,
                    emitted,
                    processed,
                    errors,
                    firstError,
                    null,
                    Map.of(),
                    null,
                    null,
                    Map.of(),
                    restarted,
                    faultInjectedAt);
        }
        OperatorMetrics.LatencyWindow window = OperatorMetrics.LatencyWindow.merge(windows);
        Map<String, Latency> byResult = new LinkedHashMap<>();
        window.byResult().forEach((result, histogram) -> {
            if (histogram.getTotalCount() > 0) {
                byResult.put(result.label(), Latencies.of(histogram));
            }
        });
        Map<String, Latency> access = new TreeMap<>();
        window.access().forEach((name, histogram) -> {
            if (histogram.getTotalCount() > 0) {
                access.put(name, Latencies.of(histogram));
            }
        });
        return new JobReport(
                status,
                error,
                engineVersion,
                emitted,
                processed,
                errors,
                firstError,
                Latencies.of(window.successful()),
                byResult,
                Latencies.of(window.endToEnd()),
                Latencies.of(window.generatorDelay()),
                access,
                restarted,
                faultInjectedAt);
    }

    public long totalEmitted() {
        return emittedByInstance.values().stream().mapToLong(Long::longValue).sum();
    }

    public long totalProcessed() {
        return processed.values().stream().mapToLong(Long::longValue).sum();
    }
}
