package org.streambench.runner.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.model.JournalJson;
import org.streambench.model.MatrixJournal;

/**
 * A journal of the layout before access modes (version 1, as bench matrix wrote it until then)
 * still resumes: its cells read as sync cells with the folders they had, its plan as sync only,
 * its arguments are kept until they are migrated to settings, and it is written back in the current layout.
 */
class JournalMigrationTest {

    @Test
    void aLayoutOneJournalReadsAsSyncCellsInTheirOldFolders(@TempDir Path dir) throws IOException {
        try (InputStream old = JournalMigrationTest.class.getResourceAsStream("/matrix-v1.json")) {
            Files.copy(old, dir.resolve(Journal.FILE));
        }
        Journal journal = Journal.read(dir);
        assertEquals(List.of("sync"), journal.plan().accesses());
        List<Journal.Entry> entries = journal.entries();
        assertEquals(4, entries.size());
        assertTrue(entries.stream().allMatch(e -> e.cell().access().equals("sync")));
        assertEquals("flink/cassandra/read/1/rep-1", entries.get(0).cell().id(), "the folder it had");
        assertEquals(
                List.of(Journal.State.OK, Journal.State.OK, Journal.State.RUNNING, Journal.State.PENDING),
                entries.stream().map(e -> e.state()).toList());

        assertEquals("--keys=2000", journal.legacyOptions().get(4), "its settings as the arguments it stored");
        assertThrows(IllegalStateException.class, journal::save, "written only once migrated");
        journal.migrate(Map.of("keys", "2000"), null);
        journal.save();
        String written = Files.readString(dir.resolve(Journal.FILE));
        assertTrue(written.contains("\"version\" : " + MatrixJournal.VERSION), written);
        assertEquals(List.of("sync"), Journal.read(dir).plan().accesses());
        assertEquals(List.of(Cell.NO_GUARANTEE), Journal.read(dir).plan().guarantees(), "an old matrix had none");
        assertTrue(
                Journal.read(dir).entries().stream()
                        .allMatch(e -> e.cell().guarantee().equals(Cell.NO_GUARANTEE)),
                "every old cell without a guarantee");
        MatrixJournal rewritten = JournalJson.read(dir.resolve(Journal.FILE));
        assertEquals(
                List.of("sync", "sync", "sync", "sync"),
                rewritten.cells().stream().map(MatrixJournal.CellEntry::access).toList(),
                "each cell's access mode written as this version writes it");
    }

    @Test
    void aNonSyncCellHasAFolderOfItsModeAndSyncKeepsTheStudysFolders() {
        assertEquals(
                "spark/cassandra/insert/1/batch-100-linger-20ms/rep-2",
                new Cell("spark", "cassandra", "insert", 1, "batch:100,linger=20ms", 2).id());
        assertEquals("spark/cassandra/insert/1/rep-2", new Cell("spark", "cassandra", "insert", 1, 2).id());
    }
}
