package org.streambench.model;

import java.util.List;
import java.util.Map;

/**
 * A capacity search's {@code capacity.json}: what was searched (with the engine settings, which
 * shape latency: Flink's buffer timeout, Spark's micro-batch interval), the objective, the search's bounds,
 * and per parallelism the unthrottled probe, every step and the capacity found (null: no rate met the
 * objective). Written by {@code bench capacity}, read by {@code bench report}, both through {@link CapacityJson}.
 */
public record CapacityDocument(
        int schemaVersion,
        String engine,
        String database,
        String pattern,
        int blobBytes,
        String access,
        Map<String, String> engineSettings,
        Objective objective,
        Bounds bounds,
        List<Search> searches,
        String startedAt,
        String commit)
        implements Versioned {

    public static final String FILE = "capacity.json";
    public static final int SCHEMA_VERSION = 1;

    /** The objective each step must meet. */
    public record Objective(long p99Micros, double achievedShare, String description) {}

    /** How long a search may go on: steps, seconds, and how close the bracket must get. */
    public record Bounds(int maxSteps, long maxSeconds, double tolerance) {}

    /** One parallelism's search. */
    public record Search(
            int parallelism,
            double probeThroughput,
            String probeFolder,
            Double capacity,
            String stopReason,
            double wallSeconds,
            List<Step> steps) {}

    /** One step: a full run at a fixed rate, its figures and its verdict. */
    public record Step(
            double target,
            double achieved,
            Long p50Micros,
            Long p99Micros,
            Long maxMicros,
            boolean behind,
            String runError,
            boolean passed,
            String why,
            String folder) {}
}
