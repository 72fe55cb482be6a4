package org.streambench.report;

import java.util.List;
import org.streambench.model.RunDocument.Second;

/**
 * How precisely one run measured its mean throughput and read latency, from its measured
 * per-second samples, by the method of batch means: consecutive seconds are grouped into batches of
 * at least {@value #MIN_BATCH_SECONDS} s (at most {@value #MAX_BATCHES} batches), and the 95 %
 * confidence interval of the mean is Student's over the batch means.
 * <p>
 * Why batches and not the seconds themselves: per-second samples of a stream are autocorrelated
 * (Spark completes a micro-batch a second, a database flushes or compacts for seconds at a time, a
 * slow second is followed by a catch-up), so the seconds' own standard error understates the
 * uncertainty. Means of batches several seconds long are nearly independent; 4 s covers Spark's
 * 1 s batch cycle and the runner's 1 s sampling several times over. Fewer than
 * {@value #MIN_BATCHES} batches (a window under 12 s) give no interval: such a run's ties cannot be
 * judged, and it is ranked on its mean alone.
 */
final class BatchMeans {

    static final int MIN_BATCH_SECONDS = 4;
    static final int MAX_BATCHES = 10;
    static final int MIN_BATCHES = 3;

    private BatchMeans() {}

    /** Half the 95 % interval of the mean throughput over the measured seconds; NaN when there are too few. */
    static double throughputHalf(List<Second> seconds) {
        List<Second> measured = measured(seconds);
        int batchLength = batchLength(measured.size());
        int batches = measured.size() / batchLength;
        if (batches < MIN_BATCHES) {
            return Double.NaN;
        }
        double[] means = new double[batches];
        for (int b = 0; b < batches; b++) {
            long records = 0;
            double time = 0;
            for (Second s : measured.subList(b * batchLength, (b + 1) * batchLength)) {
                records += s.records();
                time += s.intervalSeconds();
            }
            means[b] = time > 0 ? records / time : 0;
        }
        return Cell.half(means);
    }

    /** Half the 95 % interval of the mean read latency (µs), batches weighted by their reads; NaN when too few. */
    static double latencyHalf(List<Second> seconds) {
        List<Second> measured = measured(seconds).stream()
                .filter(s -> s.reads() > 0 && s.readLatencyMeanMicros() != null)
                .toList();
        int batchLength = batchLength(measured.size());
        int batches = measured.size() / batchLength;
        if (batches < MIN_BATCHES) {
            return Double.NaN;
        }
        double[] means = new double[batches];
        for (int b = 0; b < batches; b++) {
            double weighted = 0;
            long reads = 0;
            for (Second s : measured.subList(b * batchLength, (b + 1) * batchLength)) {
                weighted += s.readLatencyMeanMicros() * s.reads();
                reads += s.reads();
            }
            means[b] = weighted / reads;
        }
        return Cell.half(means);
    }

    private static List<Second> measured(List<Second> seconds) {
        return seconds == null
                ? List.of()
                : seconds.stream().filter(s -> !s.warmup()).toList();
    }

    private static int batchLength(int samples) {
        return Math.max(MIN_BATCH_SECONDS, (int) Math.ceil(samples / (double) MAX_BATCHES));
    }
}
