package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.opentest4j.AssertionFailedError;
import org.streambench.db.Database;
import org.streambench.db.StoredRecord;
import org.streambench.generator.Keys;
import org.streambench.generator.Pattern;
import org.streambench.generator.RecordGenerator;
import org.streambench.local.Home;
import org.streambench.runner.results.ResultFiles;
import org.streambench.servers.ServerState;
import org.streambench.servers.TestServers;

/**
 * The three adapters run one logic: a bounded run (same seed, run token and record count) leaves
 * the same database state on Flink, Spark and Apex: same rows, same sums, same BLOB sizes.
 * Insert-only runs two generator instances (each new key is written once, so the state does not
 * depend on how the engine interleaves them); update-only runs one, because two generators
 * updating the same key would add doubles in an engine-dependent order.
 */
@Tag("integration")
class EngineParityTest {

    private static final int RECORDS = 3000;
    private static final int KEYS = 300;
    private static final int RUN_TOKEN = 4242;
    private static final long SEED = 9;

    @ParameterizedTest
    @ValueSource(strings = {"insert", "update"})
    void flinkSparkAndApexLeaveTheSameDatabaseState(String pattern, @TempDir Path tmp) throws Exception {
        ServerState postgres = TestServers.start("postgresql");
        int generators = pattern.equals("insert") ? 2 : 1;
        Map<String, Map<String, String>> stateByEngine = new LinkedHashMap<>();
        for (String engine : Registries.engines()) {
            CliResult run = CliResult.bench(boundedRun(engine, pattern, generators, postgres, tmp.resolve(engine)));
            assertEquals(0, run.code(), run.toString());
            Map<String, Object> counts = EndToEndTest.map(ResultFiles.read(tmp.resolve(engine)), "counts");
            assertEquals(
                    generators * RECORDS,
                    ((Number) counts.get("emitted")).intValue(),
                    engine + " emitted exactly the bounded count");
            stateByEngine.put(engine, snapshot(Pattern.parse(pattern), generators));
            // the runner ends a job JVM once its statuses are in, but lets one that writes its class archive end
            try (Stream<Path> archives = Files.list(Home.work().resolve("class-archives"))) {
                assertTrue(
                        archives.anyMatch(a -> a.getFileName().toString().matches(engine + "-[0-9a-f]{16}\\.jsa")),
                        "the first " + engine + " job wrote its class archive as its JVM ended");
            }
        }
        Map<String, String> flink = stateByEngine.get("flink");
        assertEquals(
                pattern.equals("insert") ? generators * RECORDS + 1 : KEYS + 1,
                flink.size(),
                "every key, plus the row count");
        if (pattern.equals("update")) {
            long changed = flink.entrySet().stream()
                    .filter(e -> Keys.isExisting(e.getKey())
                            && !e.getValue()
                                    .equals(describe(
                                            RecordGenerator.prefill(Keys.existingIndex(e.getKey()))
                                                    .toString(),
                                            100)))
                    .count();
            assertTrue(changed > KEYS / 2, "the updates changed most keys: " + changed);
        }
        assertEquals(flink, stateByEngine.get("spark"), "Spark left another state than Flink");
        assertEquals(flink, stateByEngine.get("apex"), "Apex left another state than Flink");
    }

