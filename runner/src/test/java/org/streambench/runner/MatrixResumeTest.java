package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.model.MatrixJournal;
import org.streambench.model.RunDocument;
import org.streambench.runner.matrix.Journal;

/**
 * --resume reads the journal's settings, not whatever this version's defaults are: a journal of an
 * older layout resumes, and one whose settings would now give its cells a different spec, or
 * name an option this version lacks, is refused in one line before anything runs. No server.
 */
class MatrixResumeTest {

    /** The settings of the layout 1 journal in the test resources (its --keys=2000, --duration=20s, ...). */
    private static Map<String, Object> settingsOfTheOldJournal() {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("repetitions", "1");
        settings.put("duration", "20s");
        settings.put("warmup", "steady:15s");
        settings.put("rate", "0");
        settings.put("keys", "2000");
        settings.put("parallelism", "1");
        settings.put("generator-parallelism", "1");
        settings.put("seed", "1");
        settings.put("records", "0");
        settings.put("db-profile", "default");
        settings.put("metrics-host", "127.0.0.1");
        settings.put("metrics-port", "0");
        settings.put("collector-bind", "127.0.0.1");
        settings.put("cluster", "local");
        settings.put("job-heap", "1g");
        settings.put("startup-timeout", "180s");
        settings.put("stop-timeout", "60s");
        return settings;
    }

    private static RunDocument.Spec specWithKeys(long keys) {
        return new RunDocument.Spec(
                "flink",
                "cassandra",
                "read",
                1,
                20,
                15,
                0,
                keys,
                1,
                1,
                1,
                -1,
                0,
                Map.of(),
                Map.of(),
                "sync",
                null,
                null,
                null,
                null);
    }

    private static Path oldJournal(Path dir) throws IOException {
        try (InputStream old = MatrixResumeTest.class.getResourceAsStream("/matrix-v1.json")) {
            Files.copy(old, dir.resolve(Journal.FILE));
        }
        return dir;
    }

    @Test
    void aJournalOfAnOlderLayoutResumesWithTheArgumentsItStored(@TempDir Path tmp) throws IOException {
        Path dir = oldJournal(tmp);
        String before = Files.readString(dir.resolve(Journal.FILE));
        CliResult plan = CliResult.bench("matrix", "--resume", dir.toString(), "--dry-run");
        assertEquals(0, plan.code(), plan.toString());
        assertTrue(plan.out().contains("20 s measured, 2,000 keys"), "the stored settings, not the defaults: " + plan);
        assertTrue(plan.out().contains("2 experiments"), "the running and the pending cell: " + plan);
        assertEquals(before, Files.readString(dir.resolve(Journal.FILE)), "a dry run writes nothing");
    }

    @Test
    void aJournalWhoseSettingsNowGiveADifferentSpecIsRefused(@TempDir Path tmp) throws IOException {
        Path dir = oldJournal(tmp);
        Journal journal = Journal.read(dir);
        journal.migrate(settingsOfTheOldJournal(), specWithKeys(4000));
        journal.save();
        String written = Files.readString(dir.resolve(Journal.FILE));
        assertTrue(
                written.contains("\"version\" : " + MatrixJournal.VERSION) && written.contains("\"keys\" : \"2000\""),
                written);
        assertFalse(written.contains("\"options\""), "layout 3 stores settings, not arguments: " + written);

        CliResult run = CliResult.bench("matrix", "--resume", dir.toString(), "--dry-run");
        assertEquals(2, run.code(), run.toString());
        assertTrue(run.err().contains("would run the cells differently"), run.err());
        assertTrue(run.err().contains("keys 4000 -> 2000"), run.err());
        assertEquals(1, run.err().strip().lines().count(), run.err());
        assertEquals(written, Files.readString(dir.resolve(Journal.FILE)), "nothing written");
    }

    @Test
    void aJournalNamingAnOptionThisVersionLacksIsRefused(@TempDir Path tmp) throws IOException {
        Path dir = oldJournal(tmp);
        Journal journal = Journal.read(dir);
        Map<String, Object> settings = settingsOfTheOldJournal();
        settings.put("warm-up-mode", "steady");
        journal.migrate(settings, specWithKeys(2000));
        journal.save();

        CliResult run = CliResult.bench("matrix", "--resume", dir.toString(), "--dry-run");
        assertEquals(2, run.code(), run.toString());
        assertTrue(run.err().contains("holds settings this version does not take"), run.err());
        assertTrue(run.err().contains("--warm-up-mode"), run.err());
        assertEquals(1, run.err().strip().lines().count(), run.err());
    }
}
