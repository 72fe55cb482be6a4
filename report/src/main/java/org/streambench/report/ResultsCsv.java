package org.streambench.report;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * results.csv: one row per run and repetition. Each column is its name and how a run gives its
 * value, in one list, so the header and the rows cannot drift apart.
 */
final class ResultsCsv {

    private record Column(String name, Function<RunRecord, String> value) {}

    private ResultsCsv() {}

    static void write(Path file, Path dir, List<RunRecord> runs) throws IOException {
        List<Column> columns = columns(dir);
        try (PrintWriter csv = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
            csv.println(columns.stream().map(Column::name).collect(Collectors.joining(",")));
            for (RunRecord run : runs) {
                csv.println(columns.stream()
                        .map(column -> column.value().apply(run))
                        .collect(Collectors.joining(",")));
            }
        }
    }

    private static List<Column> columns(Path dir) {
        return List.of(
                new Column("folder", r -> field(dir.relativize(r.folder()).toString())),
                new Column("engine", RunRecord::engine),
                new Column("database", RunRecord::database),
                new Column("pattern", RunRecord::pattern),
                new Column("blobBytes", r -> Integer.toString(r.blobBytes())),
                new Column("repetition", ResultsCsv::repetition),
                new Column("status", RunRecord::status),
                new Column("throughputMean", r -> number(r.throughputMean())),
                new Column("throughputStddev", r -> number(r.throughputStddev())),
                new Column("readLatencyMeanMicros", latency(l -> number(l.mean()))),
                new Column("readLatencyStddevMicros", latency(l -> number(l.stddev()))),
                new Column("p50", latency(l -> Long.toString(l.p50()))),
                new Column("p95", latency(l -> Long.toString(l.p95()))),
                new Column("p99", latency(l -> Long.toString(l.p99()))),
                new Column("p999", latency(l -> Long.toString(l.p999()))),
                new Column("mismatches", r -> Long.toString(r.mismatches())),
                new Column("emulated", r -> Boolean.toString(r.emulated())),
                new Column("engineVersion", r -> field(r.engineVersion())),
                new Column("databaseVersion", r -> field(r.databaseVersion())),
                new Column("durationSeconds", r -> Integer.toString(r.durationSeconds())),
                new Column("warmupSeconds", r -> Integer.toString(r.warmupSeconds())),
                new Column("keys", r -> Long.toString(r.keys())),
                new Column("parallelism", r -> Integer.toString(r.parallelism())),
                new Column("rate", r -> number(r.rate())),
                new Column("behindTargetRate", r -> Boolean.toString(r.behindTargetRate())),
                new Column("commit", r -> field(r.commit())),
                new Column("error", r -> field(r.error())),
                new Column("access", r -> field(r.access())),
                new Column("endToEndP99Micros", r -> whole(r.endToEndP99())),
                new Column("ceilingTool", r -> field(r.ceilingTool())),
                new Column("ceilingThroughput", r -> number(r.ceilingThroughput())),
                new Column("ceilingRatio", r -> number(r.ceilingRatio())),
                new Column("guarantee", RunRecord::guarantee),
                new Column("checkpointIntervalMillis", r -> whole(r.checkpointIntervalMillis())),
                new Column("fault", r -> field(r.fault())),
                new Column("duplicates", r -> whole(r.duplicates())),
                new Column("losses", r -> whole(r.losses())),
                new Column("faultRecoverySeconds", r -> number(r.faultRecoverySeconds())),
                new Column("keyDistribution", RunRecord::keyDistribution),
                new Column(
                        "databaseCpuSecondsPerMillionRecords", r -> number(r.cpuSecondsPerMillionRecords("database"))),
                new Column("engineCpuSecondsPerMillionRecords", r -> number(r.cpuSecondsPerMillionRecords("engine"))),
                new Column("runnerCpuSecondsPerMillionRecords", r -> number(r.cpuSecondsPerMillionRecords("runner"))),
                new Column("deviceWriteBytesPerRecord", r -> number(r.deviceWriteBytesPerRecord())),
                new Column("writeAmplification", r -> number(r.writeAmplification())),
                new Column(
                        "machineSyncedWritesPerSecond",
                        r -> r.calibration() == null
                                ? ""
                                : number(r.calibration().syncedWritesPerSecond())),
                new Column("recordsPerSyncedWrite", r -> number(r.perSyncedWrite())),
                new Column(
                        "exportersBusyCpuSecondsPerMillionRecords",
                        r -> number(r.exportersBusyCpuSecondsPerMillionRecords())),
                new Column("exportersDiskWriteBytesPerRecord", r -> number(r.exportersDiskWriteBytesPerRecord())));
    }

    /** A read-latency column: empty for a run that measured no reads. */
    private static Function<RunRecord, String> latency(Function<RunRecord.Latency, String> value) {
        return r -> r.readLatency() == null ? "" : value.apply(r.readLatency());
    }

    private static String repetition(RunRecord r) {
        String name = r.folder().getFileName().toString();
        return name.startsWith("rep-") ? name.substring(4) : "";
    }

    private static String number(Double value) {
        return value == null ? "" : String.format(Locale.ROOT, "%.3f", value);
    }

    private static String whole(Long value) {
        return value == null ? "" : Long.toString(value);
    }

    /** A text field, quoted when it holds a comma, a quote or a line break. */
    private static String field(String value) {
        if (value == null) {
            return "";
        }
        return value.contains(",") || value.contains("\"") || value.contains("\n")
                ? "\"" + value.replace("\"", "\"\"") + "\""
                : value;
    }
}
