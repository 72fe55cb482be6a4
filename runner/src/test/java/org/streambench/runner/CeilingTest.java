package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.streambench.db.Database;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.Databases;
import org.streambench.db.StoredRecord;
import org.streambench.generator.Keys;
import org.streambench.generator.RecordGenerator;
import org.streambench.model.CeilingDocument;
import org.streambench.model.CeilingJson;
import org.streambench.runner.ceiling.MatrixCeilings;
import org.streambench.runner.matrix.Journal;
import org.streambench.runner.matrix.MatrixRunner;
import org.streambench.runner.results.ResultFiles;
import org.streambench.servers.ServerState;
import org.streambench.servers.TestServers;

/**
 * bench ceiling against the suite's own servers: each database's tool runs every pattern, and the
 * database afterwards holds exactly what the tool says it wrote, checked here on its own (rows added
 * = inserts; int_1 over the prefilled keys grew by the updates, each adding 1; BLOB lengths).
 */
@Tag("integration")
class CeilingTest {

    private static final int KEYS = 300;
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest(name = "{0} {1} {2} B")
    @CsvSource({
        "postgresql, read, 100",
        "postgresql, insert, 100000",
        "postgresql, update, 10000",
        "postgresql, mixed, 100",
        "mariadb, read, 100",
        "mariadb, insert, 100000",
        "mariadb, update, 10000",
        "mariadb, mixed, 100",
        "hbase, read, 100",
        "hbase, insert, 100000",
        "hbase, update, 10000",
        "hbase, mixed, 100",
        "cassandra, read, 100",
        "cassandra, insert, 100000",
        "cassandra, update, 10000",
        "cassandra, mixed, 100"
    })
    void theToolWritesWhatItSaysAndTheDatabaseHoldsIt(String database, String pattern, int blob, @TempDir Path tmp)
            throws Exception {
        ServerState server = TestServers.start(database);
        CeilingDocument document = ceiling(server, database, pattern, blob, "sync", tmp);
        assertEquals("ok", document.status(), document.toString());
        assertTrue(document.result().operations() > 0, "the tool did something: " + document.result());
        String password = server.settings().get("password");
        if (password != null) {
            assertFalse(
                    String.join(" ", document.tool().commandLine()).contains(password),
                    "no password on the recorded command line");
        }

        CeilingDocument.Verification claimed = document.verification();
        boolean inserts = pattern.equals("insert") || pattern.equals("mixed");
        boolean updates = pattern.equals("update") || pattern.equals("mixed");
        assertEquals(inserts, claimed.inserts() > 0, "inserts where the pattern inserts: " + claimed);
        assertEquals(updates, claimed.updates() > 0, "updates where the pattern updates: " + claimed);
        try (Database db = Databases.open(database, new DatabaseSettings(server.settings()))) {
            long prefilled = pattern.equals("insert") ? 0 : KEYS;
            assertEquals(prefilled + claimed.inserts(), db.countRows(), "rows: the prefill and the tool's inserts");
            long added = 0;
            for (long i = 0; i < prefilled; i++) {
                StoredRecord row = db.read(Keys.existing(i)).orElseThrow();
                added += row.record().int1() - RecordGenerator.prefill(i).int1();
                assertEquals(blob, row.blob().length);
            }
            assertEquals(claimed.updates(), added, "each update added 1 to int_1");
            if (inserts) {
                StoredRecord first = db.read("n00000000001").orElseThrow();
                assertEquals(blob, first.blob().length, "an inserted row holds a BLOB of the size");
            }
        }
    }

