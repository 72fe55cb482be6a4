package org.streambench.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** Result files written by hand, as `bench run` writes them (the fields the report reads). */
final class Fixtures {

    private Fixtures() {}

    static void run(
            Path root,
            String engine,
            String database,
            String pattern,
            int blob,
            int repetition,
            String status,
            double throughput,
            Double latency)
            throws IOException {
        run(root, engine, database, pattern, blob, repetition, status, throughput, latency, null, "default");
    }

    static void run(
            Path root,
            String engine,
            String database,
            String pattern,
            int blob,
            int repetition,
            String status,
            double throughput,
            Double latency,
            String databaseNote,
            String databaseProfile)
            throws IOException {
        run(
                root,
                engine,
                database,
                pattern,
                blob,
                repetition,
                status,
                throughput,
                latency,
                databaseNote,
                databaseProfile,
                "[]");
    }

    /**
     * An ok single run whose measured seconds processed {@code perSecond} records each (1 s apart),
     * with {@code latency} µs of read latency in every second when not null; its throughput is their mean.
     */
    static void runWithSeconds(
            Path root, String engine, String database, String pattern, int blob, double[] perSecond, Double latency)
            throws IOException {
        StringBuilder rows = new StringBuilder("[");
        double sum = 0;
        for (int i = 0; i < perSecond.length; i++) {
            sum += perSecond[i];
            rows.append(i == 0 ? "" : ",")
                    .append(String.format(
                            Locale.ROOT,
                            "{\"second\": %d, \"epochMillis\": %d, \"intervalSeconds\": 1.0, \"warmup\": false,"
                                    + " \"records\": %d, \"generated\": %d, \"reads\": %d, \"readLatencyMeanMicros\": %s,"
                                    + " \"errors\": 0}",
                            i + 1,
                            1000L * (i + 1),
                            Math.round(perSecond[i]),
                            Math.round(perSecond[i]),
                            latency == null ? 0 : 100,
                            latency == null ? "null" : latency.toString()));
        }
        run(
                root,
                engine,
                database,
                pattern,
                blob,
                1,
                "ok",
                sum / perSecond.length,
                latency,
                null,
                "default",
                rows.append("]").toString());
    }

    private static void run(
            Path root,
            String engine,
            String database,
            String pattern,
            int blob,
            int repetition,
            String status,
            double throughput,
            Double latency,
            String databaseNote,
            String databaseProfile,
            String perSecondJson)
            throws IOException {
        Path dir = Files.createDirectories(root.resolve(engine)
                .resolve(database)
                .resolve(pattern)
                .resolve(Integer.toString(blob))
                .resolve("rep-" + repetition));
        String latencyJson = latency == null
                ? "null"
                : String.format(
                        Locale.ROOT,
                        "{\"count\": 1000, \"mean\": %s, \"stddev\": 10.0, \"p50\": 1, \"p95\": 2, \"p99\": 3, \"p999\": 4, \"max\": 5}",
                        latency);
        Files.writeString(
                dir.resolve("result.json"),
                String.format(
                        Locale.ROOT,
                        """
                {"spec": {"engine": "%s", "database": "%s", "pattern": "%s", "blobBytes": %d, "durationSeconds": 20,
                          "warmupSeconds": 5, "rate": 0.0, "keys": 1000, "parallelism": 1},
                 "status": "%s", "error": %s,
                 "throughput": {"mean": %s, "stddev": 1.0, "unit": "records/s"},
                 "readLatencyMicros": %s,
                 "verification": {"checked": 10, "mismatches": 0},
                 "perSecond": %s,
                 "environment": {"engineVersion": "E 1", "databaseVersion": "D 1", "databaseNote": %s, "host": "h", "cores": 2,
                                 "commit": "abc", "databaseProfile": "%s"}}
                """,
                        engine,
                        database,
                        pattern,
                        blob,
                        status,
                        status.equals("ok") ? "null" : "\"it broke\"",
                        throughput,
                        latencyJson,
                        perSecondJson,
                        databaseNote == null ? "null" : "\"" + databaseNote + "\"",
                        databaseProfile));
    }

