package org.streambench.runner.results;

import java.util.List;
import java.util.Map;
import org.streambench.model.RunDocument;
import org.streambench.model.RunDocument.Environment;
import org.streambench.model.RunDocument.Second;
import org.streambench.model.RunDocument.Verification;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.JobReport;

/**
 * Everything one run produced; written as result.json and per-second.csv. {@code phaseSeconds}:
 * where the run's wall time went (see ExperimentRunner.Phases); {@code recovery} null for a run with
 * the guarantee none and no fault; {@code resources} null for a bounded run.
 */
public record RunResult(
        ExperimentSpec spec,
        RunDocument.Warmup warmup,
        String status,
        String error,
        String startedAt,
        RunDocument.Throughput throughput,
        RunDocument.Rate rate,
        RunDocument.Latency readLatencyMicros,
        List<Second> perSecond,
        Verification verification,
        JobReport report,
        Environment environment,
        Map<String, Double> phaseSeconds,
        RunDocument.Recovery recovery,
        RunDocument.Resources resources,
        RunDocument.Fill fill) {

    public boolean passed() {
        return "ok".equals(status) && verification != null && verification.mismatches() == 0;
    }
}
