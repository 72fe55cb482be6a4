package org.streambench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.report.Fixtures.run;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The steps of a fill are cells of their own, never averaged together, and the fill-level section
 * lists each step's throughput and end-to-end p99 against the rows stored before it, with a chart.
 */
class FillLevelReportTest {

    @Test
    void eachStepIsACellAndTheSectionDrawsTheCurveAgainstTheRowsStored(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "insert", 1000, 1, "ok", 3000, null);
        run(dir, "flink", "postgresql", "insert", 1000, 2, "ok", 2000, null);
        run(dir, "flink", "postgresql", "insert", 1000, 3, "ok", 1000, null);
        for (int step = 1; step <= 3; step++) {
            asStep(dir.resolve("flink/postgresql/insert/1000/rep-" + step), step, (step - 1) * 60_000L, step * 500);
        }

        Path index = Report.of(dir).write();
        String html = Files.readString(index, StandardCharsets.UTF_8);
        assertTrue(
                html.contains("postgresql / flink 3,000"),
                "the tables rank the first step, on an empty table, alone: " + html);
        String section = html.substring(html.indexOf("<h2>Fill level"));
        section = section.substring(0, section.indexOf("</table>"));
        assertTrue(
                section.contains("<td class=\"l\">flink x postgresql, 1000 B, sync</td><td>3</td><td>120,000</td>"
                        + "<td>1,000</td><td>1,500</td>"),
                section);
        assertEquals(3, section.split("<tr><td").length - 1, "a row per step: " + section);
        assertTrue(
                section.contains("src=\"fill-throughput.png\"") && section.contains("src=\"fill-p99.png\""), section);
        assertTrue(Files.size(index.resolveSibling("fill-throughput.png")) > 1000);
        assertTrue(html.contains("sync, fill step 2"), "the every-cell table has each step: " + html);
    }

    @Test
    void runsWithoutStepsHaveNoSection(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "insert", 1000, 1, "ok", 3000, null);
        String html = Files.readString(Report.of(dir).write(), StandardCharsets.UTF_8);
        assertFalse(html.contains("Fill level"), html);
    }

    private static void asStep(Path folder, int step, long rowsBefore, long p99) throws Exception {
        Path file = folder.resolve("result.json");
        String json = Files.readString(file).strip();
        Files.writeString(
                file,
                "{\"fill\": {\"step\": " + step + ", \"steps\": 3, \"rowsBefore\": " + rowsBefore + "},"
                        + " \"endToEndLatencyMicros\": {\"count\": 10, \"mean\": 1.0, \"stddev\": 1.0, \"p50\": 1,"
                        + " \"p95\": 1, \"p99\": " + p99 + ", \"p999\": 1, \"max\": 1}, "
                        + json.substring(1));
    }
}
