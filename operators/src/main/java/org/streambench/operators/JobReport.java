package org.streambench.operators;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * What the job JVM reports when it ends, written by the job ({@link JobMain}) and read by the
 * runner: one class, so both sides use the same keys. Latencies are over the measured window:
 * {@code latency} of the successful reads; {@code latencyByResult} of hits, misses and failed reads,
 * each apart (only those that occurred); {@code endToEnd} from each record's intended emit time to
 * the end of its processing; {@code generatorDelay} how late the generators emitted.
 */
public record JobReport(
        String status,
        String error,
        String engineVersion,
        Map<Integer, Long> emittedByInstance,
        Map<Operation, Long> processed,
        long errors,
        String firstError,
        LatencyStats latency,
        Map<String, LatencyStats> latencyByResult,
        LatencyStats endToEnd,
        LatencyStats generatorDelay) {

    private static final String STATUS = "status";
    private static final String ERROR = "error";
    private static final String ENGINE_VERSION = "engineVersion";
    private static final String GENERATOR = "generator.";
    private static final String EMITTED = ".emitted";
    private static final String PROCESSED = "processed.";
    private static final String ERRORS = "errors";
    private static final String FIRST_ERROR = "firstError";
    private static final String LATENCY = "latency.";
    private static final String END_TO_END = "endToEnd.";
    private static final String GENERATOR_DELAY = "generatorDelay.";

    /** A job that failed before its runtime started: no counts. */
    static JobReport withoutRuntime(String status, String error, String engineVersion) {
        Map<Operation, Long> none = new EnumMap<>(Operation.class);
        for (Operation op : Operation.values()) {
            none.put(op, 0L);
        }
        return new JobReport(status, error, engineVersion, Map.of(), none, 0, null, null, Map.of(), null, null);
    }

    public long totalEmitted() {
        return emittedByInstance.values().stream().mapToLong(Long::longValue).sum();
    }

    public long totalProcessed() {
        return processed.values().stream().mapToLong(Long::longValue).sum();
    }

    public Properties toProperties() {
        Properties p = new Properties();
        p.setProperty(ENGINE_VERSION, engineVersion);
        p.setProperty(STATUS, status);
        if (error != null) {
            p.setProperty(ERROR, error);
        }
        emittedByInstance.forEach(
                (instance, count) -> p.setProperty(GENERATOR + instance + EMITTED, Long.toString(count)));
        processed.forEach((op, count) -> p.setProperty(PROCESSED + op.label(), Long.toString(count)));
        p.setProperty(ERRORS, Long.toString(errors));
        if (firstError != null) {
            p.setProperty(FIRST_ERROR, firstError);
        }
        write(p, LATENCY, latency);
        latencyByResult.forEach((result, stats) -> write(p, LATENCY + result + ".", stats));
        write(p, END_TO_END, endToEnd);
        write(p, GENERATOR_DELAY, generatorDelay);
        return p;
    }

    public static JobReport parse(Properties p) {
        Map<Integer, Long> emitted = new TreeMap<>();
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith(GENERATOR) && key.endsWith(EMITTED)) {
                emitted.put(
                        Integer.parseInt(key.substring(GENERATOR.length(), key.length() - EMITTED.length())),
                        Long.parseLong(p.getProperty(key)));
            }
        }
        Map<Operation, Long> processed = new EnumMap<>(Operation.class);
        for (Operation op : Operation.values()) {
            processed.put(op, Long.parseLong(p.getProperty(PROCESSED + op.label(), "0")));
        }
        Map<String, LatencyStats> byResult = new LinkedHashMap<>();
        for (OperatorMetrics.ReadResult result : OperatorMetrics.ReadResult.values()) {
            LatencyStats stats = stats(p, LATENCY + result.label() + ".");
            if (stats != null) {
                byResult.put(result.label(), stats);
            }
        }
        return new JobReport(
                p.getProperty(STATUS),
                p.getProperty(ERROR),
                p.getProperty(ENGINE_VERSION),
                emitted,
                processed,
                Long.parseLong(p.getProperty(ERRORS, "0")),
                p.getProperty(FIRST_ERROR),
                stats(p, LATENCY),
                byResult,
                stats(p, END_TO_END),
                stats(p, GENERATOR_DELAY));
    }

    /** Writes the report atomically: the runner never reads half of one. */
    public void write(Path file) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (Writer out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            toProperties().store(out, "streambench job report");
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    public static JobReport read(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        }
        return parse(p);
    }

    private static void write(Properties p, String prefix, LatencyStats stats) {
        if (stats != null) {
            stats.writeTo(p, prefix);
        }
    }

    private static LatencyStats stats(Properties p, String prefix) {
        return p.getProperty(prefix + "count") == null ? null : LatencyStats.readFrom(p, prefix);
    }
}
