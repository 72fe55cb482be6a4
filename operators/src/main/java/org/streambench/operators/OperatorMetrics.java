package org.streambench.operators;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * All counting and timing of a job JVM, in one place: processed records and database errors by
 * operation, and the read latency (Micrometer for Prometheus, HdrHistogram for exact statistics
 * over the measurement window). Labels: engine, database, pattern, blob_bytes, operation.
 */
public final class OperatorMetrics {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<Operation, Counter> processed = new EnumMap<>(Operation.class);
    private final Map<Operation, Counter> errors = new EnumMap<>(Operation.class);
    private final Timer readLatency;
    private final Recorder readLatencyWindow = new Recorder(3);
    private final AtomicReference<String> firstError = new AtomicReference<>();
    /** Held here because Micrometer keeps a function counter's state only weakly. */
    private final LongSupplier generatedRecords;

    OperatorMetrics(ExperimentSpec spec, LongSupplier generatedRecords) {
        this.generatedRecords = generatedRecords;
        Tags tags = Tags.of("engine", spec.engine(), "database", spec.database(),
                "pattern", spec.pattern().cliName(), "blob_bytes", Integer.toString(spec.blobBytes()));
        for (Operation op : Operation.values()) {
            Tags opTags = tags.and("operation", op.label());
            processed.put(op, Counter.builder("streambench.records").description("records processed, by the database call that completed them")
                    .tags(opTags).register(registry));
            errors.put(op, Counter.builder("streambench.db.errors").description("failed database calls")
                    .tags(opTags).register(registry));
        }
        readLatency = Timer.builder("streambench.read.latency").description("time of the database read call")
                .tags(tags).publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(10_000)).maximumExpectedValue(Duration.ofSeconds(10))
                .register(registry);
        FunctionCounter.builder("streambench.generated.records", generatedRecords, LongSupplier::getAsLong)
                .description("records emitted by the generator operators").tags(tags).register(registry);
    }

    public void recordRead(long nanos) {
        readLatency.record(nanos, TimeUnit.NANOSECONDS);
        readLatencyWindow.recordValue(Math.max(0, nanos));
    }

    public void processed(Operation op) {
        processed.get(op).increment();
    }

    public void error(Operation op, RuntimeException e) {
        errors.get(op).increment();
        if (firstError.compareAndSet(null, op.label() + ": " + e)) {
            System.err.println("streambench: first database error (" + op.label() + "): " + e);
        }
    }

    public long processedCount(Operation op) {
        return (long) processed.get(op).count();
    }

    public long errorCount() {
        return errors.values().stream().mapToLong(c -> (long) c.count()).sum();
    }

    public String firstError() {
        return firstError.get();
    }

    /** Starts a new latency window (at the end of the warm-up). */
    public void resetLatencyWindow() {
        readLatencyWindow.reset();
    }

    /** The reads recorded since the last reset; also starts a new window. */
    public Histogram takeLatencyWindow() {
        return readLatencyWindow.getIntervalHistogram();
    }

    public String scrape() {
        return registry.scrape();
    }
}
