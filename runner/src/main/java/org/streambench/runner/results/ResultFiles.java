package org.streambench.runner.results;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.JobReport;
import org.streambench.operators.LatencyStats;
import org.streambench.report.RunRecord;
import org.streambench.runner.CleanupOnExit;

/** Writes and reads result.json (self-describing: spec, results, versions, machine) and per-second.csv. */
public final class ResultFiles {

    public static final String RESULT = "result.json";
    public static final String PER_SECOND = "per-second.csv";
    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ResultFiles() {}

    /** Guards result.json: a run's own result and the interrupted marker never interleave. */
    private static final Object LOCK = new Object();

    /**
     * Writes the run's result files; result.json last and atomically, so a folder whose result.json
     * exists holds a complete result. Writes nothing once the runner is being interrupted.
     */
    public static void write(RunResult result, Path dir) throws IOException {
        synchronized (LOCK) {
            if (CleanupOnExit.exiting()) {
                return;
            }
            Path csvTmp = dir.resolve(PER_SECOND + ".tmp");
            try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(csvTmp))) {
                csv.println(
                        "second,epochMillis,intervalSeconds,warmup,records,generated,reads,readLatencyMeanMicros,errors");
                for (RunResult.Second s : result.perSecond()) {
                    String latency = s.readLatencyMeanMicros() == null
                            ? ""
                            : String.format(Locale.ROOT, "%.1f", s.readLatencyMeanMicros());
                    csv.printf(
                            Locale.ROOT,
                            "%d,%d,%.6f,%b,%d,%d,%d,%s,%d%n",
                            s.second(),
                            s.epochMillis(),
                            s.intervalSeconds(),
                            s.warmup(),
                            s.records(),
                            s.generated(),
                            s.reads(),
                            latency,
                            s.errors());
                }
            }
            Files.move(
                    csvTmp,
                    dir.resolve(PER_SECOND),
                    StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
            writeJson(toJson(result), dir);
        }
    }

    /** Marks a run the runner could not finish: result.json says "interrupted" (unless a complete result is there). */
    public static void writeInterrupted(ExperimentSpec spec, String startedAt, Path dir) {
        synchronized (LOCK) {
            if (!Files.isDirectory(dir) || Files.exists(dir.resolve(RESULT))) {
                return;
            }
            try {
                Files.deleteIfExists(dir.resolve(PER_SECOND));
                writeJson(
                        ordered(
                                "spec",
                                spec(spec),
                                "status",
                                "interrupted",
                                "error",
                                "the runner was interrupted (SIGINT or SIGTERM) before the run finished",
                                "startedAt",
                                startedAt),
                        dir);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static void writeJson(Map<String, Object> json, Path dir) throws IOException {
        Map<String, Object> versioned = new LinkedHashMap<>();
        versioned.put("schemaVersion", RunRecord.SCHEMA_VERSION);
        versioned.putAll(json);
        Path tmp = dir.resolve(RESULT + ".tmp");
        JSON.writeValue(tmp.toFile(), versioned);
        Files.move(tmp, dir.resolve(RESULT), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    static Map<String, Object> toJson(RunResult r) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("spec", spec(r.spec()));
        json.put("status", r.status());
        json.put("error", r.error());
        json.put("startedAt", r.startedAt());
        json.put("warmup", r.warmup());
        json.put(
                "throughput",
                r.throughput() == null
                        ? null
                        : ordered(
                                "mean",
                                r.throughput().mean(),
                                "stddev",
                                r.throughput().stddev(),
                                "unit",
                                "records/s",
                                "trendPercent",
                                Math.round(r.throughput().trendPercent() * 10) / 10.0,
                                "trending",
                                r.throughput().trending()));
        json.put(
                "rate",
                r.rate() == null
                        ? null
                        : ordered(
                                "target",
                                r.rate().target(),
                                "unit",
                                "records/s",
                                "generated",
                                Math.round(r.rate().generated() * 10) / 10.0,
                                "processed",
                                Math.round(r.rate().processed() * 10) / 10.0,
                                "behind",
                                r.rate().behind()));
        json.put("readLatencyMicros", r.spec().pattern().reads() ? latency(r.readLatencyMicros()) : null);
        Map<String, Object> byResult = new LinkedHashMap<>();
        if (r.report() != null) {
            r.report().latencyByResult().forEach((result, stats) -> byResult.put(result, latency(stats)));
        }
        json.put("readLatencyByResultMicros", r.spec().pattern().reads() ? byResult : null);
        json.put(
                "endToEndLatencyMicros",
                r.report() == null ? null : latency(r.report().endToEnd()));
        json.put(
                "generatorDelayMicros",
                r.report() == null ? null : latency(r.report().generatorDelay()));
        json.put("perSecond", r.perSecond());
        json.put("counts", counts(r.report()));
        json.put("verification", r.verification());
        json.put("environment", r.environment());
        Map<String, Object> phases = new LinkedHashMap<>();
        r.phaseSeconds().forEach((phase, seconds) -> phases.put(phase, Math.round(seconds * 1000) / 1000.0));
        json.put("phaseSeconds", phases);
        return json;
    }

    private static Map<String, Object> spec(ExperimentSpec s) {
        Map<String, Object> settings = new LinkedHashMap<>(s.databaseSettings());
        settings.computeIfPresent("password", (k, v) -> v.toString().isEmpty() ? "" : "***");
        return ordered(
                "engine",
                s.engine(),
                "database",
                s.database(),
                "pattern",
                s.pattern().cliName(),
                "blobBytes",
                s.blobBytes(),
                "durationSeconds",
                s.durationSeconds(),
                "warmupSeconds",
                s.warmupSeconds(),
                "rate",
                s.rate(),
                "keys",
                s.keys(),
                "parallelism",
                s.parallelism(),
                "generatorParallelism",
                s.generatorParallelism(),
                "seed",
                s.seed(),
                "runToken",
                s.runToken(),
                "recordsPerGenerator",
                s.recordsPerGenerator(),
                "engineSettings",
                s.engineSettings(),
                "databaseSettings",
                settings);
    }

    private static Map<String, Object> latency(LatencyStats l) {
        if (l == null) {
            return null;
        }
        return ordered(
                "count",
                l.count(),
                "mean",
                l.mean(),
                "stddev",
                l.stddev(),
                "p50",
                l.p50(),
                "p95",
                l.p95(),
                "p99",
                l.p99(),
                "p999",
                l.p999(),
                "max",
                l.max());
    }

    private static Map<String, Object> counts(JobReport report) {
        if (report == null) {
            return null;
        }
        Map<String, Object> processed = new LinkedHashMap<>();
        report.processed().forEach((op, n) -> processed.put(op.label(), n));
        return ordered(
                "emitted",
                report.totalEmitted(),
                "emittedByInstance",
                report.emittedByInstance(),
                "processed",
                processed,
                "errors",
                report.errors(),
                "firstError",
                report.firstError());
    }

    private static Map<String, Object> ordered(Object... keysAndValues) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> read(Path dir) throws IOException {
        return JSON.readValue(dir.resolve(RESULT).toFile(), Map.class);
    }

    public static List<String> csvLines(Path dir) throws IOException {
        return Files.readAllLines(dir.resolve(PER_SECOND));
    }
}
