package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.streambench.runner.results.ResultFiles;
import org.streambench.servers.ServerState;
import org.streambench.servers.TestServers;

/**
 * The README's claim that every engine works with every database: a short bounded mixed run of each
 * of the 15 pairs (new keys read-missed and inserted, existing keys read, added to and updated),
 * verified value by value; an emulator is labelled on every line and in the result.
 */
@Tag("integration")
class AllPairsTest {

    private static final int RECORDS = 400;

    static Stream<Arguments> pairs() {
        return Registries.pairs();
    }

    /** The arguments of a short bounded mixed run (inserts and updates) of {@code engine} against {@code database}. */
    static String[] boundedMixedRun(String engine, String database, Path out, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--engine",
                engine,
                "--db",
                database,
                "--pattern",
                "mixed",
                "--blob",
                "100",
                "--records",
                Integer.toString(RECORDS),
                "--keys",
                Integer.toString(RECORDS),
                "--duration",
                "120s",
                "--warmup",
                "0s",
                "--metrics-port",
                "0",
                "--out",
                out.toString()));
        args.addAll(List.of(extra));
        return args.toArray(String[]::new);
    }

    @ParameterizedTest(name = "{0} x {1}")
    @MethodSource("pairs")
    void everyEngineRunsAgainstEveryDatabase(String engine, String database, @TempDir Path tmp) throws Exception {
        ServerState server = TestServers.start(database);
        Path out = tmp.resolve("run");
        CliResult run =
                CliResult.bench(boundedMixedRun(engine, database, out, "--db-port", Integer.toString(server.port())));
        assertEquals(0, run.code(), run.toString());
        Map<String, Object> result = ResultFiles.read(out);
        assertEquals("ok", result.get("status"), String.valueOf(result.get("error")));
        Map<String, Object> counts = EndToEndTest.map(result, "counts");
        assertEquals(RECORDS, ((Number) counts.get("emitted")).intValue());
        Map<String, Object> processed = EndToEndTest.map(counts, "processed");
        long inserts = ((Number) processed.get("insert")).longValue();
        long updates = ((Number) processed.get("update")).longValue();
        assertTrue(inserts > 0 && updates > 0, "a mixed run inserts and updates: " + processed);
        assertEquals(RECORDS, inserts + updates, processed.toString());
        Map<String, Object> verification = EndToEndTest.map(result, "verification");
        assertEquals(0, verification.get("mismatches"), verification.toString());
        assertEquals(
                inserts,
                ((Number) verification.get("rowDelta")).longValue(),
                "every new key stored once: " + verification);
        assertTrue(((Number) verification.get("checked")).longValue() > 0, verification.toString());

        String summary = run.out()
                .lines()
                .filter(line -> line.startsWith(engine + " x " + database))
                .findFirst()
                .orElseThrow();
        assertFalse(
                summary.matches(".*[:\\]] 0 records/s.*"),
                "a bounded run over before its first whole second has no rate, not 0: " + summary);

        Map<String, Object> environment = EndToEndTest.map(result, "environment");
        assertEquals("default", environment.get("databaseProfile"), "the suite's own server, vendor defaults");
        if (database.equals("mongodb")) {
            assertTrue(
                    String.valueOf(environment.get("databaseVersion")).contains("emulator, not MongoDB"),
                    environment.toString());
            assertTrue(
                    String.valueOf(environment.get("databaseNote")).contains("MONGODB EMULATOR"),
                    environment.toString());
            assertTrue(
                    run.out()
                            .lines()
                            .filter(l -> l.startsWith(engine + " x mongodb"))
                            .allMatch(l -> l.contains("MONGODB EMULATOR")),
                    run.out());
        } else {
            assertNull(environment.get("databaseNote"), environment.toString());
        }
    }
}
