package org.streambench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.report.Fixtures.run;
import static org.streambench.report.Fixtures.withResources;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two runs of a small matrix compared, against the answer worked out by hand. */
class ComparisonTest {

    @Test
    void theTwoMachinesLimitsStandSideBySide(@TempDir Path first, @TempDir Path second) throws Exception {
        run(first, "flink", "postgresql", "update", 1, 1, "ok", 1000, 100.0);
        run(second, "flink", "postgresql", "update", 1, 1, "ok", 100, 100.0);
        Fixtures.calibrated(first.resolve("flink/postgresql/update/1/rep-1"), 9000, 15);
        assertEquals(
                null,
                Comparison.of(Report.of(first), Report.of(second)).machines(),
                "the other side was not calibrated");
        Fixtures.calibrated(second.resolve("flink/postgresql/update/1/rep-1"), 300, 30);
        Comparison comparison = Comparison.of(Report.of(first), Report.of(second));
        assertEquals(
                "synced 8 KB writes/s 9,000 / 300 (30.00x), one core sorts 15.0 / 30.0 M longs/s (0.50x)",
                comparison.machines());
        assertTrue(comparison.summary().endsWith("; machines (this / other): " + comparison.machines()));
    }

    @Test
    void ratiosSameWinnersAndCorrelationsOfTwoRuns(@TempDir Path first, @TempDir Path second) throws Exception {
        // update, 1 B        first run (thr, lat)   second run
        //   flink postgresql  1000, 100              500, 50
        //   spark postgresql   800, 120              400, 60
        //   flink mariadb      600, 200              400, 100    <- flink fastest here, spark there
        //   spark mariadb      700, 210              350, 105
        //   flink cassandra    300, 300              100, 150
        //   spark cassandra    200, 310               50, 155
        Object[][] cells = {
            {"flink", "postgresql", 1000, 100.0, 500, 50.0},
            {"spark", "postgresql", 800, 120.0, 400, 60.0},
            {"flink", "mariadb", 600, 200.0, 400, 100.0},
            {"spark", "mariadb", 700, 210.0, 350, 105.0},
            {"flink", "cassandra", 300, 300.0, 100, 150.0},
            {"spark", "cassandra", 200, 310.0, 50, 155.0}
        };
        for (Object[] c : cells) {
            run(first, (String) c[0], (String) c[1], "update", 1, 1, "ok", (Integer) c[2], (Double) c[3]);
            run(second, (String) c[0], (String) c[1], "update", 1, 1, "ok", (Integer) c[4], (Double) c[5]);
        }
        Comparison comparison = Comparison.of(Report.of(first), Report.of(second));
        assertEquals(null, comparison.machines(), "neither side calibrated");

        assertEquals(6, comparison.pairs().size());
        // ratios 2, 2, 1.5, 2, 3, 4: sorted 1.5 2 2 2 3 4, median (2 + 2) / 2
        double[] ratios = comparison.throughputRatios();
        assertEquals(2.0, ratios[0], 1e-12);
        assertEquals(1.5, ratios[1], 1e-12);
        assertEquals(4.0, ratios[2], 1e-12);
        assertEquals(Map.of("flink", 2.0, "spark", 2.0), comparison.medianThroughputRatioBy(Cell.Key::engine));
        assertEquals(2.0, comparison.medianLatencyRatio(), 1e-12, "every latency doubled");
        assertEquals(new Comparison.Agreement(2, 3), comparison.fastestEngine(), "mariadb's fastest changed");
        assertEquals(new Comparison.Agreement(1, 1), comparison.bestDatabaseByThroughput());
        assertEquals(new Comparison.Agreement(1, 1), comparison.bestDatabaseByLatency());
        // database order by throughput: postgresql, mariadb, cassandra in both: 1.0
        assertEquals(1.0, comparison.databaseOrderCorrelation(true), 1e-12);
        // Table 1 points (flink, spark) x (pg, maria, cassandra): first 1 0 1 / 0 1 0, second 1 1 1 / 0 0 0:
        // ranks first (5, 2, 5, 2, 5, 2), second (5, 5, 5, 2, 2, 2): Spearman 1/3
        assertEquals(1.0 / 3, comparison.pointsCorrelation(1), 1e-12);

        Path out = first.resolve("report");
        String html = Files.readString(
                Report.of(first).write(out, Report.of(second), "the second run"), StandardCharsets.UTF_8);
        assertTrue(html.contains("Compared with the second run"), "a section of the report");
        List<String> csv = Files.readAllLines(out.resolve("comparison.csv"));
        assertEquals(7, csv.size(), "a header and a row per cell");
        assertTrue(
                csv.contains("flink,mariadb,update,1,600.0000,400.0000,1.5000,200.0000,100.0000,2.0000,,,,"),
                csv.toString());
    }