    /** The arguments of a bounded run of {@code engine} against {@code postgres}, parallelism 2, then {@code extra}. */
    static String[] boundedRun(
            String engine, String pattern, int generators, ServerState postgres, Path out, String... extra) {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--engine",
                engine,
                "--db",
                "postgresql",
                "--pattern",
                pattern,
                "--records",
                Integer.toString(RECORDS),
                "--run-token",
                Integer.toString(RUN_TOKEN),
                "--seed",
                Long.toString(SEED),
                "--keys",
                Integer.toString(KEYS),
                "--blob",
                "100",
                "--parallelism",
                "2",
                "--generator-parallelism",
                Integer.toString(generators),
                "--duration",
                "120s",
                "--warmup",
                "0s",
                "--metrics-port",
                "0",
                "--out",
                out.toString()));
        args.addAll(TestRuns.postgresArgs(postgres));
        args.addAll(List.of(extra));
        return args.toArray(String[]::new);
    }

    @Test
    void theComparisonUpToRoundingSeesEveryOtherDifference() {
        String stored = "SensorRecord[id=e00000000000, int1=8965, int2=6756, int3=6544, double1=-6.168864180241432,"
                + " double2=29.378910033941324, double3=-32.15338895278287] blob=100";
        Map<String, String> state = Map.of("e00000000000", stored, "rows", "1");
        assertSameStateUpToRounding(
                state,
                Map.of("e00000000000", stored.replace("-32.15338895278287", "-32.153388952782876"), "rows", "1"),
                "last bits");
        for (String[] change : new String[][] {
            {"int2=6756", "int2=6757"},
            {"29.378910033941324", "29.3789100339"},
            {"blob=100", "blob=99"},
            {"e00000000000,", "e00000000001,"}
        }) {
            Map<String, String> other = Map.of("e00000000000", stored.replace(change[0], change[1]), "rows", "1");
            assertThrows(AssertionFailedError.class, () -> assertSameStateUpToRounding(state, other, "x"), change[1]);
        }
        assertThrows(
                AssertionFailedError.class,
                () -> assertSameStateUpToRounding(state, Map.of("e00000000000", stored, "rows", "2"), "x"));
    }

    /**
     * Asserts that {@code actual} is {@code expected} but for the last bits of its doubles: the
     * state of a run whose updates of a key may have been added in another order (Spark across
     * executors). Keys, integers and BLOB lengths must be equal.
     */
    static void assertSameStateUpToRounding(Map<String, String> expected, Map<String, String> actual, String message) {
        assertEquals(expected.keySet(), actual.keySet(), message);
        for (String key : expected.keySet()) {
            String want = expected.get(key);
            String got = actual.get(key);
            assertEquals(
                    DOUBLE.matcher(want).replaceAll("$1"), DOUBLE.matcher(got).replaceAll("$1"), message + ": " + key);
            List<Double> wanted = doubles(want);
            List<Double> found = doubles(got);
            for (int i = 0; i < wanted.size(); i++) {
                double a = wanted.get(i);
                double b = found.get(i);
                assertTrue(
                        Math.abs(a - b) <= 1e-12 * Math.max(1, Math.max(Math.abs(a), Math.abs(b))),
                        message + ": " + key + ": " + want + " vs " + got);
            }
        }
    }

    private static List<Double> doubles(String value) {
        return DOUBLE.matcher(value)
                .results()
                .map(m -> Double.parseDouble(m.group(2)))
                .toList();
    }

    private static final java.util.regex.Pattern DOUBLE =
            java.util.regex.Pattern.compile("(double\\d=)(-?[0-9.]+(?:E-?[0-9]+)?)");

    /** Every key the run can have touched, with its values and BLOB length, plus the row count. */
    static Map<String, String> snapshot(Pattern pattern, int generators) {
        Map<String, String> state = new TreeMap<>();
        try (Database db = TestServers.open("postgresql")) {
            state.put("rows", Long.toString(db.countRows()));
            if (pattern == Pattern.INSERT) {
                for (int instance = 0; instance < generators; instance++) {
                    for (long i = 0; i < RECORDS; i++) {
                        put(state, db, Keys.fresh(RUN_TOKEN, instance, i));
                    }
                }
            } else {
                for (long i = 0; i < KEYS; i++) {
                    put(state, db, Keys.existing(i));
                }
            }
        }
        return state;
    }

    private static void put(Map<String, String> state, Database db, String id) {
        StoredRecord stored = db.read(id).orElseThrow(() -> new AssertionError(id + " is missing"));
        state.put(id, describe(stored.record().toString(), stored.blob().length));
    }

    private static String describe(String record, int blobLength) {
        return record + " blob=" + blobLength;
    }
}
