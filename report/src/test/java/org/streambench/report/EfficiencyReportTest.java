package org.streambench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.report.Fixtures.run;
import static org.streambench.report.Fixtures.withResources;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What each record cost: a row per cell with resources (means over its runs), and results.csv's columns. */
class EfficiencyReportTest {

    @Test
    void aCellWithResourcesHasItsCostPerRecordAndACellWithoutHasNoRow(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "update", 1, 1, "ok", 1000, 200.0);
        run(dir, "flink", "postgresql", "update", 1, 2, "ok", 1000, 200.0);
        run(dir, "spark", "postgresql", "update", 1, 1, "ok", 800, 200.0);
        withResources(dir.resolve("flink/postgresql/update/1/rep-1"), 100.0, 8_000_000L);
        withResources(dir.resolve("flink/postgresql/update/1/rep-2"), 140.0, 10_000_000L);

        String html = Files.readString(Report.of(dir).write(), StandardCharsets.UTF_8);
        String section = html.substring(html.indexOf("<h2>Efficiency"));
        section = section.substring(0, section.indexOf("</table>"));
        // means of the two runs: database 120 CPU-s per 1M, 9,000 device bytes per record of 49 payload bytes
        assertTrue(
                section.contains("<td>1,000</td><td>120.0</td><td>250.0</td><td>10.0</td><td>9,000</td><td>183.7</td>"),
                section);
        assertFalse(section.contains("<td class=\"l\">spark</td>"), "spark's runs recorded nothing: " + section);

