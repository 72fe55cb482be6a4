package org.streambench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.model.RunDocument;

/** result.json says its layout; a reader refuses a layout newer than it knows instead of misreading it. */
class RunRecordTest {

    private static final ObjectMapper JSON = new ObjectMapper();

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

    /** A run of skewed keys is a variant of its own: it never shares a cell with the study's uniform runs. */
    @Test
    void aKeyDistributionOtherThanUniformIsPartOfTheVariant(@TempDir Path dir) throws Exception {
        Fixtures.run(dir, "flink", "postgresql", "update", 100, 1, "ok", 1000, 200.0);
        Path folder = dir.resolve("flink/postgresql/update/100/rep-1");
        assertEquals("sync", RunRecord.read(folder).variant());
        assertEquals("uniform", RunRecord.read(folder).keyDistribution());
        Path file = folder.resolve("result.json");
        ObjectNode json = (ObjectNode) JSON.readTree(file.toFile());
        ((ObjectNode) json.get("spec")).put("keyDistribution", "zipfian");
        JSON.writeValue(file.toFile(), json);
        assertEquals("sync, zipfian keys", RunRecord.read(folder).variant());
    }

    private static void withSchemaVersion(Path folder, int version) throws Exception {
        Path file = folder.resolve("result.json");
        String json = Files.readString(file).strip();
        Files.writeString(file, "{\"schemaVersion\": " + version + ", " + json.substring(1));
    }
}
