package org.streambench.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * result.json and matrix.json through their one model: every field a real run or matrix wrote
 * is a part of the model (a field the model lacks, or names otherwise, fails), and what the model
 * writes back is what was written.
 */
class ModelJsonTest {

    private static final ObjectMapper STRICT =
            new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final ObjectMapper TREES = new ObjectMapper();

    /**
     * A file that `bench run` wrote (a local Flink x Cassandra update run; its access mode and write
     * call latency added by hand in layout 2's form).
     */
    @Test
    void everyFieldOfARunsResultIsInTheModelAndWrittenBackAsItWas() throws IOException {
        String original = resource("local-update.json");
        RunDocument document = STRICT.readValue(original, RunDocument.class);
        assertEquals(TREES.readTree(original), TREES.readTree(ResultJson.write(document)));
    }

    /**
     * A file of the same layout written before three environment parts existed (a Flink x
     * PostgreSQL run on YARN): read without loss, written back with those parts null.
     */
    @Test
    void anOlderFileIsReadWithoutLossAndWhatItLacksIsNull() throws IOException {
        String original = resource("yarn-update.json");
        RunDocument document = STRICT.readValue(original, RunDocument.class);
        JsonNode written = TREES.readTree(ResultJson.write(document));
        assertSameButForAddedNulls(TREES.readTree(original), written, "");
        assertEquals(
                List.of("yarnVersion", "yarnResources", "jobHeap", "databaseProfile"),
                addedNulls(TREES.readTree(original).get("environment"), written.get("environment")));
    }

    private static void assertSameButForAddedNulls(JsonNode original, JsonNode written, String path) {
        if (!original.isObject()) {
            assertEquals(original, written, path);
            return;
        }
        for (Iterator<String> it = original.fieldNames(); it.hasNext(); ) {
            String field = it.next();
            assertTrue(written.has(field), path + "." + field + " was lost");
            assertSameButForAddedNulls(original.get(field), written.get(field), path + "." + field);
        }
        for (String added : addedNulls(original, written)) {
            assertTrue(written.get(added).isNull(), path + "." + added + " appeared with a value");
        }
    }

    private static List<String> addedNulls(JsonNode original, JsonNode written) {
        return fieldNames(written).stream()
                .filter(field -> !original.has(field))
                .toList();
    }

    @Test
    void aDocumentWithEveryPartReadsBackEqual(@TempDir Path dir) throws IOException {
        RunDocument.Latency latency = new RunDocument.Latency(10, 1.5, 0.5, 1, 2, 3, 4, 5);
        RunDocument document = new RunDocument(
                RunDocument.SCHEMA_VERSION,
                spec(),
                "failed",
                "it broke",
                "2026-11-24T00:00:00Z",
                new RunDocument.Warmup("steady", 12, true),
                new RunDocument.Throughput(100.5, 3.25, RunDocument.RECORDS_PER_SECOND, -1.5, false),
                new RunDocument.Rate(200, RunDocument.RECORDS_PER_SECOND, 199.5, 150.0, true),
                latency,
                Map.of("hit", latency, "miss", new RunDocument.Latency(1, 2, 0, 2, 2, 2, 2, 2)),
                latency,
                latency,
                Map.of("writeCall", latency, "batchWait", latency),
                List.of(new RunDocument.Second(
                        1, 1_795_000_000_000L, 1.002, true, 90, 100, 90, 12.5, 0, Map.of("engine", 0.75))),
                new RunDocument.Counts(300, Map.of(0, 150L, 1, 150L), Map.of("read", 300L), 1, "read k: timeout"),
                new RunDocument.Verification(10, 1, 5, -1, List.of("key k: int_1 3 != 4")),
                new RunDocument.Environment(
                        "yarn",
                        "application_1_0001",
                        "3.4.2",
                        Map.of("spark.executor.instances", "2"),
                        "1g",
                        List.of("vm:1", "vm:2"),
                        "Spark 3.5",
                        "PostgreSQL 17",
                        null,
                        Map.of("fsync", "on"),
                        "default",
                        "CHECKPOINT",
                        "Java 17",
                        2,
                        1L << 30,
                        "Linux",
                        "vm",
                        "0.1.0",
                        "abc",
                        new RunDocument.Calibration(
                                "2026-11-29T00:00:00Z", "vm", "/w", "vda", 3.0, 9000.5, 98, 310, 812.5, 1450.0)),
                Map.of("reset", 0.5),
                new RunDocument.Ceiling("pgbench", 2, 1234.5, 0.81, "ok", null, "ceiling"),
                new RunDocument.Recovery(
                        Map.of("execution.checkpointing.mode", "AT_LEAST_ONCE"),
                        2,
                        311,
                        new RunDocument.Audit(10_000, 57, 0, 0, List.of()),
                        new RunDocument.FaultRecovery(1_764_000_030_250L, 31, 4512.0, 327.0, 2.75),
                        "redis on its default profile may lose writes it acknowledged when it is killed"),
                new RunDocument.Resources(
                        30.01,
                        90_000,
                        Map.of(
                                "database",
                                new RunDocument.ProcessUse(6, 12.5, 138.9, 0L, 1_234_567L, 13.7, 200_000_000L),
                                "runner",
                                new RunDocument.ProcessUse(1, 0.4, 4.4, null, null, null, 100_000_000L)),
                        "vda",
                        0L,
                        4_500_000L,
                        1.25,
                        Map.of("wal_bytes", 4_000_000L, "xact_commit", 90_000L),
                        Map.of(
                                "dbnode",
                                new RunDocument.ExporterUse(
                                        "http://db:9100/metrics",
                                        21.5,
                                        238.9,
                                        9_000_000L,
                                        100.0,
                                        Map.of("node_disk_written_bytes_total{device=\"vda\"}", 9.0e6))),
                        Map.of("engine", "a job on YARN: its containers run on the cluster's machines")),
                new RunDocument.Fill(2, 5, 40_000));
        Path file = dir.resolve("result.json");
        Files.writeString(file, ResultJson.write(document));
        assertEquals(document, ResultJson.read(file));
        assertEquals(document, STRICT.readValue(file.toFile(), RunDocument.class));
    }

