package org.streambench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.report.Fixtures.run;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Tables 1-4 on fixed result files, against tables computed by hand. */
class ScoresTest {

    @Test
    void oneRepetitionScoresTheBestAndGivesEachTiedEngineAPoint(@TempDir Path dir) throws Exception {
        // update, 100 B:   throughput        read latency (us)
        //   flink  pg      1000               200
        //   spark  pg      1000 (tie)         300
        //   flink  maria    500               100
        //   spark  maria    800               100 (tie)
        run(dir, "flink", "postgresql", "update", 100, 1, "ok", 1000, 200.0);
        run(dir, "spark", "postgresql", "update", 100, 1, "ok", 1000, 300.0);
        run(dir, "flink", "mariadb", "update", 100, 1, "ok", 500, 100.0);
        run(dir, "spark", "mariadb", "update", 100, 1, "ok", 800, 100.0);
        Scores scores = Report.of(dir).scores();

        Scores.Points table1 = scores.table1();
        assertEquals(
                Map.of("postgresql", 1, "mariadb", 0),
                table1.byEngineAndDatabase().get("flink"));
        assertEquals(
                Map.of("postgresql", 1, "mariadb", 1),
                table1.byEngineAndDatabase().get("spark"));
        assertEquals(2, table1.scored());
        assertEquals(1, table1.total("flink"));
        assertEquals(2, table1.total("spark"));

        Scores.Points table2 = scores.table2();
        assertEquals(
                Map.of("postgresql", 1, "mariadb", 1),
                table2.byEngineAndDatabase().get("flink"));
        assertEquals(
                Map.of("postgresql", 0, "mariadb", 1),
                table2.byEngineAndDatabase().get("spark"));

        List<Scores.Ranked> table3 = scores.table3().get(new Scores.PatternBlob("update", 100));
        assertEquals(
                List.of(
                        "postgresql/flink 1 1000",
                        "postgresql/spark 1 1000 tie",
                        "mariadb/spark 3 800",
                        "mariadb/flink 4 500"),
                table3.stream().map(ScoresTest::describe).toList());

        List<Scores.Ranked> table4 = scores.table4().get(new Scores.PatternBlob("update", 100));
        assertEquals(
                List.of("mariadb/flink 1 100", "postgresql/flink 2 200"),
                table4.stream().map(ScoresTest::describe).toList(),
                "each database with its best engine's latency");
    }

    @Test
    void withRepetitionsOverlappingIntervalsTieAndSeparateOnesDoNot(@TempDir Path dir) throws Exception {
        // read, 1 B. flink 1000, 1100 (mean 1050, half-CI 12.706 * 70.71 / 1.414 = 635); spark 1040, 1060 (mean 1050
        // ...)
        run(dir, "flink", "cassandra", "read", 1, 1, "ok", 1000, 50.0);
        run(dir, "flink", "cassandra", "read", 1, 2, "ok", 1100, 52.0);
        run(dir, "spark", "cassandra", "read", 1, 1, "ok", 1040, 80.0);
        run(dir, "spark", "cassandra", "read", 1, 2, "ok", 1061, 80.5);
        // hbase: flink 1000, 1002 (half 12.7); spark 2000, 2002: no overlap, spark alone
        run(dir, "flink", "hbase", "read", 1, 1, "ok", 1000, 90.0);
        run(dir, "flink", "hbase", "read", 1, 2, "ok", 1002, 90.0);
        run(dir, "spark", "hbase", "read", 1, 1, "ok", 2000, 70.0);
        run(dir, "spark", "hbase", "read", 1, 2, "ok", 2002, 70.0);
        Scores scores = Report.of(dir).scores();
        Scores.Points table1 = scores.table1();
        assertEquals(
                Map.of("cassandra", 1, "hbase", 0), table1.byEngineAndDatabase().get("flink"));
        assertEquals(
                Map.of("cassandra", 1, "hbase", 1), table1.byEngineAndDatabase().get("spark"));
        // latency: cassandra flink 51 +- 12.706*1.414/1.414 = 12.7 vs spark 80.25 +- 3.2: apart, flink alone
        Scores.Points table2 = scores.table2();
        assertEquals(
                Map.of("cassandra", 1, "hbase", 0), table2.byEngineAndDatabase().get("flink"));
        assertEquals(
                Map.of("cassandra", 0, "hbase", 1), table2.byEngineAndDatabase().get("spark"));
        Scores.Ranked top =
                scores.table3().get(new Scores.PatternBlob("read", 1)).get(0);
        assertEquals("hbase/spark 1 2001", describe(top));
        assertEquals(12.706, top.half(), 0.01);
    }

