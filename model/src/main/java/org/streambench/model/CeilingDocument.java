package org.streambench.model;

import java.util.List;
import java.util.Map;

/**
 * A ceiling's {@code ceiling.json}: the database's own load tool run with the processing operator's
 * statements on the suite's table and key space, what it reached, and the check in the database that
 * it wrote what it said. Written by {@code bench ceiling}, read by {@code bench report} and by runs
 * that put their throughput beside it.
 */
public record CeilingDocument(
        int schemaVersion,
        String database,
        String databaseVersion,
        Map<String, String> durability,
        String pattern,
        int blobBytes,
        long keys,
        int threads,
        String access,
        int durationSeconds,
        Tool tool,
        Result result,
        Verification verification,
        String status,
        String error,
        String startedAt,
        String commit)
        implements Versioned {

    public static final String FILE = "ceiling.json";
    /** 2: {@code access}, the operator's access mode the tool made (absent in 1: sync). */
    public static final int SCHEMA_VERSION = 2;

    /** The access mode, {@code sync} where a layout-1 file does not say. */
    public String accessMode() {
        return AccessModeName.orSync(access);
    }

    /** The tool: its name, version, command line (no password on it) and what differs from a pipeline's calls. */
    public record Tool(String name, String version, List<String> commandLine, String note) {}

    /** Operations (one record's worth each) per second, and their latencies in µs (null: the tool gives none). */
    public record Result(
            long operations,
            double seconds,
            double throughput,
            Double meanMicros,
            Long p50Micros,
            Long p99Micros,
            Long maxMicros) {}

    /**
     * The check afterwards: rows before and after against the inserts the tool counted, the sum of
     * int_1 over the prefilled keys against its updates (each adds 1), and the BLOB length of some rows
     * it wrote; {@code checked} false with why when the key space was too large to read back.
     */
    public record Verification(
            long rowsBefore,
            long rowsAfter,
            long inserts,
            long updates,
            Long int1Added,
            int blobsChecked,
            boolean ok,
            String detail) {}
}