    /**
     * bench ceiling --access: each tool makes the connector's batches or calls in flight (pgbench and
     * sysbench: multi-row statements, and K clients per thread where the connector has no asynchronous
     * calls; PerformanceEvaluation: multi-get and multi-put, AsyncTable; latte: a batch's requests
     * issued together, cycles in flight),
     * and the database holds exactly what it says it wrote.
     */
    @Tag("modes")
    @ParameterizedTest(name = "{0} {1} {2}")
    @CsvSource({
        "postgresql, update, batch:100",
        "postgresql, mixed, async:3",
        "mariadb, mixed, batch:8",
        "mariadb, update, async:2",
        "hbase, update, batch:8",
        "hbase, mixed, async:4",
        "cassandra, update, async:4",
        "cassandra, mixed, batch:8"
    })
    void eachAccessModesToolWritesWhatItSaysAndTheDatabaseHoldsIt(
            String database, String pattern, String access, @TempDir Path tmp) throws Exception {
        ServerState server = TestServers.start(database);
        CeilingDocument document = ceiling(server, database, pattern, 10_000, access, tmp);
        assertEquals("ok", document.status(), document.toString());
        assertEquals(access, document.access());
        CeilingDocument.Verification claimed = document.verification();
        assertTrue(claimed.updates() > 0, "updates where the pattern updates: " + claimed);
        if (access.startsWith("batch:")) {
            int size = Integer.parseInt(access.substring("batch:".length()));
            assertEquals(0, claimed.updates() % size, "whole batches of " + size + " updates: " + claimed);
        }
        try (Database db = Databases.open(database, new DatabaseSettings(server.settings()))) {
            assertEquals(KEYS + claimed.inserts(), db.countRows(), "rows: the prefill and the tool's inserts");
            long added = 0;
            for (long i = 0; i < KEYS; i++) {
                StoredRecord row = db.read(Keys.existing(i)).orElseThrow();
                added += row.record().int1() - RecordGenerator.prefill(i).int1();
                assertEquals(10_000, row.blob().length);
            }
            assertEquals(claimed.updates(), added, "each update added 1 to int_1");
        }
    }

    /**
     * bench run --ceiling: the run, then the tool on the same server with the run's pattern, BLOB,
     * keys, window and parallelism; result.json says the tool, its throughput and the pipeline's
     * share of it, and the tool's own ceiling.json sits in the run's folder.
     */
    @Test
    void aRunWithCeilingRecordsTheToolsThroughputAndThePipelinesShareOfIt(@TempDir Path tmp) throws Exception {
        ServerState server = TestServers.start("postgresql");
        Path out = tmp.resolve("run");
        CliResult run = CliResult.bench(
                "run",
                "--engine",
                "flink",
                "--db",
                "postgresql",
                "--db-port",
                Integer.toString(server.port()),
                "--pattern",
                "update",
                "--blob",
                "100",
                "--keys",
                Integer.toString(KEYS),
                "--parallelism",
                "2",
                "--warmup",
                "1s",
                "--duration",
                "3s",
                "--metrics-port",
                "0",
                "--ceiling",
                "--out",
                out.toString());
        assertEquals(0, run.code(), run.toString());
        Map<String, Object> result = ResultFiles.read(out);
        assertEquals("ok", result.get("status"));
        Map<String, Object> ceiling = EndToEndTest.map(result, "ceiling");
        assertEquals("pgbench", ceiling.get("tool"));
        assertEquals(2, ((Number) ceiling.get("threads")).intValue(), "one client per processing instance");
        assertEquals("ok", ceiling.get("status"));
        CeilingDocument document =
                CeilingJson.read(out.resolve((String) ceiling.get("folder")).resolve(CeilingDocument.FILE));
        assertEquals("update", document.pattern());
        assertEquals(100, document.blobBytes());
        assertEquals(3, document.durationSeconds(), "the tool runs for the run's measured window");
        assertRecordsItsShareOf(document, result);
        assertTrue(run.out().contains("the pipeline reached "), run.out());
    }

