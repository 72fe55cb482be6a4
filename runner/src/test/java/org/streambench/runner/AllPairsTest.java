package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.streambench.runner.results.ResultFiles;
import org.streambench.runner.servers.ServerState;

/** The README's claim that every engine works with every database: a short bounded insert run of each of the 15 pairs, verified. */
@Tag("integration")
class AllPairsTest {

    private static final int RECORDS = 400;

    static Stream<Arguments> pairs() {
        return Stream.of("postgresql", "mariadb", "cassandra", "hbase", "mongodb")
                .flatMap(database -> Stream.of("flink", "spark", "apex").map(engine -> Arguments.of(engine, database)));
    }

    @ParameterizedTest(name = "{0} x {1}")
    @MethodSource("pairs")
    void everyEngineRunsAgainstEveryDatabase(String engine, String database, @TempDir Path tmp) throws Exception {
        ServerState server = TestServers.start(database);
        Path out = tmp.resolve("run");
        CliResult run = CliResult.bench(
                "run",
                "--engine",
                engine,
                "--db",
                database,
                "--pattern",
                "insert",
                "--blob",
                "100",
                "--records",
                Integer.toString(RECORDS),
                "--duration",
                "120s",
                "--warmup",
                "0s",
                "--metrics-port",
                "0",
                "--db-port",
                Integer.toString(server.port()),
                "--out",
                out.toString());
        assertEquals(0, run.code(), run.toString());
        Map<String, Object> result = ResultFiles.read(out);
        assertEquals("ok", result.get("status"), String.valueOf(result.get("error")));
        assertEquals(RECORDS, ((Number) EndToEndTest.map(result, "counts").get("emitted")).intValue());
        Map<String, Object> verification = EndToEndTest.map(result, "verification");
        assertEquals(0, verification.get("mismatches"), verification.toString());
        assertEquals(
                RECORDS,
                ((Number) verification.get("rowDelta")).intValue(),
                "every record stored once: " + verification);
    }
}
