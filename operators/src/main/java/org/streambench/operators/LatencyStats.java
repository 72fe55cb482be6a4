package org.streambench.operators;

import java.util.Properties;
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

    public void writeTo(Properties p, String prefix) {
        p.setProperty(prefix + "count", Long.toString(count));
        p.setProperty(prefix + "mean", Double.toString(mean));
        p.setProperty(prefix + "stddev", Double.toString(stddev));
        p.setProperty(prefix + "p50", Long.toString(p50));
        p.setProperty(prefix + "p95", Long.toString(p95));
        p.setProperty(prefix + "p99", Long.toString(p99));
        p.setProperty(prefix + "p999", Long.toString(p999));
        p.setProperty(prefix + "max", Long.toString(max));
    }

    public static LatencyStats readFrom(Properties p, String prefix) {
        return new LatencyStats(
                Long.parseLong(p.getProperty(prefix + "count")),
                Double.parseDouble(p.getProperty(prefix + "mean")),
                Double.parseDouble(p.getProperty(prefix + "stddev")),
                Long.parseLong(p.getProperty(prefix + "p50")),
                Long.parseLong(p.getProperty(prefix + "p95")),
                Long.parseLong(p.getProperty(prefix + "p99")),
                Long.parseLong(p.getProperty(prefix + "p999")),
                Long.parseLong(p.getProperty(prefix + "max")));
    }
}
