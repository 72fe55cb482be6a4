package org.streambench.operators;

import org.HdrHistogram.Histogram;
import org.streambench.model.RunDocument;

/** Latency statistics in microseconds, as result.json holds them, from a histogram of nanoseconds. */
public final class Latencies {

    private Latencies() {}

    public static RunDocument.Latency of(Histogram nanos) {
        return new RunDocument.Latency(
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
