package org.streambench.operators;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.streambench.operators.OperatorMetrics.ReadResult;

/**
 * The read latency, recorded once per read into one HdrHistogram recorder per result, and shown two
 * ways from there: the measurement window's exact statistics, and Prometheus histograms
 * ({@code _bucket}, {@code _count}, {@code _sum}) of every read since the job started. A Micrometer
 * timer per read besides the recorder cost about a tenth of the processing thread's time against the
 * noop connector. What the recorders hold is moved into the window and the totals whenever either is
 * read; {@code _sum} is the histogram's sum, within its 3 significant digits of the exact one.
 */
final class ReadLatencyHistograms implements MultiCollector {

    /** Bucket upper bounds, in seconds: 10 µs to 10 s in steps of 1, 2, 5. */
    static final double[] BUCKET_SECONDS = bucketBounds();

    private final Map<ReadResult, Recorder> recorders = new EnumMap<>(ReadResult.class);
    private final Map<ReadResult, Histogram> window = new EnumMap<>(ReadResult.class);
    private final Map<ReadResult, Histogram> sinceStart = new EnumMap<>(ReadResult.class);
    private final Map<ReadResult, Double> sumSecondsSinceStart = new EnumMap<>(ReadResult.class);
    private final Map<ReadResult, Histogram> drained = new EnumMap<>(ReadResult.class);
    private final Labels labels;

    /** {@code labelNamesAndValues}: the job's labels, alternating name and value. */
    ReadLatencyHistograms(String... labelNamesAndValues) {
        this.labels = Labels.of(labelNamesAndValues);
        for (ReadResult result : ReadResult.values()) {
            recorders.put(result, new Recorder(3));
            window.put(result, new Histogram(3));
            sinceStart.put(result, new Histogram(3));
            sumSecondsSinceStart.put(result, 0.0);
        }
    }

    void record(ReadResult result, long nanos) {
        recorders.get(result).recordValue(nanos);
    }

    /** Starts a new window: what was recorded so far counts only in the totals. */
    synchronized void resetWindow() {
        drain();
        window.values().forEach(Histogram::reset);
    }

    /** The reads of the window, by result; a new window starts. */
    synchronized Map<ReadResult, Histogram> takeWindow() {
        drain();
        Map<ReadResult, Histogram> taken = new EnumMap<>(ReadResult.class);
        window.forEach((result, histogram) -> {
            taken.put(result, histogram.copy());
            histogram.reset();
        });
        return taken;
    }

    private void drain() {
        for (ReadResult result : ReadResult.values()) {
            Histogram interval = recorders.get(result).getIntervalHistogram(drained.get(result));
            drained.put(result, interval);
            window.get(result).add(interval);
            sinceStart.get(result).add(interval);
            sumSecondsSinceStart.merge(result, interval.getMean() * interval.getTotalCount() / 1e9, Double::sum);
        }
    }

    @Override
    public synchronized MetricSnapshots collect() {
        drain();
        HistogramSnapshot.Builder succeeded = HistogramSnapshot.builder()
                .name(JobProtocol.Meter.READ_LATENCY.exportedName())
                .help("time of the database read call, by its result");
        HistogramSnapshot.Builder failed = HistogramSnapshot.builder()
                .name(JobProtocol.Meter.READ_FAILED_LATENCY.exportedName())
                .help("time of the database read calls that failed");
        for (ReadResult result : ReadResult.values()) {
            (result == ReadResult.FAILED ? failed : succeeded).dataPoint(dataPoint(result));
        }
        return new MetricSnapshots(succeeded.build(), failed.build());
    }

    private HistogramSnapshot.HistogramDataPointSnapshot dataPoint(ReadResult result) {
        Histogram histogram = sinceStart.get(result);
        double[] bounds = new double[BUCKET_SECONDS.length + 1];
        long[] counts = new long[bounds.length];
        long below = 0;
        for (int i = 0; i < BUCKET_SECONDS.length; i++) {
            bounds[i] = BUCKET_SECONDS[i];
            long atMost = histogram.getCountBetweenValues(0, Math.round(BUCKET_SECONDS[i] * 1e9));
            counts[i] = atMost - below;
            below = atMost;
        }
        bounds[BUCKET_SECONDS.length] = Double.POSITIVE_INFINITY;
        counts[BUCKET_SECONDS.length] = histogram.getTotalCount() - below;
        return HistogramSnapshot.HistogramDataPointSnapshot.builder()
                .labels(labels.add("result", result.label()))
                .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, counts))
                .sum(sumSecondsSinceStart.get(result))
                .build();
    }

    private static double[] bucketBounds() {
        List<Double> bounds = new ArrayList<>();
        for (int exponent = -5; exponent < 1; exponent++) {
            for (int step : new int[] {1, 2, 5}) {
                bounds.add(Double.parseDouble(step + "e" + exponent));
            }
        }
        bounds.add(10.0);
        return bounds.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
