package org.streambench.report;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.function.Function;
import org.streambench.model.AccessModeName;

/**
 * One engine x database x pattern x BLOB size over its repetitions. Throughput and read latency
 * are the means of the runs' means; {@code ...Half} is half the 95 % confidence interval: across
 * repetitions when there are two or more, else the single run's own from its per-second samples
 * ({@link BatchMeans}; 0 when its window was too short to tell); {@code latencyStddev} is the mean
 * of the runs' standard deviations (the spread of single reads, as the study's error bars).
 */
public record Cell(
        Key key,
        List<RunRecord> runs,
        int okRuns,
        Double throughput,
        double throughputHalf,
        Double latency,
        double latencyHalf,
        Double latencyStddev,
        boolean emulated) {

    /** A cell's coordinates; the study's tables and figures are of the sync cells (the 4-argument key). */
    public record Key(String engine, String database, String pattern, int blobBytes, String access) {

        public Key(String engine, String database, String pattern, int blobBytes) {
            this(engine, database, pattern, blobBytes, AccessModeName.SYNC);
        }
    }

    /** Sections' order of cells: by engine, database, pattern, BLOB size and variant. */
    static final Comparator<Cell> BY_KEY = Comparator.comparing(
                    (Cell c) -> c.key().engine())
            .thenComparing(c -> c.key().database())
            .thenComparing(c -> c.key().pattern())
            .thenComparingInt(c -> c.key().blobBytes())
            .thenComparing(c -> c.key().access());

    public boolean ok() {
        return okRuns > 0 && okRuns == runs.size();
    }

    /** The mean of {@code value} over the cell's ok runs that have one; null when none has. */
    Double meanOverOkRuns(Function<RunRecord, Double> value) {
        OptionalDouble mean = runs.stream()
                .filter(RunRecord::ok)
                .map(value)
                .filter(Objects::nonNull)
                .mapToDouble(Double::doubleValue)
                .average();
        return mean.isPresent() ? mean.getAsDouble() : null;
    }

    /** The mean over the cell's ok runs of their records' end-to-end p99 (µs), when they have one. */
    public Optional<Double> endToEndP99() {
        return runs.stream()
                .filter(RunRecord::ok)
                .map(RunRecord::endToEndP99)
                .filter(Objects::nonNull)
                .mapToLong(Long::longValue)
                .average()
                .stream()
                .boxed()
                .findFirst();
    }

    /** 97.5 % quantiles of Student's t for 1..30 degrees of freedom; 1.96 beyond. */
    private static final double[] T975 = {
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
        2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042
    };

    static Cell of(Key key, List<RunRecord> runs) {
        List<RunRecord> ok = runs.stream().filter(RunRecord::ok).toList();
        double[] throughputs =
                ok.stream().mapToDouble(RunRecord::throughputMean).toArray();
        double[] latencies = ok.stream()
                .filter(r -> r.readLatency() != null)
                .mapToDouble(r -> r.readLatency().mean())
                .toArray();
        Double latencyStddev = latencies.length == 0
                ? null
                : ok.stream()
                        .filter(r -> r.readLatency() != null)
                        .mapToDouble(r -> r.readLatency().stddev())
                        .average()
                        .orElse(0);
        boolean single = ok.size() == 1;
        return new Cell(
                key,
                List.copyOf(runs),
                ok.size(),
                mean(throughputs),
                single ? known(ok.get(0).throughputHalf()) : half(throughputs),
                mean(latencies),
                single && latencies.length == 1 ? known(ok.get(0).latencyHalf()) : half(latencies),
                latencyStddev,
                runs.stream().anyMatch(RunRecord::emulated));
    }

    private static double known(double half) {
        return Double.isNaN(half) ? 0 : half;
    }

    static Double mean(double[] values) {
        if (values.length == 0) {
            return null;
        }
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.length;
    }

    /** Half the 95 % confidence interval of the mean. */
    static double half(double[] values) {
        int n = values.length;
        if (n < 2) {
            return 0;
        }
        double mean = mean(values);
        double squares = 0;
        for (double v : values) {
            squares += (v - mean) * (v - mean);
        }
        double t = n - 1 <= T975.length ? T975[n - 2] : 1.96;
        return t * Math.sqrt(squares / (n - 1)) / Math.sqrt(n);
    }
}
