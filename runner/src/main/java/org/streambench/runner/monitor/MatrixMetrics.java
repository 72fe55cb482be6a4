package org.streambench.runner.monitor;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.streambench.runner.matrix.Cell;

/**
 * The matrix's progress as metrics, served by the runner on 127.0.0.1 (a free port) and listed in
 * {@link ScrapeTargets} while the matrix runs: experiments planned, ok, failed and left, the ETA,
 * the cell that runs now, and each finished cell's throughput and mean read latency.
 */
public final class MatrixMetrics implements AutoCloseable {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final MetricsEndpoint endpoint;
    private final Map<String, AtomicLong> experiments = new ConcurrentHashMap<>();
    private final AtomicLong etaSeconds = new AtomicLong(-1);
    private final AtomicLong running = new AtomicLong();
    /** Values of the finished cells' gauges, held strongly: Micrometer keeps gauge state weakly. */
    private final Map<String, double[]> finished = new ConcurrentHashMap<>();

    private Gauge current;

    public MatrixMetrics(Path work, long planned) throws IOException {
        for (String state : new String[] {"planned", "ok", "failed", "left"}) {
            AtomicLong count = experiments.computeIfAbsent(state, s -> new AtomicLong());
            Gauge.builder("streambench.matrix.experiments", count, AtomicLong::get)
                    .description("experiments of the matrix, by state")
                    .tag("state", state)
                    .register(registry);
        }
        experiments.get("planned").set(planned);
        Gauge.builder("streambench.matrix.eta", etaSeconds, AtomicLong::get)
                .baseUnit("seconds")
                .description("estimated time until the matrix is done (-1 before the first experiment ends)")
                .register(registry);
        endpoint = new MetricsEndpoint(work, registry, Map.of("role", "matrix"));
    }

    public int port() {
        return endpoint.port();
    }

    /** The cell that runs now: {@code streambench_matrix_current_cell} is 1 with its labels. */
    public synchronized void started(Cell cell) {
        if (current != null) {
            registry.remove(current);
        }
        running.set(1);
        current = Gauge.builder("streambench.matrix.current.cell", running, AtomicLong::get)
                .description("1 for the experiment that runs now")
                .tags(tags(cell))
                .register(registry);
    }

    /** A cell ended: the counts, the ETA, and its throughput and mean read latency if it produced them. */
    public synchronized void finished(
            Cell cell, Double throughput, Double readLatencyMicros, long ok, long failed, long left, long eta) {
        if (current != null) {
            registry.remove(current);
            current = null;
        }
        progress(ok, failed, left);
        etaSeconds.set(eta);
        double[] values = finished.computeIfAbsent(cell.id(), id -> new double[] {Double.NaN, Double.NaN});
        values[0] = throughput == null ? Double.NaN : throughput;
        values[1] = readLatencyMicros == null ? Double.NaN : readLatencyMicros / 1e6;
        Gauge.builder("streambench.matrix.cell.throughput", values, v -> v[0])
                .description("a finished experiment's mean throughput, records/s (NaN: it failed)")
                .tags(tags(cell))
                .register(registry);
        Gauge.builder("streambench.matrix.cell.read.latency", values, v -> v[1])
                .baseUnit("seconds")
                .description("a finished experiment's mean read latency (NaN: no reads, or it failed)")
                .tags(tags(cell))
                .register(registry);
    }

    /** How many experiments are done, failed and left (also those of an earlier run, on resume). */
    public void progress(long ok, long failed, long left) {
        experiments.get("ok").set(ok);
        experiments.get("failed").set(failed);
        experiments.get("left").set(left);
    }

    private static Tags tags(Cell cell) {
        return Tags.of(
                "engine", cell.engine(),
                "database", cell.database(),
                "pattern", cell.pattern(),
                "blob_bytes", Integer.toString(cell.blobBytes()),
                "access", cell.access(),
                "guarantee", cell.guarantee(),
                "checkpoint_interval", cell.checkpointInterval() == null ? "none" : cell.checkpointInterval(),
                "settings", settingsTag(cell),
                "repetition", Integer.toString(cell.repetition()));
    }

    /** The cell's values of the setting axes, e.g. "keys=1000000 parallelism=4"; "default" without axes. */
    static String settingsTag(Cell cell) {
        if (cell.settings().isEmpty()) {
            return "default";
        }
        StringBuilder tag = new StringBuilder();
        cell.settings().forEach((name, value) -> tag.append(tag.isEmpty() ? "" : " ")
                .append(name)
                .append('=')
                .append(value));
        return tag.toString();
    }

    @Override
    public void close() {
        endpoint.close();
    }
}