        Map<String, String> first = csvRow(dir, "flink/postgresql/update/1/rep-1");
        assertEquals("100.000", first.get("databaseCpuSecondsPerMillionRecords"));
        assertEquals("8000.000", first.get("deviceWriteBytesPerRecord"));
        assertEquals("163.265", first.get("writeAmplification"));
    }

    @Test
    void eachCellStandsAgainstItsMachinesSyncedWrites(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "update", 1, 1, "ok", 1000, 200.0);
        run(dir, "flink", "postgresql", "update", 1, 2, "ok", 1000, 200.0);
        withResources(dir.resolve("flink/postgresql/update/1/rep-1"), 100.0, 8_000_000L);
        Fixtures.calibrated(dir.resolve("flink/postgresql/update/1/rep-1"), 4000, 15);
        Fixtures.calibrated(dir.resolve("flink/postgresql/update/1/rep-2"), 1000, 15);

        String html = Files.readString(Report.of(dir).write(), StandardCharsets.UTF_8);
        String section = html.substring(html.indexOf("<h2>Efficiency"));
        section = section.substring(0, section.indexOf("</table>"));
        // 1,000 records/s per 4,000 and per 1,000 synced writes/s: 0.25 and 1, mean 0.625
        assertTrue(section.contains("<td>163.3</td><td>0.63</td></tr>"), section);
        assertTrue(
                html.contains(
                        "1,000 synced 8 KB writes/s (p99 300 µs), 800 MB/s sequential write, one core sorts 15.0 M"
                                + " longs/s (vda, measured 2026-11-29)"),
                "the machines' limits in the header: " + html.substring(0, html.indexOf("</table>")));

        Map<String, String> first = csvRow(dir, "flink/postgresql/update/1/rep-1");
        assertEquals("4000.000", first.get("machineSyncedWritesPerSecond"));
        assertEquals("0.250", first.get("recordsPerSyncedWrite"));
    }

    @Test
    void anExternalServersMachineSeenThroughItsNodeExporterHasItsOwnColumns(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "update", 1, 1, "ok", 1000, 200.0);
        run(dir, "flink", "postgresql", "update", 1, 2, "ok", 1000, 200.0);
        run(dir, "spark", "postgresql", "update", 1, 1, "ok", 800, 200.0);
        withResources(dir.resolve("flink/postgresql/update/1/rep-1"), 100.0, 8_000_000L, 480.0, 8_800.0);
        withResources(dir.resolve("flink/postgresql/update/1/rep-2"), 140.0, 10_000_000L, 520.0, 9_200.0);
        withResources(dir.resolve("spark/postgresql/update/1/rep-1"), 100.0, 8_000_000L);

        String html = Files.readString(Report.of(dir).write(), StandardCharsets.UTF_8);
        String section = html.substring(html.indexOf("<h2>Efficiency"));
        section = section.substring(0, section.indexOf("</table>"));
        assertTrue(section.contains("<th>exporters' machines CPU-s / 1M</th>"), section);
        // means of the two runs: 500 busy CPU-s per 1M records, 9,000 disk bytes per record
        assertTrue(section.contains("<td>183.7</td><td></td><td>500.0</td><td>9,000</td></tr>"), section);
        assertTrue(section.contains("<td>163.3</td><td></td><td></td><td></td></tr>"), "spark's read none: " + section);

        Map<String, String> first = csvRow(dir, "flink/postgresql/update/1/rep-1");
        assertEquals("480.000", first.get("exportersBusyCpuSecondsPerMillionRecords"));
        assertEquals("8800.000", first.get("exportersDiskWriteBytesPerRecord"));
        assertEquals(
                "", csvRow(dir, "spark/postgresql/update/1/rep-1").get("exportersBusyCpuSecondsPerMillionRecords"));
    }

    /** A run that fell behind its target spent more per record catching up: its cell's throughput says so. */
    @Test
    void aCellWithARunBehindItsTargetRateIsMarkedAndOneThatKeptItsRateIsNot(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "update", 1, 1, "ok", 1000, 200.0);
        run(dir, "flink", "postgresql", "update", 1, 2, "ok", 1000, 200.0);
        run(dir, "spark", "postgresql", "update", 1, 1, "ok", 800, 200.0);
        for (String folder : List.of(
                "flink/postgresql/update/1/rep-1",
                "flink/postgresql/update/1/rep-2",
                "spark/postgresql/update/1/rep-1")) {
            withResources(dir.resolve(folder), 100.0, 8_000_000L);
        }
        withRate(dir.resolve("flink/postgresql/update/1/rep-1"), false);
        withRate(dir.resolve("flink/postgresql/update/1/rep-2"), true);
        withRate(dir.resolve("spark/postgresql/update/1/rep-1"), false);

        String html = Files.readString(Report.of(dir).write(), StandardCharsets.UTF_8);
        String section = html.substring(html.indexOf("<h2>Efficiency"));
        section = section.substring(0, section.indexOf("</table>"));
        assertTrue(section.contains("<td>1,000 <b>behind</b></td>"), section);
        assertTrue(section.contains("<td>800</td>"), "spark kept its rate: " + section);
        assertEquals("true", csvRow(dir, "flink/postgresql/update/1/rep-2").get("behindTargetRate"));
        assertEquals("false", csvRow(dir, "flink/postgresql/update/1/rep-1").get("behindTargetRate"));
    }

    /** Gives the run in {@code folder} a target rate of 1,000 records/s, kept or not. */
    private static void withRate(Path folder, boolean behind) throws Exception {
        Path file = folder.resolve("result.json");
        String json = Files.readString(file);
        String rate = String.format(
                java.util.Locale.ROOT,
                "\"rate\": {\"target\": 1000.0, \"unit\": \"records/s\", \"generated\": %s, \"processed\": %s,"
                        + " \"behind\": %s}, \"status\":",
                behind ? "700.0" : "1000.0",
                behind ? "690.0" : "1000.0",
                behind);
        Files.writeString(file, json.replaceFirst("\"status\":", rate));
    }

    @Test
    void runsWithoutExportersHaveNoExporterColumns(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "update", 1, 1, "ok", 1000, 200.0);
        withResources(dir.resolve("flink/postgresql/update/1/rep-1"), 100.0, 8_000_000L);
        String html = Files.readString(Report.of(dir).write(), StandardCharsets.UTF_8);
        assertTrue(html.contains("<h2>Efficiency"), html);
        assertFalse(html.contains("exporters' machines"), html);
    }

    @Test
    void runsWithoutResourcesHaveNoSection(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "update", 1, 1, "ok", 1000, 200.0);
        String html = Files.readString(Report.of(dir).write(), StandardCharsets.UTF_8);
        assertFalse(html.contains("<h2>Efficiency"), html);
    }

    /** The row of results.csv for the run in {@code folder}, by column name. */
    private static Map<String, String> csvRow(Path dir, String folder) throws Exception {
        List<String> csv = Files.readAllLines(dir.resolve("report/results.csv"));
        String[] header = csv.get(0).split(",");
        String[] row = csv.stream()
                .filter(line -> line.startsWith(folder + ","))
                .findFirst()
                .orElseThrow()
                .split(",", -1);
        Map<String, String> byName = new LinkedHashMap<>();
        for (int i = 0; i < header.length; i++) {
            byName.put(header[i], row[i]);
        }
        return byName;
    }
}
