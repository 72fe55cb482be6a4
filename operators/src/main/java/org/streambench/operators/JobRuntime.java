package org.streambench.operators;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;

/**
 * The per-JVM state of a running job, shared by every operator instance the engine runs in this
 * JVM: the metrics, the generator counts, and the HTTP endpoint the runner talks to.
 * <ul>
 * <li>{@code GET /metrics}: Prometheus text format.</li>
 * <li>{@code POST /start}: the database is ready; generators of a job started with {@code awaitStart} begin.</li>
 * <li>{@code POST /measure}: the warm-up is over; start the latency window.</li>
 * <li>{@code POST /stop}: close the latency window; generators stop, the job drains and ends.</li>
 * </ul>
 */
public final class JobRuntime implements AutoCloseable {

    private static final long RATE_SAMPLE_NANOS = 250_000_000;
    private static final long START_POLL_MILLIS = 50;

    private static JobRuntime current;

    private final ExperimentSpec spec;
    private final OperatorMetrics metrics;
    private final Map<Integer, AtomicLong> emittedByInstance = new ConcurrentHashMap<>();
    private final HttpServer server;
    private final CountDownLatch startGate;
    private volatile boolean stopRequested;
    private volatile OperatorMetrics.LatencyWindow measuredWindow;
    private volatile String failure;
    private volatile Consumer<String> onFailure = reason -> {};
    private final Object rateLock = new Object();
    private volatile long rateSampleNanos = System.nanoTime() - RATE_SAMPLE_NANOS;
    private long rateSampleHandled = -1; // guarded by rateLock
    private volatile double handledPerSecond;

