package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.streambench.runner.results.ResultFiles;
import org.streambench.servers.ServerState;
import org.streambench.servers.TestServers;

/**
 * Access modes beyond one synchronous call per record: every run verifies value by value, whatever
 * the mode, engine, database and pattern, on a small key space so that a key's records follow one
 * another closely (a read overtaking its key's pending write, or two writes of a key in flight,
 * would show as a wrong sum). The whole grid (every engine x database x mode) carries the tag
 * "modes" ({@code ./bench test --modes}), as does {@link PatternsBeyondTheStudyTest}; the main suite
 * runs every pattern in both modes on Flink, and Spark and Apex in one mode each, against PostgreSQL.
 */
@Tag("integration")
class AccessModesTest {

    static final String BATCH = "batch:16,linger=10ms";
    static final String ASYNC = "async:8";
    private static final int RECORDS = 400;
    private static final int KEYS = 40;

    static Stream<Arguments> grid() {
        return Registries.pairs()
                .flatMap(pair -> Stream.of(BATCH, ASYNC).map(mode -> Arguments.of(pair.get()[0], pair.get()[1], mode)));
    }

    @Tag("modes")
    @ParameterizedTest(name = "{0} x {1} x {2}")
    @MethodSource("grid")
    void everyEngineAndDatabaseVerifiesInEveryMode(String engine, String database, String mode, @TempDir Path tmp)
            throws Exception {
        boundedRun(engine, database, mode, "mixed", tmp);
    }

    /** The engines beyond Flink in one mode each; the grid above has every engine in both. */
    @ParameterizedTest(name = "{0} x postgresql x {1}")
    @CsvSource(
            delimiter = '|',
            value = {"spark|" + ASYNC, "apex|" + BATCH})
    void theOtherEnginesVerifyInAMode(String engine, String mode, @TempDir Path tmp) throws Exception {
        boundedRun(engine, "postgresql", mode, "mixed", tmp);
    }

    @ParameterizedTest(name = "{1} in {0}")
    @CsvSource(
            delimiter = '|',
            value = {
                BATCH + "|read",
                BATCH + "|insert",
                BATCH + "|update",
                ASYNC + "|read",
                ASYNC + "|insert",
                ASYNC + "|update"
            })
    void everyPatternVerifiesInBothModes(String mode, String pattern, @TempDir Path tmp) throws Exception {
        boundedRun("flink", "postgresql", mode, pattern, tmp);
    }

    /** A run's result says its mode and the mode's own latencies: the batch round trip, the wait for a batch. */
    @Test
    void theResultSaysTheModeAndItsLatencies(@TempDir Path tmp) throws Exception {
        Map<String, Object> batch = timedRun(BATCH, tmp.resolve("batch"));
        assertEquals(BATCH, EndToEndTest.map(batch, "spec").get("access"));
        Map<String, Object> latencies = EndToEndTest.map(batch, "accessLatencyMicros");
        assertTrue(latencies.containsKey("writeCall") && latencies.containsKey("batchWait"), latencies.toString());
        Map<String, Object> async = timedRun(ASYNC, tmp.resolve("async"));
        assertEquals(ASYNC, EndToEndTest.map(async, "spec").get("access"));
        assertTrue(EndToEndTest.map(async, "accessLatencyMicros").containsKey("writeCall"));
    }

    /** A short run measured for its duration (a bounded one may end before its window opens). */
    private static Map<String, Object> timedRun(String mode, Path out) throws Exception {
        ServerState server = TestServers.start("postgresql");
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
                "--access",
                mode,
                "--blob",
                "100",
                "--keys",
                Integer.toString(KEYS),
                "--duration",
                "3s",
                "--warmup",
                "1s",
                "--metrics-port",
                "0",
                "--out",
                out.toString());
        assertEquals(0, run.code(), run.toString());
        return ResultFiles.read(out);
    }

    static Map<String, Object> boundedRun(String engine, String database, String mode, String pattern, Path tmp)
            throws Exception {
        ServerState server = TestServers.start(database);
        Path out = tmp.resolve("run");
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--engine",
                engine,
                "--db",
                database,
                "--db-port",
                Integer.toString(server.port()),
                "--pattern",
                pattern,
                "--access",
                mode,
                "--blob",
                "100",
                "--records",
                Integer.toString(RECORDS),
                "--keys",
                Integer.toString(KEYS),
                "--parallelism",
                "2",
                "--duration",
                "120s",
                "--warmup",
                "0s",
                "--metrics-port",
                "0",
                "--out",
                out.toString()));
        CliResult run = CliResult.bench(args.toArray(String[]::new));
        assertEquals(0, run.code(), run.toString());
        Map<String, Object> result = ResultFiles.read(out);
        assertEquals("ok", result.get("status"), String.valueOf(result.get("error")));
        Map<String, Object> counts = EndToEndTest.map(result, "counts");
        Map<String, Object> processed = EndToEndTest.map(counts, "processed");
        long handled = processed.values().stream()
                .mapToLong(v -> ((Number) v).longValue())
                .sum();
        assertEquals(RECORDS, handled, "every record processed once: " + processed);
        Map<String, Object> verification = EndToEndTest.map(result, "verification");
        assertEquals(0, verification.get("mismatches"), verification.toString());
        assertTrue(((Number) verification.get("checked")).longValue() > 0, verification.toString());
        return result;
    }
}
