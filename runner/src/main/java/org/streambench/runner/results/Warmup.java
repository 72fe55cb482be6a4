package org.streambench.runner.results;

import java.util.List;
import org.streambench.model.RunDocument;
import org.streambench.model.RunDocument.Second;
import org.streambench.operators.ExperimentSpec;

/**
 * How a run's warm-up ended ({@link RunDocument.Warmup}): after a fixed number of seconds
 * ({@code --warmup 30s}), or once the throughput was steady ({@code --warmup steady}, at most a
 * maximum): over the last {@value #WINDOW_SECONDS} seconds a least-squares line changes by at most
 * {@value #TOLERANCE_PERCENT} % of their mean.
 */
public final class Warmup {

    public static final int WINDOW_SECONDS = 10;
    static final double TOLERANCE_PERCENT = 5;
    public static final int DEFAULT_MAX_SECONDS = 120;
    /**
     * A matrix's and a capacity search's warm-up without --warmup: until the throughput is steady, at
     * most 30 s (a fixed warm-up that suits one database leaves another still ramping up, and the
     * run then says NOT STEADY).
     */
    public static final String SERIES_DEFAULT = "steady:30s";

    private Warmup() {}

    /** Mode "fixed" or "steady", the seconds it took and, for steady, whether it ended steady (false: the maximum came first). */
    public static RunDocument.Warmup of(boolean steadyWarmup, ExperimentSpec spec, List<Second> seconds) {
        int warmup = (int) seconds.stream().filter(Second::warmup).count();
        if (!steadyWarmup) {
            return new RunDocument.Warmup("fixed", Math.min(warmup, spec.warmupSeconds()), null);
        }
        return new RunDocument.Warmup("steady", warmup, steady(seconds.subList(0, warmup)));
    }

    /** Whether the last {@value #WINDOW_SECONDS} seconds of {@code seconds} are steady. */
    public static boolean steady(List<Second> seconds) {
        if (seconds.size() < WINDOW_SECONDS) {
            return false;
        }
        List<Second> window = seconds.subList(seconds.size() - WINDOW_SECONDS, seconds.size()).stream()
                .map(s -> s.withWarmup(false))
                .toList();
        RunDocument.Throughput throughput = WindowStatistics.throughput(window);
        return throughput.mean() > 0 && Math.abs(throughput.trendPercent()) <= TOLERANCE_PERCENT;
    }
}