    private JobRuntime(ExperimentSpec spec, boolean awaitStart) throws IOException {
        this.spec = spec;
        this.startGate = new CountDownLatch(awaitStart ? 1 : 0);
        this.metrics = new OperatorMetrics(spec, this::totalEmitted);
        this.server = HttpServer.create(new InetSocketAddress(spec.metricsHost(), spec.metricsPort()), 16);
        server.createContext(
                JobProtocol.METRICS_PATH,
                exchange -> respond(exchange, "GET", metrics::scrape, "text/plain; version=0.0.4; charset=utf-8"));
        server.createContext(
                JobProtocol.START_PATH,
                exchange -> respond(
                        exchange,
                        "POST",
                        () -> {
                            startGate.countDown();
                            return "started\n";
                        },
                        "text/plain"));
        server.createContext(
                JobProtocol.MEASURE_PATH,
                exchange -> respond(
                        exchange,
                        "POST",
                        () -> {
                            metrics.resetLatencyWindow();
                            return "measuring\n";
                        },
                        "text/plain"));
        server.createContext(
                JobProtocol.STOP_PATH,
                exchange -> respond(
                        exchange,
                        "POST",
                        () -> {
                            requestStop();
                            return "stopping\n";
                        },
                        "text/plain"));
        server.setExecutor(Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "streambench-metrics-http");
            t.setDaemon(true);
            return t;
        }));
        server.start();
    }

    /** Starts the runtime of this JVM with its generators free to emit at once. */
    public static JobRuntime start(ExperimentSpec spec) throws IOException {
        return start(spec, false);
    }

    /**
     * Starts the runtime of this JVM; the job's main calls it once, before the engine starts. With
     * {@code awaitStart}, generators emit nothing until {@code POST /start}: the runner launches
     * the job while it prefills the database, so the engine's start-up overlaps the prefill.
     */
    public static synchronized JobRuntime start(ExperimentSpec spec, boolean awaitStart) throws IOException {
        if (current != null) {
            throw new IllegalStateException("the job runtime of this JVM is already started");
        }
        current = new JobRuntime(spec, awaitStart);
        return current;
    }

    /** The runtime of this JVM, for operator instances the engine created from serialized state. */
    public static synchronized JobRuntime get() {
        if (current == null) {
            throw new IllegalStateException(
                    "no streambench job runtime in this JVM; engine adapters must start it in main");
        }
        return current;
    }

    public ExperimentSpec spec() {
        return spec;
    }

    public OperatorMetrics metrics() {
        return metrics;
    }

    public boolean stopRequested() {
        return stopRequested;
    }

    /** Whether generators may emit: no start gate, or the runner opened it. */
    public boolean started() {
        return startGate.getCount() == 0;
    }

    /** Blocks until generators may emit; false if the job is stopping before that. */
    boolean awaitStart() throws InterruptedException {
        while (!startGate.await(START_POLL_MILLIS, TimeUnit.MILLISECONDS)) {
            if (stopRequested) {
                return false;
            }
        }
        return !stopRequested;
    }

    public synchronized void requestStop() {
        if (!stopRequested) {
            measuredWindow = metrics.takeLatencyWindow();
            stopRequested = true;
        }
    }

    /**
     * Ends the run as failed: generators stop and {@code onFailure} runs once (the job's main writes
     * its report and exits there, so no further database call is made).
     */
    public void fail(String reason) {
        synchronized (this) {
            if (failure != null) {
                return;
            }
            failure = reason;
        }
        requestStop();
        onFailure.accept(reason);
    }

    /** Why the run failed, or null. */
    public String failure() {
        return failure;
    }

    void onFailure(Consumer<String> handler) {
        this.onFailure = handler;
    }

    /** The successful reads between {@code /measure} and the stop request (or now, if none came yet). */
    public Histogram measuredLatency() {
        return measuredWindow().successful();
    }

    /** The reads between {@code /measure} and the stop request, by result (hit, miss, failed). */
    public OperatorMetrics.LatencyWindow measuredWindow() {
        OperatorMetrics.LatencyWindow measured = measuredWindow;
        return measured != null ? measured : metrics.takeLatencyWindow();
    }

    AtomicLong emittedCounter(int instance) {
        return emittedByInstance.computeIfAbsent(instance, i -> new AtomicLong());
    }

    public Map<Integer, Long> emittedByInstance() {
        Map<Integer, Long> copy = new ConcurrentHashMap<>();
        emittedByInstance.forEach((instance, count) -> copy.put(instance, count.get()));
        return copy;
    }

    long totalEmitted() {
        return emittedByInstance.values().stream().mapToLong(AtomicLong::get).sum();
    }

    /** Whether no generator will emit again: the runner asked to stop, or a bounded run emitted everything. */
    public boolean generatorsDone() {
        if (stopRequested) {
            return true;
        }
        return spec.bounded()
                && emittedByInstance.size() == spec.generatorParallelism()
                && emittedByInstance.values().stream().allMatch(count -> count.get() >= spec.recordsPerGenerator());
    }

    /** Whether every emitted record has been processed, successfully or not. */
    public boolean drained() {
        return inFlight() <= 0;
    }

    /** Records emitted but not yet processed (successfully or not). */
    long inFlight() {
        return totalEmitted() - handled();
    }

    private long handled() {
        long handled = metrics.errorCount();
        for (Operation op : Operation.values()) {
            handled += metrics.processedCount(op);
        }
        return handled;
    }

    /**
     * Records processed (successfully or not) per second, over the latest interval of at least
     * {@value #RATE_SAMPLE_NANOS} ns; 0 until one has passed.
     */
    double handledPerSecond() {
        long now = System.nanoTime();
        if (now - rateSampleNanos >= RATE_SAMPLE_NANOS) {
            synchronized (rateLock) {
                if (now - rateSampleNanos >= RATE_SAMPLE_NANOS) {
                    long handled = handled();
                    if (rateSampleHandled >= 0) {
                        handledPerSecond = (handled - rateSampleHandled) * 1e9 / (now - rateSampleNanos);
                    }
                    rateSampleHandled = handled;
                    rateSampleNanos = now;
                }
            }
        }
        return handledPerSecond;
    }

    /**
     * Blocks until the generators are done and every emitted record has been processed; engines
     * that do not end by themselves when their sources end (Spark Streaming, Apex) call this
     * before shutting down.
     */
    public void awaitGeneratorsDone() throws InterruptedException {
        while (!generatorsDone()) {
            Thread.sleep(50);
        }
        // a generator that passed its stop check just before the stop counts its last record within
        // microseconds; until it has, the job could look drained without that record
        Thread.sleep(GENERATOR_SETTLE_MILLIS);
    }

    private static final long GENERATOR_SETTLE_MILLIS = 100;

    /** Waits until every emitted record was processed; false if that took longer than the timeout. */
    public boolean awaitDrained(long timeoutMillis) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (!drained()) {
            if (System.currentTimeMillis() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /** What the runner verifies: emitted records per generator, processed records, errors, latencies. */
    public JobReport report(String status, String error, String engineVersion) {
        Map<Operation, Long> processed = new EnumMap<>(Operation.class);
        for (Operation op : Operation.values()) {
            processed.put(op, metrics.processedCount(op));
        }
        OperatorMetrics.LatencyWindow window = measuredWindow();
        Map<String, LatencyStats> byResult = new LinkedHashMap<>();
        window.byResult().forEach((result, histogram) -> {
            if (histogram.getTotalCount() > 0) {
                byResult.put(result.label(), LatencyStats.of(histogram));
            }
        });
        return new JobReport(
                status,
                error,
                engineVersion,
                emittedByInstance(),
                processed,
                metrics.errorCount(),
                metrics.firstError(),
                LatencyStats.of(window.successful()),
                byResult,
                LatencyStats.of(window.endToEnd()),
                LatencyStats.of(window.generatorDelay()));
    }

    @Override
    public void close() {
        server.stop(0);
        synchronized (JobRuntime.class) {
            current = null;
        }
    }

    private interface Body {
        String get();
    }

    private static void respond(HttpExchange exchange, String method, Body body, String contentType)
            throws IOException {
        try (exchange) {
            if (!method.equals(exchange.getRequestMethod())) {
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            byte[] bytes = body.get().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", contentType);
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }
}
