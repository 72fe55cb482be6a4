package org.streambench.runner;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.streambench.operators.LatencyStats;
import org.streambench.operators.Operation;
import org.streambench.operators.OperatorMetrics;

/**
 * What the job JVM reported when it ended (see {@code JobMain}). Latencies are over the measured
 * window: {@code latency} of the successful reads; {@code latencyByResult} of hits, misses and failed
 * reads, each apart (only those that occurred); {@code endToEnd} from each record's intended emit
 * time to the end of its processing; {@code generatorDelay} how late the generators emitted.
 */
record JobReport(
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

    static JobReport read(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(in);
        }
        return parse(p);
    }

    static JobReport parse(Properties p) {
        Map<Integer, Long> emitted = new TreeMap<>();
        for (String key : p.stringPropertyNames()) {
            if (key.startsWith("generator.") && key.endsWith(".emitted")) {
                emitted.put(
                        Integer.parseInt(key.substring("generator.".length(), key.length() - ".emitted".length())),
                        Long.parseLong(p.getProperty(key)));
            }
        }
        Map<Operation, Long> processed = new TreeMap<>();
        for (Operation op : Operation.values()) {
            processed.put(op, Long.parseLong(p.getProperty("processed." + op.label(), "0")));
        }
        LatencyStats latency = stats(p, "latency.");
        Map<String, LatencyStats> byResult = new LinkedHashMap<>();
        for (OperatorMetrics.ReadResult result : OperatorMetrics.ReadResult.values()) {
            String prefix = "latency." + result.label() + ".";
            if (p.getProperty(prefix + "count") != null) {
                byResult.put(result.label(), LatencyStats.readFrom(p, prefix));
            }
        }
        return new JobReport(
                p.getProperty("status"),
                p.getProperty("error"),
                p.getProperty("engineVersion"),
                emitted,
                processed,
                Long.parseLong(p.getProperty("errors", "0")),
                p.getProperty("firstError"),
                latency,
                byResult,
                stats(p, "endToEnd."),
                stats(p, "generatorDelay."));
    }

    private static LatencyStats stats(Properties p, String prefix) {
        return p.getProperty(prefix + "count") == null ? null : LatencyStats.readFrom(p, prefix);
    }

    long totalEmitted() {
        return emittedByInstance.values().stream().mapToLong(Long::longValue).sum();
    }

    long totalProcessed() {
        return processed.values().stream().mapToLong(Long::longValue).sum();
    }
}
