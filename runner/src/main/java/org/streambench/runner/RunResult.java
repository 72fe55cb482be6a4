package org.streambench.runner;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.LatencyStats;

/** Everything one run produced; written as result.json and per-second.csv. */
record RunResult(ExperimentSpec spec, String status, String error, String startedAt,
                 Throughput throughput, LatencyStats readLatencyMicros, List<Second> perSecond,
                 Verifier.Verification verification, JobReport report, Environment environment) {

    /** {@code readLatencyMeanMicros} is null in a second without reads. */
    record Second(int second, boolean warmup, long records, long reads, Double readLatencyMeanMicros, long errors) {
    }

    record Throughput(double mean, double stddev) {

        static Throughput of(List<Second> seconds) {
            double[] measured = seconds.stream().filter(s -> !s.warmup()).mapToDouble(Second::records).toArray();
            if (measured.length == 0) {
                return new Throughput(0, 0);
            }
            double mean = Arrays.stream(measured).average().orElse(0);
            double squares = Arrays.stream(measured).map(v -> (v - mean) * (v - mean)).sum();
            return new Throughput(mean, measured.length > 1 ? Math.sqrt(squares / (measured.length - 1)) : 0);
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
