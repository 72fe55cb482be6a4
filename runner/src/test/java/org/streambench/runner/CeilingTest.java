package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
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

    @ParameterizedTest(name = "{0} {1} {2} B")
    @CsvSource({
        "postgresql, read, 100",
        "postgresql, insert, 100000",
        "postgresql, update, 10000",
        "postgresql, mixed, 100",
        "mariadb, read, 100",
        "mariadb, insert, 100000",
        "mariadb, update, 10000",
        "mariadb, mixed, 100"
    })
    void theToolWritesWhatItSaysAndTheDatabaseHoldsIt(String database, String pattern, int blob, @TempDir Path tmp)
            throws Exception {
        ServerState server = TestServers.start(database);
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
                "--duration",
                "2s",
                "--out",
                out.toString());
        assertEquals(0, run.code(), run.toString());
        CeilingDocument document = CeilingJson.read(out.resolve(CeilingDocument.FILE));
        assertEquals("ok", document.status(), document.toString());
        assertTrue(document.result().operations() > 0, "the tool did something: " + document.result());
        assertFalse(
                String.join(" ", document.tool().commandLine())
                        .contains(server.settings().get("password")),
                "no password on the recorded command line");

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
}