    /**
     * bench matrix --ceiling: a database x pattern x BLOB x access mode's ceiling is measured once, in
     * that mode, after its first cell, and every cell of it (here two repetitions of a batch cell)
     * records it with its own ratio; a cell run again on --resume reads it instead of measuring it again.
     */
    @Test
    void aMatrixMeasuresEachCeilingOnceAndEveryCellRecordsItsShareOfIt(@TempDir Path tmp) throws Exception {
        ServerState server = TestServers.start("postgresql");
        Path out = tmp.resolve("matrix");
        CliResult run = CliResult.bench(
                "matrix",
                "--engines",
                "flink",
                "--databases",
                "postgresql",
                "--db-port",
                Integer.toString(server.port()),
                "--patterns",
                "update",
                "--blobs",
                "100",
                "--accesses",
                "batch:10",
                "--repetitions",
                "2",
                "--keys",
                Integer.toString(KEYS),
                "--warmup",
                "1s",
                "--duration",
                "2s",
                "--ceiling",
                "--out",
                out.toString());
        assertEquals(0, run.code(), run.toString());
        Path ceilings = out.resolve(MatrixCeilings.FOLDER);
        try (Stream<Path> folders = Files.list(ceilings)) {
            assertEquals(
                    List.of("postgresql-update-100-t1-batch10"),
                    folders.map(f -> f.getFileName().toString()).toList(),
                    "one ceiling for both cells");
        }
        Path ceilingFile = ceilings.resolve("postgresql-update-100-t1-batch10").resolve(CeilingDocument.FILE);
        CeilingDocument ceiling = CeilingJson.read(ceilingFile);
        assertEquals("ok", ceiling.status(), ceiling.toString());
        assertEquals(1, ceiling.threads());
        assertEquals("batch:10", ceiling.access(), "the tool makes the cells' access mode");
        assertEquals(2, ceiling.durationSeconds(), "the tool runs for the cells' measured window");
        Path first = out.resolve("flink/postgresql/update/100/batch-10-linger-20ms/rep-1");
        Path batch = out.resolve("flink/postgresql/update/100/batch-10-linger-20ms/rep-2");
        for (Path cell : List.of(first, batch)) {
            Map<String, Object> result = ResultFiles.read(cell);
            Map<String, Object> recorded = EndToEndTest.map(result, "ceiling");
            assertEquals("ok", recorded.get("status"), cell.toString());
            assertRecordsItsShareOf(ceiling, result);
            assertEquals(
                    ceilingFile.getParent().toRealPath(),
                    cell.resolve((String) recorded.get("folder")).toRealPath(),
                    "the folder is the shared ceiling's, relative to the cell");
        }
        assertTrue(
                Files.readString(batch.resolve(MatrixRunner.RUN_LOG)).contains("ceiling: measured by an earlier cell"),
                "the second cell reads the first one's ceiling");

        // as if the runner had died in the second cell: --resume runs it again and reads the ceiling
        ObjectNode journal =
                (ObjectNode) JSON.readTree(out.resolve(Journal.FILE).toFile());
        ((ObjectNode) journal.get("cells").get(1)).put("state", "running");
        JSON.writeValue(out.resolve(Journal.FILE).toFile(), journal);
        String measuredAt = ceiling.startedAt();
        CliResult resumed = CliResult.bench("matrix", "--resume", out.toString());
        assertEquals(0, resumed.code(), resumed.toString());
        assertEquals(measuredAt, CeilingJson.read(ceilingFile).startedAt(), "not measured again");
        assertTrue(
                Files.readString(batch.resolve(MatrixRunner.RUN_LOG)).contains("ceiling: measured by an earlier cell"));
        assertEquals("ok", EndToEndTest.map(ResultFiles.read(batch), "ceiling").get("status"));
    }

    /** bench ceiling with 2 threads for 1 s on {@code server}'s {@link #KEYS} keys; exit 0, its ceiling.json. */
    private static CeilingDocument ceiling(
            ServerState server, String database, String pattern, int blob, String access, Path tmp) throws Exception {
        Path out = tmp.resolve("ceiling");
        CliResult run = CliResult.bench(
                "ceiling",
                "--db",
                database,
                "--db-port",
                Integer.toString(server.port()),
                "--pattern",
                pattern,
                "--blob",
                Integer.toString(blob),
                "--keys",
                Integer.toString(KEYS),
                "--threads",
                "2",
                "--access",
                access,
                "--duration",
                "1s",
                "--out",
                out.toString());
        assertEquals(0, run.code(), run.toString());
        return CeilingJson.read(out.resolve(CeilingDocument.FILE));
    }

    private static void assertRecordsItsShareOf(CeilingDocument ceiling, Map<String, Object> result) {
        Map<String, Object> recorded = EndToEndTest.map(result, "ceiling");
        assertEquals(ceiling.result().throughput(), ((Number) recorded.get("throughput")).doubleValue(), 1e-9);
        double pipeline = ((Number) EndToEndTest.map(result, "throughput").get("mean")).doubleValue();
        assertEquals(
                pipeline / ceiling.result().throughput(),
                ((Number) recorded.get("ratio")).doubleValue(),
                1e-9,
                "the run's own ratio");
    }
}