    @Test
    void aFailedCellIsNotScoredAndItsVariantIsCountedAsSkipped(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "insert", 1, 1, "ok", 900, null);
        run(dir, "spark", "postgresql", "insert", 1, 1, "failed", 5000, null);
        run(dir, "flink", "cassandra", "insert", 1, 1, "ok", 700, null);
        run(dir, "spark", "cassandra", "insert", 1, 1, "ok", 600, null);
        Scores scores = Report.of(dir).scores();
        Scores.Points table1 = scores.table1();
        assertEquals(1, table1.scored());
        assertEquals(1, table1.skipped(), "postgresql insert has one engine that ran");
        assertEquals(
                0,
                table1.byEngineAndDatabase().get("spark").get("postgresql"),
                "a failed run's throughput never counts");
        List<Scores.Ranked> table3 = scores.table3().get(new Scores.PatternBlob("insert", 1));
        assertEquals(
                List.of("postgresql/flink 1 900", "cassandra/flink 2 700", "cassandra/spark 3 600"),
                table3.stream().map(ScoresTest::describe).toList());
        assertTrue(scores.table4().isEmpty(), "insert has no read latency");
    }

    /** An emulator's runs are shown but never ranked, unless asked: they say nothing about the database. */
    @Test
    void anEmulatorNeverTakesAPlaceUnlessAskedTo(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "insert", 1, 1, "ok", 500, null);
        run(dir, "spark", "postgresql", "insert", 1, 1, "ok", 400, null);
        run(dir, "flink", "mongodb", "insert", 1, 1, "ok", 700, null, "MONGODB EMULATOR: not MongoDB", "default");
        run(dir, "spark", "mongodb", "insert", 1, 1, "ok", 600, null, "MONGODB EMULATOR: not MongoDB", "default");

        Report report = Report.of(dir);
        assertEquals(List.of("mongodb"), report.unranked());
        List<Scores.Ranked> table3 = report.scores().table3().get(new Scores.PatternBlob("insert", 1));
        assertEquals(
                List.of("postgresql/flink 1 500", "postgresql/spark 2 400"),
                table3.stream().map(ScoresTest::describe).toList());
        assertFalse(report.scores().table1().byEngineAndDatabase().get("flink").containsKey("mongodb"));
        assertTrue(report.rankingSummary().contains("not ranked (emulator): mongodb"), report.rankingSummary());
        String html = Files.readString(report.write(), StandardCharsets.UTF_8);
        assertTrue(html.contains("Not ranked: mongodb, measured against an emulator"), "said under the tables");
        assertTrue(html.contains("mongodb"), "still in the figures and every cell");

        Report ranked = Report.of(dir, Report.Order.ALPHABETICAL, new Report.Options(true));
        assertEquals(List.of(), ranked.unranked());
        List<Scores.Ranked> withEmulator = ranked.scores().table3().get(new Scores.PatternBlob("insert", 1));
        assertEquals("mongodb/flink 1 700", describe(withEmulator.get(0)));
        assertTrue(withEmulator.get(0).emulated(), "marked when ranked");
    }

    /** A database the study did not measure (an in-memory grid) is in the figures and every cell, never in Tables 1-4. */
    @Test
    void aDatabaseBeyondTheStudyNeverTakesAPlaceInItsTables(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "update", 10_000, 1, "ok", 2_000, null);
        run(dir, "spark", "postgresql", "update", 10_000, 1, "ok", 1_500, null);
        run(dir, "flink", "redis", "update", 10_000, 1, "ok", 6_000, null);
        run(dir, "spark", "redis", "update", 10_000, 1, "ok", 4_000, null);

        Report report = Report.of(
                dir,
                new Report.Order(List.of(), List.of("postgresql", "redis"), List.of("redis")),
                Report.Options.DEFAULT);
        assertEquals(List.of("redis"), report.beyondStudy());
        assertEquals(
                List.of("postgresql/flink 1 2000", "postgresql/spark 2 1500"),
                report.scores().table3().get(new Scores.PatternBlob("update", 10_000)).stream()
                        .map(ScoresTest::describe)
                        .toList());
        assertFalse(report.scores().table1().byEngineAndDatabase().get("flink").containsKey("redis"));
        String html = Files.readString(report.write(), StandardCharsets.UTF_8);
        assertTrue(html.contains("Not in the study, so not in these tables: redis"), "said under the tables");
        assertTrue(html.contains("<th>postgresql</th><th>total</th>"), "the points table has no redis column");
        assertTrue(html.contains("6000") || html.contains("6,000"), "redis's runs are still under Every cell");
    }

    @Test
    void theStudysOwnTablesAreCarriedWithTheProject() {
        StudyReference study = StudyReference.load();
        assertEquals(
                46,
                study.scores().get(1).get("flink").values().stream()
                        .mapToInt(Integer::intValue)
                        .sum());
        assertEquals(
                64,
                study.scores().get(1).values().stream()
                        .flatMap(m -> m.values().stream())
                        .mapToInt(Integer::intValue)
                        .sum(),
                "Table 1 has 64 points for 60 variants (four ties)");
        assertEquals("cassandra", study.entry(3, "read", 1, 1).database());
        assertEquals(97300, study.entry(3, "read", 1, 1).value());
        assertEquals("postgresql", study.entry(4, "read", 1, 1).database());
        assertEquals("", study.entry(4, "read", 1, 1).engine());
    }

    private static String describe(Scores.Ranked r) {
        return r.database() + "/" + r.engine() + " " + r.rank() + " " + Math.round(r.value())
                + (r.tiedWithAbove() ? " tie" : "");
    }

    @Test
    void theRankCorrelationIsSpearmansWithTiedValuesSharingTheirMeanRank() {
        assertEquals(1.0, Scores.rankCorrelation(new double[] {1, 5, 9}, new double[] {10, 20, 30}), 1e-12);
        assertEquals(-1.0, Scores.rankCorrelation(new double[] {1, 5, 9}, new double[] {3, 2, 1}), 1e-12);
        // ranks (1.5, 1.5, 3, 4) against (1, 2, 3, 4): covariance 4.5, variances 4.5 and 5: sqrt(0.9)
        assertEquals(
                Math.sqrt(0.9), Scores.rankCorrelation(new double[] {4, 4, 7, 9}, new double[] {1, 2, 3, 4}), 1e-12);
        assertTrue(Double.isNaN(Scores.rankCorrelation(new double[] {2, 2, 2}, new double[] {1, 2, 3})));
    }

    @Test
    void thePointsAreCorrelatedWithTheStudysOverThePairsBothScore() {
        Scores.Points ours = new Scores.Points(
                Map.of(
                        "flink", Map.of("postgresql", 3, "mariadb", 0),
                        "spark", Map.of("postgresql", 1, "mariadb", 2)),
                6,
                0,
                6,
                0);
        // pairs (ours, study's): (3, 9) (0, 1) (1, 2) (2, 5): the same order, cassandra has no points of ours
        Map<String, Map<String, Integer>> study = Map.of(
                "flink", Map.of("postgresql", 9, "mariadb", 1, "cassandra", 7),
                "spark", Map.of("postgresql", 2, "mariadb", 5));
        assertEquals(1.0, Scores.pointsCorrelation(ours, study), 1e-12);
        // the study's flink/mariadb 1 -> 6: ranks (4, 1, 2, 3) against (4, 3, 1, 2): 1 - 6 * (0 + 4 + 1 + 1) / 60 = 0.4
        Map<String, Map<String, Integer>> otherStudy = Map.of(
                "flink", Map.of("postgresql", 9, "mariadb", 6),
                "spark", Map.of("postgresql", 2, "mariadb", 5));
        assertEquals(0.4, Scores.pointsCorrelation(ours, otherStudy), 1e-12);
        assertTrue(Double.isNaN(Scores.pointsCorrelation(ours, Map.of("flink", Map.of("postgresql", 1)))));
    }

    @Test
    void aDatabaseIsPlacedByItsBestEntryAndTiedDatabasesShareAPlace() {
        List<Scores.Ranked> ranked = List.of(
                ranked(1, "postgresql", "flink", false),
                ranked(1, "mariadb", "spark", true),
                ranked(3, "postgresql", "spark", false),
                ranked(4, "hbase", "flink", false),
                ranked(5, "mariadb", "flink", false));
        assertEquals(1, Scores.databasePlace(ranked, "postgresql"));
        assertEquals(1, Scores.databasePlace(ranked, "mariadb"));
        assertEquals(3, Scores.databasePlace(ranked, "hbase"), "after two databases, whatever their other entries");
        assertEquals(0, Scores.databasePlace(ranked, "cassandra"));
    }

    @Test
    void theReportSaysWhereTheStudysWinnerPlacesHere(@TempDir Path dir) throws Exception {
        // read, 1 B: the study's best are cassandra (throughput) and postgresql (latency)
        run(dir, "flink", "postgresql", "read", 1, 1, "ok", 2000, 300.0);
        run(dir, "spark", "postgresql", "read", 1, 1, "ok", 1500, 350.0);
        run(dir, "flink", "cassandra", "read", 1, 1, "ok", 1000, 100.0);
        run(dir, "spark", "cassandra", "read", 1, 1, "ok", 900, 120.0);

        String html = Files.readString(Report.of(dir).write(), StandardCharsets.UTF_8);

        assertTrue(html.contains("no: cassandra places 2 of 2"), html);
        assertTrue(html.contains("no: postgresql places 2 of 2"), html);
        assertTrue(html.contains("its mean place among the databases here is 2.0"), html);
        assertTrue(
                html.contains("Rank correlation with the study's points over the engine x database pairs (Spearman): "),
                html);
    }

    private static Scores.Ranked ranked(int rank, String database, String engine, boolean tied) {
        return new Scores.Ranked(rank, database, engine, 1000.0 / rank, 0, tied, false);
    }
}
