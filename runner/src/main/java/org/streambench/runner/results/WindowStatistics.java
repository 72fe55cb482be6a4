package org.streambench.runner.results;

import java.util.Arrays;
import java.util.List;
import org.streambench.model.RunDocument;
import org.streambench.model.RunDocument.Second;

/** A run's throughput and rate over its measured seconds (those not in the warm-up), as result.json holds them. */
public final class WindowStatistics {

    static final double TREND_TOLERANCE_PERCENT = 10;
    static final double TREND_MIN_T = 3;
    static final double BEHIND_TOLERANCE_PERCENT = 1;
    static final double BATCH_ALLOWANCE_SECONDS = 2;

    private WindowStatistics() {}

    /**
     * Throughput over the measured seconds: {@code mean} = processed records / measured time;
     * {@code stddev} over the per-second rates. {@code trendPercent} (to 0.1): how much a least-squares
     * line through the measured samples rises (or falls) from the window's first to its last second,
     * relative to the mean; {@code trending}: that change is larger than {@value #TREND_TOLERANCE_PERCENT} %
     * and the slope is significant (|t| > {@value #TREND_MIN_T}), i.e. the window was not steady yet
     * (warm-up too short, or the database slowing down as it fills).
     */
    public static RunDocument.Throughput throughput(List<Second> seconds) {
        List<Second> window = seconds.stream().filter(s -> !s.warmup()).toList();
        double[] measured =
                window.stream().mapToDouble(Second::recordsPerSecond).toArray();
        int n = measured.length;
        double time = window.stream().mapToDouble(Second::intervalSeconds).sum();
        if (n == 0 || time <= 0) {
            return throughput(0, 0, 0, false);
        }
        double mean = window.stream().mapToLong(Second::records).sum() / time;
        double squares =
                Arrays.stream(measured).map(v -> (v - mean) * (v - mean)).sum();
        double stddev = n > 1 ? Math.sqrt(squares / (n - 1)) : 0;
        if (n < 3 || mean <= 0) {
            return throughput(mean, stddev, 0, false);
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
        return throughput(
                mean, stddev, trendPercent, Math.abs(trendPercent) > TREND_TOLERANCE_PERCENT && t > TREND_MIN_T);
    }

    /** A throughput of {@code mean} records/s (tests build one to stand for a run's). */
    public static RunDocument.Throughput throughput(double mean, double stddev, double trendPercent, boolean trending) {
        return new RunDocument.Throughput(
                mean, stddev, RunDocument.RECORDS_PER_SECOND, Math.round(trendPercent * 10) / 10.0, trending);
    }

    /**
     * A throttled run's rate over the measured window: {@code target} (--rate), {@code generated}
     * (records the generators emitted per second), {@code processed} (records processed per second),
     * both to 0.1, and whether the run fell behind: the generators more than {@value #BEHIND_TOLERANCE_PERCENT} %
     * short of the target, or the records emitted but not processed yet grew over the window by more
     * than {@value #BEHIND_TOLERANCE_PERCENT} % of the window's target records (an engine may buffer what
     * it cannot process, so the generators alone can look on time for a while). A micro-batch engine
     * completes a batch at a time, so growth up to {@value #BATCH_ALLOWANCE_SECONDS} s of target records
     * is allowed. Null on an unthrottled run.
     */
    public static RunDocument.Rate rate(double target, List<Second> seconds) {
        if (target <= 0) {
            return null;
        }
        List<Second> window = seconds.stream().filter(s -> !s.warmup()).toList();
        double time = window.stream().mapToDouble(Second::intervalSeconds).sum();
        if (time <= 0) {
            return new RunDocument.Rate(target, RunDocument.RECORDS_PER_SECOND, 0, 0, true);
        }
        long generatedRecords = window.stream().mapToLong(Second::generated).sum();
        long processedRecords = window.stream().mapToLong(Second::records).sum();
        double backlogGrowth = generatedRecords - processedRecords;
        boolean behind = generatedRecords / time < target * (1 - BEHIND_TOLERANCE_PERCENT / 100)
                || backlogGrowth
                        > Math.max(target * time * BEHIND_TOLERANCE_PERCENT / 100, target * BATCH_ALLOWANCE_SECONDS);
        return new RunDocument.Rate(
                target,
                RunDocument.RECORDS_PER_SECOND,
                Math.round(generatedRecords / time * 10) / 10.0,
                Math.round(processedRecords / time * 10) / 10.0,
                behind);
    }
}
