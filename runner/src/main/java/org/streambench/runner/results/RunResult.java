package org.streambench.runner.results;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.streambench.model.RunDocument;
import org.streambench.model.RunDocument.Environment;
import org.streambench.model.RunDocument.Second;
import org.streambench.model.RunDocument.Verification;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.JobReport;
import org.streambench.operators.LatencyStats;

/**
 * Everything one run produced; written as result.json and per-second.csv. {@code phaseSeconds}:
 * where the run's wall time went (see ExperimentRunner.Phases).
 */
public record RunResult(
        ExperimentSpec spec,
        RunDocument.Warmup warmup,
        String status,
        String error,
        String startedAt,
        Throughput throughput,
        Rate rate,
        LatencyStats readLatencyMicros,
        List<Second> perSecond,
        Verification verification,
        JobReport report,
        Environment environment,
        Map<String, Double> phaseSeconds) {

    /**
     * A throttled run's rate over the measured window: {@code target} (--rate), {@code generated}
     * (records the generators emitted per second), {@code processed} (records processed per second),
     * and whether the run fell behind: the generators more than {@value #BEHIND_TOLERANCE_PERCENT} %
     * short of the target, or the records emitted but not processed yet grew over the window by more
     * than {@value #BEHIND_TOLERANCE_PERCENT} % of the window's target records (an engine may buffer what
     * it cannot process, so the generators alone can look on time for a while). A micro-batch engine
     * completes a batch at a time, so growth up to {@value #BATCH_ALLOWANCE_SECONDS} s of target records
     * is allowed. Null on an unthrottled run.
     */
    public record Rate(double target, double generated, double processed, boolean behind) {

        static final double BEHIND_TOLERANCE_PERCENT = 1;
        static final double BATCH_ALLOWANCE_SECONDS = 2;

        public static Rate of(double target, List<Second> seconds) {
            if (target <= 0) {
                return null;
            }
            List<Second> window = seconds.stream().filter(s -> !s.warmup()).toList();
            double time = window.stream().mapToDouble(Second::intervalSeconds).sum();
            if (time <= 0) {
                return new Rate(target, 0, 0, true);
            }
            long generatedRecords = window.stream().mapToLong(Second::generated).sum();
            long processedRecords = window.stream().mapToLong(Second::records).sum();
            double backlogGrowth = generatedRecords - processedRecords;
            boolean behind = generatedRecords / time < target * (1 - BEHIND_TOLERANCE_PERCENT / 100)
                    || backlogGrowth
                            > Math.max(
                                    target * time * BEHIND_TOLERANCE_PERCENT / 100, target * BATCH_ALLOWANCE_SECONDS);
            return new Rate(target, generatedRecords / time, processedRecords / time, behind);
        }
    }

    /**
     * Throughput over the measured seconds: {@code mean} = processed records / measured time;
     * {@code stddev} over the per-second rates. {@code trendPercent}: how much a least-squares line
     * through the measured samples rises (or falls) from the window's first to its last second,
     * relative to the mean; {@code trending}: that change is larger than {@value #TREND_TOLERANCE_PERCENT} %
     * and the slope is significant (|t| > {@value #TREND_MIN_T}), i.e. the window was not steady yet
     * (warm-up too short, or the database slowing down as it fills).
     */
    public record Throughput(double mean, double stddev, double trendPercent, boolean trending) {

        static final double TREND_TOLERANCE_PERCENT = 10;
        static final double TREND_MIN_T = 3;

        public static Throughput of(List<Second> seconds) {
            List<Second> window = seconds.stream().filter(s -> !s.warmup()).toList();
            double[] measured =
                    window.stream().mapToDouble(Second::recordsPerSecond).toArray();
            int n = measured.length;
            double time = window.stream().mapToDouble(Second::intervalSeconds).sum();
            if (n == 0 || time <= 0) {
                return new Throughput(0, 0, 0, false);
            }
            double mean = window.stream().mapToLong(Second::records).sum() / time;
            double squares =
                    Arrays.stream(measured).map(v -> (v - mean) * (v - mean)).sum();
            double stddev = n > 1 ? Math.sqrt(squares / (n - 1)) : 0;
            if (n < 3 || mean <= 0) {
                return new Throughput(mean, stddev, 0, false);
            }
            double xMean = (n - 1) / 2.0;
            double sxx = 0;
            double sxy = 0;
            for (int i = 0; i < n; i++) {
                sxx += (i - xMean) * (i - xMean);
                sxy += (i - xMean) * (measured[i] - mean);
            }
            double slope = sxy / sxx;
            double residuals = 0;
            for (int i = 0; i < n; i++) {
                double fitted = mean + slope * (i - xMean);
                residuals += (measured[i] - fitted) * (measured[i] - fitted);
            }
            double slopeError = Math.sqrt(residuals / (n - 2) / sxx);
            double t = slopeError == 0 ? (slope == 0 ? 0 : Double.POSITIVE_INFINITY) : Math.abs(slope / slopeError);
            double trendPercent = slope * (n - 1) / mean * 100;
            return new Throughput(
                    mean, stddev, trendPercent, Math.abs(trendPercent) > TREND_TOLERANCE_PERCENT && t > TREND_MIN_T);
        }
    }

    public boolean passed() {
        return "ok".equals(status) && verification != null && verification.mismatches() == 0;
    }
}
