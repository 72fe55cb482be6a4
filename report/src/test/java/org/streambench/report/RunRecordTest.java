package org.streambench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.model.RunDocument;

/** result.json says its layout; a reader refuses a layout newer than it knows instead of misreading it. */
class RunRecordTest {

    @Test
    void readsTheCurrentLayoutAndFilesWrittenBeforeItWasNumbered(@TempDir Path dir) throws Exception {
        Fixtures.run(dir, "flink", "postgresql", "update", 100, 1, "ok", 1000, 200.0);
        Path folder = dir.resolve("flink/postgresql/update/100/rep-1");
        assertEquals(1000, RunRecord.read(folder).throughputMean());
        withSchemaVersion(folder, RunDocument.SCHEMA_VERSION);
        assertEquals(1000, RunRecord.read(folder).throughputMean());
    }

    @Test
    void refusesALayoutNewerThanItReads(@TempDir Path dir) throws Exception {
        Fixtures.run(dir, "flink", "postgresql", "update", 100, 1, "ok", 1000, 200.0);
        Path folder = dir.resolve("flink/postgresql/update/100/rep-1");
        withSchemaVersion(folder, RunDocument.SCHEMA_VERSION + 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RunRecord.read(folder));
        assertTrue(e.getMessage().contains("schemaVersion " + (RunDocument.SCHEMA_VERSION + 1)), e.getMessage());
    }

    private static void withSchemaVersion(Path folder, int version) throws Exception {
        Path file = folder.resolve("result.json");
        String json = Files.readString(file).strip();
        Files.writeString(file, "{\"schemaVersion\": " + version + ", " + json.substring(1));
    }
}
