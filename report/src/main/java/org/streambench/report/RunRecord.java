package org.streambench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;

/**
 * One run as its result.json describes it: what the report needs, nothing else. {@code emulated}:
 * the database was an emulator (the run's {@code environment.databaseNote}), so its numbers say
 * nothing about the real database; {@code databaseProfile}: the durability profile of the suite's
 * own server (default, fast), null for an external one.
 */
public record RunRecord(
        Path folder,
        String engine,
        String database,
        String pattern,
        int blobBytes,
        String status,
        String error,
        Double throughputMean,
        Double throughputStddev,
        Latency readLatency,
        long mismatches,
        String databaseNote,
        String engineVersion,
        String databaseVersion,
        int durationSeconds,
        int warmupSeconds,
        long keys,
        int parallelism,
        double rate,
        String host,
        int cores,
        String commit,
        String databaseProfile) {

    /** Read latency in microseconds. */
    public record Latency(double mean, double stddev, long p50, long p95, long p99, long p999) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    public boolean ok() {
        return "ok".equals(status) && throughputMean != null;
    }

    public boolean emulated() {
        return databaseNote != null && !databaseNote.isBlank();
    }

    /** The database gave up durability on purpose (the fast profile), which the study's did not. */
    public boolean relaxedDurability() {
        return "fast".equals(databaseProfile);
    }

    /**
     * The layout of result.json that this code writes and reads; a change that an older reader would
     * misread raises it. Files without it were written before it was introduced, in layout 1.
     */
    public static final int SCHEMA_VERSION = 1;

    /** Reads {@code folder/result.json}; throws {@link IllegalArgumentException} if it is not a streambench result. */
    public static RunRecord read(Path folder) throws IOException {
        JsonNode root = JSON.readTree(folder.resolve("result.json").toFile());
        int schemaVersion = root.path("schemaVersion").asInt(1);
        if (schemaVersion > SCHEMA_VERSION) {
            throw new IllegalArgumentException(folder.resolve("result.json") + " has schemaVersion " + schemaVersion
                    + ", newer than this streambench reads (" + SCHEMA_VERSION + "); report it with a newer checkout");
        }
        JsonNode spec = root.path("spec");
        if (!spec.has("engine") || !spec.has("database") || !root.has("status")) {
            throw new IllegalArgumentException(
                    folder.resolve("result.json") + " is not a streambench result (no spec or status)");
        }
        JsonNode throughput = root.path("throughput");
        JsonNode latency = root.path("readLatencyMicros");
        JsonNode environment = root.path("environment");
        JsonNode verification = root.path("verification");
        return new RunRecord(
                folder,
                spec.get("engine").asText(),
                spec.get("database").asText(),
                spec.path("pattern").asText(),
                spec.path("blobBytes").asInt(),
                root.get("status").asText(),
                text(root, "error"),
                number(throughput, "mean"),
                number(throughput, "stddev"),
                latency.isObject() && latency.path("count").asLong() > 0
                        ? new Latency(
                                latency.path("mean").asDouble(),
                                latency.path("stddev").asDouble(),
                                latency.path("p50").asLong(),
                                latency.path("p95").asLong(),
                                latency.path("p99").asLong(),
                                latency.path("p999").asLong())
                        : null,
                verification.path("mismatches").asLong(0),
                text(environment, "databaseNote"),
                text(environment, "engineVersion"),
                text(environment, "databaseVersion"),
                spec.path("durationSeconds").asInt(),
                spec.path("warmupSeconds").asInt(),
                spec.path("keys").asLong(),
                spec.path("parallelism").asInt(),
                spec.path("rate").asDouble(),
                text(environment, "host"),
                environment.path("cores").asInt(),
                text(environment, "commit"),
                text(environment, "databaseProfile"));
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static Double number(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asDouble();
    }
}
