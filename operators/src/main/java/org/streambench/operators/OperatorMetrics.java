package org.streambench.operators;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.streambench.generator.EpochClock;
import org.streambench.generator.TimedRecord;

/**
 * All counting and timing of a job JVM, in one place: processed records and database errors by
 * operation (Micrometer); the read latency (HdrHistogram: exact statistics over the measurement
 * window, and Prometheus histograms since the start); the end-to-end latency (from the time the
 * rate schedule intended a record for to the end of its processing) and the generator's delay
 * behind its schedule (HdrHistogram over the measurement window).
 * Labels: worker, engine, database, pattern, blob_bytes, operation. The endpoint also shows the job's own
 * clock, so the runner takes each sample's time where the counters are.
 */
public final class OperatorMetrics {

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<Operation, Counter> processed = new EnumMap<>(Operation.class);
    private final Map<Operation, Counter> errors = new EnumMap<>(Operation.class);
    /** Recorded once per read, by result; the successful reads are hits and misses added up. */
    private final ReadLatencyHistograms readLatency;
    /**
     * Per-record latencies go to HdrHistogram only: a Micrometer timer with a percentile histogram
     * costs about as much as everything else the operator does per record against noop.
     */
    private final Recorder endToEndWindow = new Recorder(3);

    private final Recorder generatorDelayWindow = new Recorder(3);
    /** Access modes beyond sync: each write call's (or batch write's) round trip, and how long records waited for their batch. */
    private final Map<String, Recorder> accessWindows =
            Map.of(LatencyWindow.WRITE_CALL, new Recorder(3), LatencyWindow.BATCH_WAIT, new Recorder(3));

    private final AtomicReference<String> firstError = new AtomicReference<>();
    /** Held here because Micrometer keeps a function counter's state only weakly. */
    @SuppressWarnings("UnusedVariable")
    private final LongSupplier generatedRecords;

    /** The labels of every series of a run, its job's and the runner's: engine, database, pattern, blob_bytes. */
    public static Tags runTags(ExperimentSpec spec) {
        return Tags.of(
                "engine", spec.engine(),
                "database", spec.database(),
                "pattern", spec.pattern().cliName(),
                "blob_bytes", Integer.toString(spec.blobBytes()));
    }

    OperatorMetrics(ExperimentSpec spec, String worker, LongSupplier generatedRecords) {
        this.generatedRecords = generatedRecords;
        Tags tags = runTags(spec).and("worker", worker);
        for (Operation op : Operation.values()) {
            Tags opTags = tags.and("operation", op.label());
            processed.put(
                    op,
                    Counter.builder(JobProtocol.Meter.RECORDS.meterName())
                            .description("records processed, by the database call that completed them")
                            .tags(opTags)
                            .register(registry));
            errors.put(
                    op,
                    Counter.builder(JobProtocol.Meter.DB_ERRORS.meterName())
                            .description("failed database calls")
                            .tags(opTags)
                            .register(registry));
        }
        // failed reads get a metric of their own: they must not blend into the latency of reads that worked
        readLatency = new ReadLatencyHistograms(tags.stream()
                .flatMap(tag -> Stream.of(tag.getKey(), tag.getValue()))
                .toArray(String[]::new));
        registry.getPrometheusRegistry().register(readLatency);
        Gauge.builder(JobProtocol.Meter.JOB_CLOCK.meterName(), () -> EpochClock.nowNanos() / 1e9)
                .baseUnit("seconds")
                .description("the job's clock (epoch) when the metrics were read")
                .register(registry);
        FunctionCounter.builder(
                        JobProtocol.Meter.GENERATED_RECORDS.meterName(), generatedRecords, LongSupplier::getAsLong)
                .description("records emitted by the generator operators")
                .tags(tags)
                .register(registry);
        // the job JVM's own health next to its numbers (read only when scraped): heap, GC, CPU, threads
        new JvmMemoryMetrics(tags).bindTo(registry);
        new JvmGcMetrics(tags).bindTo(registry);
        new ProcessorMetrics(tags).bindTo(registry);
        new JvmThreadMetrics(tags).bindTo(registry);
    }

    /** What a read found: the key (hit), nothing (miss: a new key in the mixed pattern), or an error. */
    public enum ReadResult {
        HIT,
        MISS,
        FAILED;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public void recordRead(long nanos, ReadResult result) {
        readLatency.record(result, Math.max(0, nanos));
    }

