package org.streambench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.report.Fixtures.run;

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
        run(dir, "flink", "mongodb", "insert", 1, 1, "ok", 700, null, "emulator", "default");
        run(dir, "spark", "mongodb", "insert", 1, 1, "ok", 600, null, "emulator", "default");
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
                List.of("postgresql/flink 1 900", "mongodb/flink 2 700", "mongodb/spark 3 600"),
                table3.stream().map(ScoresTest::describe).toList());
        assertTrue(table3.get(1).emulated());
        assertFalse(table3.get(0).emulated());
        assertTrue(scores.table4().isEmpty(), "insert has no read latency");
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
}
