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

/** A run measured beside its database's own tool (bench run --ceiling) shows its share of that ceiling. */
class CeilingReportTest {

    @Test
    void aCellShowsItsShareOfTheCeilingAndTheCsvTheToolsNumbers(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "update", 100, 1, "ok", 1000, 200.0);
        run(dir, "flink", "postgresql", "update", 100, 2, "ok", 1200, 200.0);
        run(dir, "spark", "postgresql", "update", 100, 1, "ok", 900, 200.0);
        withCeiling(dir.resolve("flink/postgresql/update/100/rep-1"), 1250, 0.8);
        withCeiling(dir.resolve("flink/postgresql/update/100/rep-2"), 1200, 1.0);

        String html = Files.readString(Report.of(dir).write(), StandardCharsets.UTF_8);
        assertTrue(html.contains("<th>of the ceiling</th>"), html);
        assertTrue(html.contains("<td>0.90 (pgbench)</td>"), "the mean of the cell's two ratios: " + html);

        List<String> csv = Files.readAllLines(dir.resolve("report/results.csv"));
        List<String> header = List.of(csv.get(0).split(","));
        String flinkFirst = csv.stream()
                .filter(line -> line.startsWith("flink/postgresql/update/100/rep-1,"))
                .findFirst()
                .orElseThrow();
        List<String> row = List.of(flinkFirst.split(",", -1));
        assertEquals("pgbench", row.get(header.indexOf("ceilingTool")));
        assertEquals(1250.0, Double.parseDouble(row.get(header.indexOf("ceilingThroughput"))), 1e-9);
        assertEquals(0.8, Double.parseDouble(row.get(header.indexOf("ceilingRatio"))), 1e-9);
        String spark = csv.stream()
                .filter(line -> line.startsWith("spark/"))
                .findFirst()
                .orElseThrow();
        assertEquals("", List.of(spark.split(",", -1)).get(header.indexOf("ceilingRatio")), "no ceiling, no ratio");
    }

    @Test
    void withoutACeilingTheTableHasNoSuchColumn(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "update", 100, 1, "ok", 1000, 200.0);
        String html = Files.readString(Report.of(dir).write(), StandardCharsets.UTF_8);
        assertFalse(html.contains("of the ceiling"), html);
    }

    private static void withCeiling(Path folder, double throughput, double ratio) throws Exception {
        Path file = folder.resolve("result.json");
        String json = Files.readString(file).strip();
        Files.writeString(
                file,
                "{\"ceiling\": {\"tool\": \"pgbench\", \"threads\": 1, \"throughput\": " + throughput + ", \"ratio\": "
                        + ratio + ", \"status\": \"ok\", \"error\": null, \"folder\": \"ceiling\"}, "
                        + json.substring(1));
    }
}