    /**
     * A record whose processing ended now; {@code intendedEpochNanos}: when its generator's schedule
     * intended it for, or {@link TimedRecord#UNTIMED}.
     */
    private final AtomicLong awaitingCommit = new AtomicLong();

    public void processed(Operation op, long intendedEpochNanos) {
        processed.get(op).increment();
        if (intendedEpochNanos != TimedRecord.UNTIMED) {
            endToEndWindow.recordValue(Math.max(0, EpochClock.nowNanos() - intendedEpochNanos));
        }
    }

    /** The round trip of one write call, or of one batch's write. */
    void recordWriteCall(long nanos) {
        accessWindows.get(LatencyWindow.WRITE_CALL).recordValue(Math.max(0, nanos));
    }

    /** How long a record waited in its batch before the batch was sent. */
    void recordBatchWait(long nanos) {
        accessWindows.get(LatencyWindow.BATCH_WAIT).recordValue(Math.max(0, nanos));
    }

    void recordGeneratorDelay(long nanos) {
        generatorDelayWindow.recordValue(Math.max(0, nanos));
    }

    public void error(Operation op, RuntimeException e) {
        errors.get(op).increment();
        if (firstError.compareAndSet(null, op.label() + ": " + e)) {
            System.err.println("streambench: first database error (" + op.label() + "): " + e);
        }
    }

    /**
     * exactly-once: records the operator is done with whose effects wait for their checkpoint's
     * commit ({@link CommitOnCheckpoint}); they count as processed when it gets in.
     */
    void awaitingCommit(long delta) {
        awaitingCommit.addAndGet(delta);
    }

    long awaitingCommitCount() {
        return awaitingCommit.get();
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
        readLatency.resetWindow();
        endToEndWindow.reset();
        generatorDelayWindow.reset();
        accessWindows.values().forEach(Recorder::reset);
    }

    /** The latencies recorded since the last reset; also starts a new window. */
    public LatencyWindow takeLatencyWindow() {
        Map<String, Histogram> access = new TreeMap<>();
        accessWindows.forEach((name, recorder) -> access.put(name, recorder.getIntervalHistogram()));
        return LatencyWindow.of(
                readLatency.takeWindow(),
                endToEndWindow.getIntervalHistogram(),
                generatorDelayWindow.getIntervalHistogram(),
                access);
    }

    /**
     * The latencies of one window: {@code successful} reads = hits and misses; {@code byResult} each
     * read result apart; {@code endToEnd} of every processed record; {@code generatorDelay} of every
     * emitted record; {@code access} the access mode's own: {@value #WRITE_CALL} (each write call's
     * round trip, a batch's write in batch mode) and {@value #BATCH_WAIT} (how long each record waited
     * for its batch).
     */
    public record LatencyWindow(
            Histogram successful,
            Map<ReadResult, Histogram> byResult,
            Histogram endToEnd,
            Histogram generatorDelay,
            Map<String, Histogram> access) {

        public static final String WRITE_CALL = "writeCall";
        public static final String BATCH_WAIT = "batchWait";

        static LatencyWindow of(
                Map<ReadResult, Histogram> byResult,
                Histogram endToEnd,
                Histogram generatorDelay,
                Map<String, Histogram> access) {
            Histogram successful = byResult.get(ReadResult.HIT).copy();
            successful.add(byResult.get(ReadResult.MISS));
            return new LatencyWindow(successful, byResult, endToEnd, generatorDelay, access);
        }

        /** The windows of several workers as one: every histogram added up. */
        static LatencyWindow merge(Iterable<LatencyWindow> windows) {
            Map<ReadResult, Histogram> byResult = new EnumMap<>(ReadResult.class);
            Histogram endToEnd = new Histogram(3);
            Histogram generatorDelay = new Histogram(3);
            Map<String, Histogram> access = new TreeMap<>();
            for (ReadResult result : ReadResult.values()) {
                byResult.put(result, new Histogram(3));
            }
            for (LatencyWindow window : windows) {
                window.byResult()
                        .forEach((result, histogram) -> byResult.get(result).add(histogram));
                endToEnd.add(window.endToEnd());
                generatorDelay.add(window.generatorDelay());
                window.access().forEach((name, histogram) -> access.computeIfAbsent(name, n -> new Histogram(3))
                        .add(histogram));
            }
            return of(byResult, endToEnd, generatorDelay, access);
        }
    }

    public String scrape() {
        return registry.scrape();
    }
}
