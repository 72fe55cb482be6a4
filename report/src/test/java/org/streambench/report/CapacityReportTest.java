package org.streambench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.report.Fixtures.run;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.model.CapacityDocument;
import org.streambench.model.CapacityJson;

/** Capacity searches: their own page, and their steps never counted as results of their own. */
class CapacityReportTest {

    @Test
    void aSearchIsShownWithItsStepsAndItsRunsAreNotRanked(@TempDir Path dir) throws Exception {
        Path search = dir.resolve("capacity-flink-postgresql");
        Files.createDirectories(search);
        Files.writeString(search.resolve(CapacityDocument.FILE), CapacityJson.write(document()));
        run(search, "flink", "postgresql", "update", 10000, 1, "ok", 1_234, null);
        run(dir, "spark", "postgresql", "update", 10000, 1, "ok", 900, null);

        assertEquals(
                List.of("spark"),
                Report.of(dir).runs().stream().map(RunRecord::engine).toList(),
                "a step of a search is not a result of its own");

        CapacityReport capacity = CapacityReport.of(dir);
        Path page = capacity.write(dir.resolve("report"));
        String html = Files.readString(page, StandardCharsets.UTF_8);
        assertTrue(
                html.contains("flink x postgresql, update, 10000 B, sync, bufferTimeoutMillis=100, p99 &lt;= 50.0 ms"),
                html);
        assertTrue(html.contains(">1,800<"), "the capacity at parallelism 1: " + html);
        assertTrue(html.contains("no rate met the objective"), "parallelism 2 found none: " + html);
        assertTrue(html.contains("p99 80.0 ms above the objective 50.0 ms"), "a failed step's reason: " + html);
        assertTrue(html.contains("Folder: capacity-flink-postgresql"), html);
        for (String image : List.of("capacity-by-parallelism.png", "capacity-p99-0.png")) {
            assertTrue(Files.size(dir.resolve("report").resolve(image)) > 1_000, image);
        }
    }

    private static CapacityDocument document() {
        CapacityDocument.Step pass = new CapacityDocument.Step(
                1_800, 1_799, 3_000L, 20_000L, 30_000L, false, null, true, "p99 20.0 ms within 50.0 ms", "p1/step-1");
        CapacityDocument.Step fail = new CapacityDocument.Step(
                1_900,
                1_899,
                9_000L,
                80_000L,
                90_000L,
                false,
                null,
                false,
                "p99 80.0 ms above the objective 50.0 ms",
                "p1/step-2");
        CapacityDocument.Step none = new CapacityDocument.Step(
                900,
                700,
                null,
                null,
                null,
                true,
                null,
                false,
                "processed 700/s, below 99 % of the target",
                "p2/step-1");
        return new CapacityDocument(
                CapacityDocument.SCHEMA_VERSION,
                "flink",
                "postgresql",
                "update",
                10000,
                "sync",
                Map.of("bufferTimeoutMillis", "100"),
                new CapacityDocument.Objective(50_000, 0.99, "end-to-end p99 <= 50.0 ms"),
                new CapacityDocument.Bounds(8, 1800, 0.05),
                List.of(
                        new CapacityDocument.Search(
                                1,
                                2_000,
                                "p1/probe",
                                1_800.0,
                                "the highest pass and the lowest failure" + " within 5 %",
                                120,
                                List.of(pass, fail)),
                        new CapacityDocument.Search(
                                2, 1_000, "p2/probe", null, "the most steps, 1", 40, List.of(none))),
                "2026-11-25T22:00:00Z",
                "abc1234");
    }
}
