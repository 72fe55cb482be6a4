package org.streambench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.report.Fixtures.run;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run with a guarantee and a fault is a cell of its own, never averaged with the runs without,
 * and results.csv carries its guarantee, fault and the audit's counts.
 */
class GuaranteeReportTest {

    @Test
    void aRunWithAGuaranteeIsACellOfItsOwnAndTheCsvHasItsAudit(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "update", 100, 1, "ok", 1000, 200.0);
        run(dir, "flink", "postgresql", "update", 100, 2, "ok", 600, 200.0);
        withGuarantee(dir.resolve("flink/postgresql/update/100/rep-2"), ", \"fault\": \"fail-task@2000ms\"", 57);

        String html = Files.readString(Report.of(dir).write(), StandardCharsets.UTF_8);
        assertTrue(html.contains("sync, at-least-once every 500 ms, fail-task@2000ms"), html);
        assertTrue(html.contains("postgresql / flink 1,000"), "the study's table has the run without only: " + html);

        List<String> csv = Files.readAllLines(dir.resolve("report/results.csv"));
        List<String> header = List.of(csv.get(0).split(","));
        List<String> withGuarantee = row(csv, "flink/postgresql/update/100/rep-2,");
        assertEquals("at-least-once", withGuarantee.get(header.indexOf("guarantee")));
        assertEquals("500", withGuarantee.get(header.indexOf("checkpointIntervalMillis")));
        assertEquals("fail-task@2000ms", withGuarantee.get(header.indexOf("fault")));
        assertEquals("57", withGuarantee.get(header.indexOf("duplicates")));
        assertEquals("0", withGuarantee.get(header.indexOf("losses")));
        assertEquals("2.750", withGuarantee.get(header.indexOf("faultRecoverySeconds")));
        String section = html.substring(html.indexOf("<h2>Guarantees"));
        assertTrue(
                section.contains("<td class=\"bad\">57</td><td>0</td><td>2.8</td></tr>"),
                "back after the fault: " + section);
        List<String> without = row(csv, "flink/postgresql/update/100/rep-1,");
        assertEquals("none", without.get(header.indexOf("guarantee")));
        assertEquals("", without.get(header.indexOf("duplicates")));
    }

    @Test
    void theGuaranteesSectionSetsACellBesideTheSameCellWithoutAGuarantee(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "update", 100, 1, "ok", 1000, 200.0);
        run(dir, "flink", "postgresql", "update", 100, 2, "ok", 600, 200.0);
        run(dir, "spark", "postgresql", "update", 100, 1, "ok", 800, 200.0);
        withGuarantee(dir.resolve("flink/postgresql/update/100/rep-2"), "", 0);

        String html = Files.readString(Report.of(dir).write(), StandardCharsets.UTF_8);
        String section = html.substring(html.indexOf("<h2>Guarantees"));
        section = section.substring(0, section.indexOf("</table>"));
        assertTrue(
                section.contains("<td class=\"l\">sync, at-least-once every 500 ms</td><td>600</td><td>1,000</td>"
                        + "<td>0.60x</td>"),
                section);
        assertEquals(1, section.split("<tr><td").length - 1, "one row, of the one cell with a guarantee: " + section);
        assertTrue(!Guarantees.any(List.of()), "no section without guarantees");
        assertFalse(html.contains("guarantee-intervals.png"), "one interval draws no line: " + html);
    }

    @Test
    void aCellAtTwoCheckpointIntervalsIsDrawnAgainstTheInterval(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "update", 100, 1, "ok", 1000, 200.0);
        run(dir, "flink", "postgresql", "update", 100, 2, "ok", 600, 200.0);
        run(dir, "flink", "postgresql", "update", 100, 3, "ok", 900, 200.0);
        withGuarantee(dir.resolve("flink/postgresql/update/100/rep-2"), "", 0, 500);
        withGuarantee(dir.resolve("flink/postgresql/update/100/rep-3"), "", 0, 5000);

        Path index = Report.of(dir).write();
        String html = Files.readString(index, StandardCharsets.UTF_8);
        assertTrue(
                html.contains("<img alt=\"throughput against checkpoint interval\" src=\"guarantee-intervals.png\">"),
                html);
        assertTrue(Files.size(index.resolveSibling("guarantee-intervals.png")) > 1000);
    }

    private static List<String> row(List<String> csv, String prefix) {
        return List.of(csv.stream()
                .filter(line -> line.startsWith(prefix))
                .findFirst()
                .orElseThrow()
                .split(",", -1));
    }

    private static void withGuarantee(Path folder, String fault, long duplicates) throws Exception {
        withGuarantee(folder, fault, duplicates, 500);
    }

    private static void withGuarantee(Path folder, String fault, long duplicates, long intervalMillis)
            throws Exception {
        Path file = folder.resolve("result.json");
        String json = Files.readString(file)
                .strip()
                .replace(
                        "\"pattern\": \"update\",",
                        "\"pattern\": \"update\", \"guarantee\": \"at-least-once\", \"checkpointIntervalMillis\": "
                                + intervalMillis + fault + ",");
        assertTrue(json.contains("\"guarantee\""), "the fixture's spec has a pattern field: " + json);
        Files.writeString(
                file,
                "{\"recovery\": {\"engineSettings\": {}, \"restartedInstances\": 2, \"recordsProcessedAgain\": "
                        + duplicates + ", \"audit\": {\"keysAudited\": 1000, \"duplicates\": " + duplicates
                        + ", \"losses\": 0, \"unexplainedKeys\": 0,"
                        + " \"details\": []}"
                        + (fault.isEmpty()
                                ? ""
                                : ", \"fault\": {\"injectedAtEpochMillis\": 1764000003250, \"second\": 4,"
                                        + " \"recordsPerSecondBefore\": 1000.0, \"lowestRecordsPerSecond\": 12.0,"
                                        + " \"recoverySeconds\": 2.75}")
                        + "}, "
                        + json.substring(1));
    }
}
