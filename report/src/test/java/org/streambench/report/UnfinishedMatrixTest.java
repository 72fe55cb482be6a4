package org.streambench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.report.Fixtures.run;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.model.MatrixJournal;

/** A report of a matrix whose journal plans more experiments than have results says so, cell by cell. */
class UnfinishedMatrixTest {

    @Test
    void plannedExperimentsWithoutAResultAreCountedAndListed(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "insert", 1, 1, "ok", 1000, null);
        run(dir, "spark", "postgresql", "insert", 1, 1, "ok", 900, null);
        journal(
                dir,
                cell("flink", "postgresql", "insert", "ok", null),
                cell("spark", "postgresql", "insert", "ok", null),
                cell("apex", "postgresql", "insert", "failed", "\"the job died\""),
                cell("flink", "mariadb", "insert", "pending", null),
                cell("spark", "mariadb", "insert", "running", null));

        Report report = Report.of(dir);

        assertEquals(5, report.planned().planned());
        assertEquals(
                List.of(
                        "apex/postgresql/insert/1/rep-1",
                        "flink/mariadb/insert/1/rep-1",
                        "spark/mariadb/insert/1/rep-1"),
                report.planned().missing().stream()
                        .map(PlannedCells.Missing::id)
                        .toList());
        String html = Files.readString(report.write(), StandardCharsets.UTF_8);
        assertTrue(html.contains("This matrix is unfinished: 3 of 5 planned experiments have no result"), html);
        assertTrue(html.contains("1 failed, 1 pending, 1 running"), html);
        assertTrue(html.contains("NO RESULT: failed (the job died)"), html);
        assertTrue(html.contains("NO RESULT: pending"), html);
        assertTrue(html.contains("the matrix planned 5 experiments, 3 have no result"), html);
    }

    @Test
    void aFinishedMatrixSaysEveryPlannedExperimentHasAResult(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "insert", 1, 1, "ok", 1000, null);
        journal(dir, cell("flink", "postgresql", "insert", "ok", null));

        Report report = Report.of(dir);

        assertTrue(report.planned().missing().isEmpty());
        String html = Files.readString(report.write(), StandardCharsets.UTF_8);
        assertTrue(html.contains("the matrix planned 1 experiments, every one has a result"), html);
        assertTrue(!html.contains("unfinished"), html);
    }

    @Test
    void aFolderOfSingleRunsHasNoPlan(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "insert", 1, 1, "ok", 1000, null);
        assertNull(Report.of(dir).planned());
    }

    @Test
    void anUnreadableJournalIsRefused(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "insert", 1, 1, "ok", 1000, null);
        Files.writeString(dir.resolve(MatrixJournal.FILE), "{not json");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Report.of(dir));
        assertTrue(e.getMessage().contains("is not a readable matrix journal"), e.getMessage());
    }

    @Test
    void aJournalOfANewerLayoutIsRefused(@TempDir Path dir) throws Exception {
        run(dir, "flink", "postgresql", "insert", 1, 1, "ok", 1000, null);
        Files.writeString(
                dir.resolve(MatrixJournal.FILE),
                "{\"version\": " + (MatrixJournal.VERSION + 1) + ", \"cells\": []}",
                StandardCharsets.UTF_8);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Report.of(dir));
        assertTrue(e.getMessage().contains("was written by a newer streambench"), e.getMessage());
    }

    private static String cell(String engine, String database, String pattern, String state, String reasonJson) {
        return String.format(
                "{\"id\": \"%s/%s/%s/1/rep-1\", \"engine\": \"%s\", \"database\": \"%s\", \"pattern\": \"%s\","
                        + " \"blobBytes\": 1, \"repetition\": 1, \"state\": \"%s\", \"reason\": %s}",
                engine, database, pattern, engine, database, pattern, state, reasonJson);
    }

    private static void journal(Path dir, String... cells) throws Exception {
        Files.writeString(
                dir.resolve(MatrixJournal.FILE),
                "{\"version\": 1, \"cells\": [" + String.join(", ", cells) + "]}",
                StandardCharsets.UTF_8);
    }
}
