package org.streambench.runner.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.local.UserError;
import org.streambench.model.MatrixJournal;

/**
 * The setting axes (--keyspaces, --parallelisms, --db-settings): a cell per combination of their
 * values, each in a folder of its own, kept by the journal; values in one spelling each.
 */
class SettingAxisTest {

    private static MatrixPlan plan(Map<String, List<String>> axes) {
        return new MatrixPlan(
                List.of("flink"), List.of("cassandra"), List.of("update"), List.of(1), 2, null, null, null, null, axes);
    }

    private static final Map<String, List<String>> AXES = axes();

    private static Map<String, List<String>> axes() {
        Map<String, List<String>> axes = new LinkedHashMap<>();
        axes.put("keys", List.of("10000", "1000000"));
        axes.put("db-setting", List.of("writeConsistency=ONE", "writeConsistency=QUORUM"));
        return axes;
    }

    @Test
    void everyCombinationIsACellInItsOwnFolderTheFirstAxisVaryingSlowest() {
        List<Cell> cells = plan(AXES).cells();
        assertEquals(
                List.of(
                        "flink/cassandra/update/1/keys-10000/db-setting-writeConsistency-ONE/rep-1",
                        "flink/cassandra/update/1/keys-10000/db-setting-writeConsistency-ONE/rep-2",
                        "flink/cassandra/update/1/keys-10000/db-setting-writeConsistency-QUORUM/rep-1",
                        "flink/cassandra/update/1/keys-10000/db-setting-writeConsistency-QUORUM/rep-2",
                        "flink/cassandra/update/1/keys-1000000/db-setting-writeConsistency-ONE/rep-1",
                        "flink/cassandra/update/1/keys-1000000/db-setting-writeConsistency-ONE/rep-2",
                        "flink/cassandra/update/1/keys-1000000/db-setting-writeConsistency-QUORUM/rep-1",
                        "flink/cassandra/update/1/keys-1000000/db-setting-writeConsistency-QUORUM/rep-2"),
                cells.stream().map(Cell::id).toList());
        assertEquals(
                Map.of("keys", "1000000", "db-setting", "writeConsistency=QUORUM"),
                cells.get(7).settings());
        assertEquals(
                List.of("flink/cassandra/update/1/rep-1", "flink/cassandra/update/1/rep-2"),
                plan(null).cells().stream().map(Cell::id).toList(),
                "without setting axes, the folders are as before them");
    }

    @Test
    void aJournalKeepsTheAxesAndEachCellsValues(@TempDir Path dir) throws Exception {
        MatrixPlan plan = plan(AXES);
        Journal.create(dir, plan, Map.of("duration", "5s"), null);
        Journal read = Journal.read(dir);
        assertEquals(plan, read.plan());
        assertEquals(
                plan.cells(), read.entries().stream().map(Journal.Entry::cell).toList());
        assertEquals(
                List.copyOf(plan.settingAxes().keySet()),
                List.copyOf(read.plan().settingAxes().keySet()));
        assertTrue(Files.readString(dir.resolve(Journal.FILE)).contains("\"settingAxes\""));

        Path without = dir.resolve("without");
        Journal.create(without, plan(null), Map.of("duration", "5s"), null);
        String json = Files.readString(without.resolve(MatrixJournal.FILE));
        assertTrue(
                !json.contains("settingAxes") && json.split("\"settings\"", -1).length - 1 == 1,
                "a matrix without setting axes writes none, and its cells no settings (only the journal's own): "
                        + json);
    }

    @Test
    void eachValueHasOneSpellingAndABadOneIsRefusedNamingTheListOption() {
        assertEquals("1000", SettingAxis.KEYSPACES.canonical(" 1000 "));
        assertEquals("a=1,b=2", SettingAxis.DB_SETTINGS.canonical(" a = 1 , b=2"));
        assertEquals(
                "--keyspaces '0' must be a positive whole number of keys, e.g. 10000",
                assertThrows(UserError.class, () -> SettingAxis.KEYSPACES.canonical("0"))
                        .getMessage());
        assertTrue(assertThrows(UserError.class, () -> SettingAxis.PARALLELISMS.canonical("two"))
                .getMessage()
                .startsWith("--parallelisms 'two'"));
        assertTrue(assertThrows(UserError.class, () -> SettingAxis.DB_SETTINGS.canonical("a=1,a=2"))
                .getMessage()
                .contains("sets a twice"));
        assertTrue(assertThrows(UserError.class, () -> SettingAxis.DB_SETTINGS.canonical("=1"))
                .getMessage()
                .contains("must be KEY=VALUE pairs"));
    }
}