    /** Gives the run in {@code folder} its machine's calibration: {@code syncedWritesPerSecond}, sorting {@code sorted} M longs/s. */
    static void calibrated(Path folder, double syncedWritesPerSecond, double sorted) throws IOException {
        Path file = folder.resolve("result.json");
        String json = Files.readString(file);
        String calibration = String.format(
                Locale.ROOT,
                "\"environment\": {\"calibration\": {\"measuredAt\": \"2026-11-29T01:00:00Z\", \"host\": \"h\","
                        + " \"folder\": \"/w\", \"device\": \"vda\", \"seconds\": 5.0, \"syncedWritesPerSecond\": %s,"
                        + " \"syncedWriteP50Micros\": 90, \"syncedWriteP99Micros\": 300, \"sequentialWriteMBps\": 800.0,"
                        + " \"sortedMillionsPerSecond\": %s}, ",
                syncedWritesPerSecond,
                sorted);
        if (!json.contains("\"environment\": {")) {
            throw new IllegalStateException("no environment in " + file);
        }
        Files.writeString(file, json.replace("\"environment\": {", calibration));
    }

    /** Adds a resources part of 1,000 records: the database's CPU-s per 1M as given, the engine's 250, the runner's 10. */
    static void withResources(Path folder, double databaseCpuPerMillion, long deviceWriteBytes) throws Exception {
        withResources(folder, databaseCpuPerMillion, deviceWriteBytes, null, null);
    }

    /** As above, with a node exporter's figures per record when they are given. */
    static void withResources(
            Path folder,
            double databaseCpuPerMillion,
            long deviceWriteBytes,
            Double exporterCpuPerMillion,
            Double exporterBytesPerRecord)
            throws Exception {
        String exporters = exporterCpuPerMillion == null
                ? ""
                : String.format(
                        java.util.Locale.ROOT,
                        " \"exporters\": {\"dbnode\": {\"url\": \"http://db:9100/metrics\", \"busyCpuSeconds\": %s,"
                                + " \"busyCpuSecondsPerMillionRecords\": %s, \"diskWriteBytes\": %d,"
                                + " \"diskWriteBytesPerRecord\": %s, \"counterGrowth\": {}}},",
                        exporterCpuPerMillion / 1000,
                        exporterCpuPerMillion,
                        Math.round(exporterBytesPerRecord * 1000),
                        exporterBytesPerRecord);
        Path file = folder.resolve("result.json");
        String json = Files.readString(file).strip();
        String resources = String.format(
                java.util.Locale.ROOT,
                "\"resources\": {\"windowSeconds\": 1.0, \"records\": 1000, \"roles\": {"
                        + "\"database\": {\"processes\": 5, \"cpuSeconds\": %s, \"cpuSecondsPerMillionRecords\": %s,"
                        + " \"peakRssBytes\": 1},"
                        + " \"engine\": {\"processes\": 1, \"cpuSeconds\": 0.25, \"cpuSecondsPerMillionRecords\": 250.0,"
                        + " \"peakRssBytes\": 1},"
                        + " \"runner\": {\"processes\": 1, \"cpuSeconds\": 0.01, \"cpuSecondsPerMillionRecords\": 10.0,"
                        + " \"peakRssBytes\": 1}},"
                        + " \"device\": \"vda\", \"deviceReadBytes\": 0, \"deviceWriteBytes\": %d,"
                        + " \"writeAmplification\": %s," + exporters + " \"notSeen\": {}}, ",
                databaseCpuPerMillion / 1000,
                databaseCpuPerMillion,
                deviceWriteBytes,
                deviceWriteBytes / 1000.0 / 49);
        Files.writeString(file, "{" + resources + json.substring(1));
    }
}
