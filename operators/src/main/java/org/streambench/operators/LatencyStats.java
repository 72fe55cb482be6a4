package org.streambench.operators;

import org.HdrHistogram.Histogram;

/** Read-latency statistics in microseconds, from a histogram of nanoseconds. */
public record LatencyStats(long count, double mean, double stddev, long p50, long p95, long p99, long p999, long max) {

    public static LatencyStats of(Histogram nanos) {
        return new LatencyStats(
                nanos.getTotalCount(),
                nanos.getMean() / 1000.0,
                nanos.getStdDeviation() / 1000.0,
                micros(nanos.getValueAtPercentile(50)),
                micros(nanos.getValueAtPercentile(95)),
                micros(nanos.getValueAtPercentile(99)),
                micros(nanos.getValueAtPercentile(99.9)),
                micros(nanos.getMaxValue()));
    }

    private static long micros(long nanos) {
        return Math.round(nanos / 1000.0);
    }
}
