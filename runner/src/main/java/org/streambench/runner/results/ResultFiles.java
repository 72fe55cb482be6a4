package org.streambench.runner.results;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.streambench.generator.KeyDistribution;
import org.streambench.local.CleanupOnExit;
import org.streambench.model.ResultJson;
import org.streambench.model.RunDocument;
import org.streambench.model.RunDocument.Second;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.JobReport;

/** Writes and reads result.json (self-describing: spec, results, versions, machine) and per-second.csv. */
public final class ResultFiles {

    public static final String RESULT = "result.json";
    public static final String PER_SECOND = "per-second.csv";
    private static final ObjectMapper JSON = new ObjectMapper();

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
            try {
                Files.writeString(csvTmp, perSecondCsv(result));
                Files.move(
                        csvTmp,
                        dir.resolve(PER_SECOND),
                        StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
                writeJson(ResultJson.write(toDocument(result)), dir);
            } catch (IOException e) {
                // e.g. a full disk: no half-written result is left behind, nor a per-second file without its result
                for (Path partial : List.of(csvTmp, dir.resolve(PER_SECOND), dir.resolve(RESULT + ".tmp"))) {
                    deleteQuietly(partial);
                }
                throw new IOException("could not write the result to " + dir + ": " + e.getMessage(), e);
            }
        }
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // the write's own failure is the one to report
        }
    }

    private static String perSecondCsv(RunResult result) {
        StringBuilder csv = new StringBuilder(
                "second,epochMillis,intervalSeconds,warmup,records,generated,reads,readLatencyMeanMicros,errors");
        RunDocument.Resources.ROLES.forEach(role -> csv.append(',').append(role).append("CpuCores"));
        csv.append('\n');
        for (Second s : result.perSecond()) {
            String latency = s.readLatencyMeanMicros() == null
                    ? ""
                    : String.format(Locale.ROOT, "%.1f", s.readLatencyMeanMicros());
            StringBuilder cpu = new StringBuilder();
            for (String role : RunDocument.Resources.ROLES) {
                Double cores = s.cpuCores().get(role);
                cpu.append(',').append(cores == null ? "" : String.format(Locale.ROOT, "%.3f", cores));
            }
            csv.append(String.format(
                    Locale.ROOT,
                    "%d,%d,%.6f,%b,%d,%d,%d,%s,%d%s%n",
                    s.second(),
                    s.epochMillis(),
                    s.intervalSeconds(),
                    s.warmup(),
                    s.records(),
                    s.generated(),
                    s.reads(),
                    latency,
                    s.errors(),
                    cpu));
        }
        return csv.toString();
    }

    /** Adds the ceiling measured after the run to its result.json, rewritten atomically. */
    public static void addCeiling(Path dir, RunDocument.Ceiling ceiling) throws IOException {
        synchronized (LOCK) {
            writeJson(ResultJson.write(ResultJson.read(dir.resolve(RESULT)).withCeiling(ceiling)), dir);
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
                        ResultJson.write(new RunDocument.Interrupted(
                                RunDocument.SCHEMA_VERSION,
                                spec(spec),
                                "interrupted",
                                "the runner was interrupted (SIGINT or SIGTERM) before the run finished",
                                startedAt)),
                        dir);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    private static void writeJson(String json, Path dir) throws IOException {
        Path tmp = dir.resolve(RESULT + ".tmp");
        Files.writeString(tmp, json);
        Files.move(tmp, dir.resolve(RESULT), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    static RunDocument toDocument(RunResult r) {
        boolean reads = r.spec().pattern().reads();
        JobReport report = r.report();
        Map<String, Double> phases = new LinkedHashMap<>();
        r.phaseSeconds().forEach((phase, seconds) -> phases.put(phase, Math.round(seconds * 1000) / 1000.0));
        return new RunDocument(
                RunDocument.SCHEMA_VERSION,
                spec(r.spec()),
                r.status(),
                r.error(),
                r.startedAt(),
                r.warmup(),
                r.throughput(),
                r.rate(),
                reads ? r.readLatencyMicros() : null,
                reads ? (report == null ? Map.of() : report.latencyByResult()) : null,
                report == null ? null : report.endToEnd(),
                report == null ? null : report.generatorDelay(),
                accessLatency(report),
                r.perSecond(),
                counts(report),
                r.verification(),
                r.environment(),
                phases,
                null,
                r.recovery(),
                r.resources(),
                r.fill());
    }

    private static Map<String, RunDocument.Latency> accessLatency(JobReport report) {
        if (report == null || report.access().isEmpty()) {
            return null;
        }
        return report.access();
    }

    /** A spec as result.json (and a matrix's journal) hold it: typed, with the password masked. */
    public static RunDocument.Spec spec(ExperimentSpec s) {
        Map<String, String> settings = new LinkedHashMap<>(s.databaseSettings());
        settings.computeIfPresent("password", (k, v) -> v.isEmpty() ? "" : "***");
        return new RunDocument.Spec(
                s.engine(),
                s.database(),
                s.pattern().cliName(),
                s.blobBytes(),
                s.durationSeconds(),
                s.warmupSeconds(),
                s.rate(),
                s.keys(),
                s.parallelism(),
                s.generatorParallelism(),
                s.seed(),
                s.runToken(),
                s.recordsPerGenerator(),
                s.engineSettings(),
                settings,
                s.access().toString(),
                s.guarantee().recovers() ? s.guarantee().cliName() : null,
                s.guarantee().recovers() ? s.checkpointIntervalMillis() : null,
                s.fault() == null ? null : s.fault().toString(),
                s.keyDistribution().equals(KeyDistribution.UNIFORM)
                        ? null
                        : s.keyDistribution().cliName());
    }

    private static RunDocument.Counts counts(JobReport report) {
        if (report == null) {
            return null;
        }
        Map<String, Long> processed = new LinkedHashMap<>();
        report.processed().forEach((op, n) -> processed.put(op.label(), n));
        return new RunDocument.Counts(
                report.totalEmitted(), report.emittedByInstance(), processed, report.errors(), report.firstError());
    }

    /** result.json as plain maps, every field as written (tests look at it so). */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> read(Path dir) throws IOException {
        return JSON.readValue(dir.resolve(RESULT).toFile(), Map.class);
    }

    public static List<String> csvLines(Path dir) throws IOException {
        return Files.readAllLines(dir.resolve(PER_SECOND));
    }
}