    @Test
    void whatARecordCostIsComparedWhereBothSidesRecordedIt(@TempDir Path first, @TempDir Path second) throws Exception {
        // flink: database CPU-s per 1M 100 here, 200 there (engine 250 and runner 10 on both sides),
        // exporters' machines 600 here, 300 there; spark: database 300 here, 200 there, no exporters;
        // mariadb: no resources here
        run(first, "flink", "postgresql", "update", 1, 1, "ok", 1000, 100.0);
        run(second, "flink", "postgresql", "update", 1, 1, "ok", 500, 100.0);
        run(first, "spark", "postgresql", "update", 1, 1, "ok", 1000, 100.0);
        run(second, "spark", "postgresql", "update", 1, 1, "ok", 500, 100.0);
        run(first, "flink", "mariadb", "update", 1, 1, "ok", 1000, 100.0);
        run(second, "flink", "mariadb", "update", 1, 1, "ok", 500, 100.0);
        withResources(first.resolve("flink/postgresql/update/1/rep-1"), 100.0, 1000L, 600.0, 10.0);
        withResources(second.resolve("flink/postgresql/update/1/rep-1"), 200.0, 1000L, 300.0, 10.0);
        withResources(first.resolve("spark/postgresql/update/1/rep-1"), 300.0, 1000L);
        withResources(second.resolve("spark/postgresql/update/1/rep-1"), 200.0, 1000L);
        withResources(second.resolve("flink/mariadb/update/1/rep-1"), 200.0, 1000L);

        Comparison comparison = Comparison.of(Report.of(first), Report.of(second));
        // database ratios 0.5 (flink) and 1.5 (spark): median 1.0; the exporters' only in flink's cell: 2.0
        assertEquals(
                Map.of("database", 1.0, "engine", 1.0, "runner", 1.0, "exporters' machines", 2.0),
                comparison.medianCpuRatios());
        assertTrue(
                comparison
                        .summary()
                        .endsWith("; CPU-s per record ratio median database 1.00, engine 1.00, runner"
                                + " 1.00, exporters' machines 2.00"),
                comparison.summary());

        Path out = first.resolve("report");
        String html = Files.readString(
                Report.of(first).write(out, Report.of(second), "the second run"), StandardCharsets.UTF_8);
        assertTrue(
                html.contains("database 1.00, engine 1.00, runner 1.00, exporters' machines 2.00"),
                "the comparison's section says it");
        List<String> csv = Files.readAllLines(out.resolve("comparison.csv"));
        assertTrue(
                csv.get(0).endsWith(",databaseCpuRatio,engineCpuRatio,runnerCpuRatio,exportersMachinesCpuRatio"),
                csv.get(0));
        assertTrue(
                csv.contains("flink,postgresql,update,1,1000.0000,500.0000,2.0000,100.0000,100.0000,1.0000,"
                        + "0.5000,1.0000,1.0000,2.0000"),
                csv.toString());
        assertTrue(
                csv.contains("flink,mariadb,update,1,1000.0000,500.0000,2.0000,100.0000,100.0000,1.0000,,,,"),
                "no resources on this side: " + csv);
    }

    @Test
    void withoutResourcesOnBothSidesTheCostsAreNotCompared(@TempDir Path first, @TempDir Path second) throws Exception {
        run(first, "flink", "postgresql", "update", 1, 1, "ok", 1000, 100.0);
        run(second, "flink", "postgresql", "update", 1, 1, "ok", 500, 100.0);
        withResources(first.resolve("flink/postgresql/update/1/rep-1"), 100.0, 1000L);
        Comparison comparison = Comparison.of(Report.of(first), Report.of(second));
        assertEquals(Map.of(), comparison.medianCpuRatios());
        assertFalse(comparison.summary().contains("CPU-s"), comparison.summary());
    }
}
