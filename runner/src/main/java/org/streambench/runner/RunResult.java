package org.streambench.runner;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.LatencyStats;

/** Everything one run produced; written as result.json and per-second.csv. */
record RunResult(ExperimentSpec spec, Warmup warmup, String status, String error, String startedAt,
                 Throughput throughput, LatencyStats readLatencyMicros, List<Second> perSecond,
                 Verifier.Verification verification, JobReport report, Environment environment) {

    /** {@code readLatencyMeanMicros} is null in a second without reads. */
    record Second(int second, boolean warmup, long records, long reads, Double readLatencyMeanMicros, long errors) {
    }

    /**
     * Throughput over the measured seconds. {@code trendPercent}: how much a least-squares line
     * through the measured samples rises (or falls) from the window's first to its last second,
     * relative to the mean; {@code trending}: that change is larger than {@value #TREND_TOLERANCE_PERCENT} %
     * and the slope is significant (|t| > {@value #TREND_MIN_T}), i.e. the window was not steady yet
     * (warm-up too short, or the database slowing down as it fills).
     */
    record Throughput(double mean, double stddev, double trendPercent, boolean trending) {

        static final double TREND_TOLERANCE_PERCENT = 10;
        static final double TREND_MIN_T = 3;

        static Throughput of(List<Second> seconds) {
            double[] measured = seconds.stream().filter(s -> !s.warmup()).mapToDouble(Second::records).toArray();
            int n = measured.length;
            if (n == 0) {
                return new Throughput(0, 0, 0, false);
            }
            double mean = Arrays.stream(measured).average().orElse(0);
            double squares = Arrays.stream(measured).map(v -> (v - mean) * (v - mean)).sum();
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
            return new Throughput(mean, stddev, trendPercent, Math.abs(trendPercent) > TREND_TOLERANCE_PERCENT && t > TREND_MIN_T);
        }
    }

    /**
     * {@code durability}: the database's durability settings in force during the run (see Database#durabilitySettings);
     * {@code settledAfterPrefill}: what wrote out the reset's and prefill's work before the job started (see Database#settle).
     */
    record Environment(String engineVersion, String databaseVersion, String databaseNote, Map<String, String> durability,
                       String settledAfterPrefill,
                       String java, int cores, long maxMemoryBytes, String os, String host, String streambenchVersion) {
    }

    boolean passed() {
        return "ok".equals(status) && verification != null && verification.mismatches() == 0;
    }
}