    @Test
    void anInterruptedRunHasItsSpecAndWhyButNoNumbers(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("result.json");
        Files.writeString(
                file,
                ResultJson.write(new RunDocument.Interrupted(
                        RunDocument.SCHEMA_VERSION, spec(), "interrupted", "SIGTERM", "2026-11-24T00:00:00Z")));
        JsonNode tree = TREES.readTree(file.toFile());
        assertEquals(List.of("schemaVersion", "spec", "status", "error", "startedAt"), fieldNames(tree));
        RunDocument read = ResultJson.read(file);
        assertEquals("interrupted", read.status());
        assertEquals(spec(), read.spec());
        assertNull(read.throughput());
        assertNull(read.perSecond());
    }

    @Test
    void aFileWithoutSchemaVersionIsOfTheFirstLayout(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("result.json");
        Files.writeString(file, "{\"spec\": {\"engine\": \"flink\", \"database\": \"mariadb\"}, \"status\": \"ok\"}");
        assertEquals(1, ResultJson.read(file).schemaVersion());
    }

    @Test
    void aFileOfANewerLayoutOrWithoutSpecIsRefused(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("result.json");
        Files.writeString(
                file,
                "{\"schemaVersion\": " + (RunDocument.SCHEMA_VERSION + 1)
                        + ", \"spec\": {\"engine\": \"flink\", \"database\": \"mariadb\"}, \"status\": \"ok\"}");
        IllegalArgumentException newer = assertThrows(IllegalArgumentException.class, () -> ResultJson.read(file));
        assertTrue(newer.getMessage().contains("newer than this streambench reads"), newer.getMessage());
        Files.writeString(file, "{\"status\": \"ok\"}");
        IllegalArgumentException notOurs = assertThrows(IllegalArgumentException.class, () -> ResultJson.read(file));
        assertTrue(notOurs.getMessage().contains("is not a streambench result"), notOurs.getMessage());
        Files.writeString(
                file,
                "{\"spec\": {\"engine\": \"flink\", \"database\": \"x\", \"blobBytes\": \"big\"}, \"status\": \"ok\"}");
        IllegalArgumentException mistyped = assertThrows(IllegalArgumentException.class, () -> ResultJson.read(file));
        assertTrue(mistyped.getMessage().contains("is not a readable streambench result"), mistyped.getMessage());
    }

    /** A journal as `bench matrix` writes it (layout 3), cut to four cells (two ok, the running one, a pending one). */
    @Test
    void everyFieldOfAMatrixJournalIsInTheModelAndWrittenBackAsItWas() throws IOException {
        String original = resource("matrix.json");
        MatrixJournal journal = STRICT.readValue(original, MatrixJournal.class);
        assertEquals(TREES.readTree(original), TREES.readTree(JournalJson.write(journal)));
        assertEquals(
                List.of("ok", "ok", "running", "pending"),
                journal.cells().stream().map(MatrixJournal.CellEntry::state).toList());
    }

    @Test
    void aJournalThatIsNoneOrOfANewerLayoutIsRefused(@TempDir Path dir) throws IOException {
        Path file = dir.resolve(MatrixJournal.FILE);
        Files.writeString(file, "{\"version\": " + (MatrixJournal.VERSION + 1) + ", \"cells\": []}");
        IllegalArgumentException newer = assertThrows(IllegalArgumentException.class, () -> JournalJson.read(file));
        assertTrue(newer.getMessage().contains("was written by a newer streambench"), newer.getMessage());
        Files.writeString(file, "{\"version\": 1}");
        IllegalArgumentException noCells = assertThrows(IllegalArgumentException.class, () -> JournalJson.read(file));
        assertTrue(noCells.getMessage().contains("is not a matrix journal"), noCells.getMessage());
        Files.writeString(file, "{not json");
        IllegalArgumentException broken = assertThrows(IllegalArgumentException.class, () -> JournalJson.read(file));
        assertTrue(broken.getMessage().contains("is not a readable matrix journal"), broken.getMessage());
        Files.writeString(file, "{\"version\": 1, \"cells\": [{\"id\": \"a\", \"blobBytes\": \"big\"}]}");
        IllegalArgumentException mistyped = assertThrows(IllegalArgumentException.class, () -> JournalJson.read(file));
        assertTrue(mistyped.getMessage().contains("is not a readable matrix journal"), mistyped.getMessage());
    }

    private static RunDocument.Spec spec() {
        return new RunDocument.Spec(
                "spark",
                "postgresql",
                "mixed",
                10_000,
                20,
                15,
                200,
                2000,
                1,
                1,
                7,
                123_456,
                0,
                Map.of("batchIntervalMillis", "1000"),
                Map.of("url", "jdbc:postgresql://h/db", "password", "***"),
                "batch:100,linger=20ms",
                "at-least-once",
                1000L,
                "fail-task@3000ms",
                "zipfian");
    }

    private static List<String> fieldNames(JsonNode tree) {
        List<String> names = new ArrayList<>();
        for (Iterator<String> it = tree.fieldNames(); it.hasNext(); ) {
            names.add(it.next());
        }
        return names;
    }

    private static String resource(String file) throws IOException {
        try (InputStream in = ModelJsonTest.class.getResourceAsStream("/results/" + file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
