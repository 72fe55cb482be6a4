package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.streambench.db.Databases;
import org.streambench.servers.LocalServers;
import org.streambench.servers.TestServers;

/** Bad input: one line saying what is wrong and how to fix it, exit code 2, no result folder. */
class BadInputTest {

    @TempDir
    Path tmp;

    private void assertRejected(String expectedFragment, String... options) {
        assertRejected(List.of(expectedFragment), options);
    }

    /** The one-line refusal holds every fragment (one refused run where each takes seconds to find the fault). */
    private void assertRejected(List<String> expectedFragments, String... options) {
        Path out = tmp.resolve("out");
        List<String> args = new ArrayList<>(List.of("run"));
        args.addAll(List.of(options));
        for (String[] fallback : new String[][] {{"--duration", "2s"}, {"--warmup", "1s"}, {"--metrics-port", "0"}}) {
            if (!args.contains(fallback[0])) {
                args.addAll(List.of(fallback));
            }
        }
        args.addAll(List.of("--out", out.toString()));
        String err = oneLineRefusal(CliResult.bench(args.toArray(String[]::new)));
        for (String expectedFragment : expectedFragments) {
            assertTrue(err.contains(expectedFragment), "'" + expectedFragment + "' not in: " + err);
        }
        assertFalse(Files.exists(out), "no result folder may be left behind");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--engine-setting|batchIntervalMillis=100|engine flink has no setting 'batchIntervalMillis'",
                "--records|-3|--records '-3' must be a positive whole number",
                "--run-token|999999999|--run-token '999999999' must be a whole number from 0 to 524287",
                "--pattern|delete|unknown pattern 'delete'; use one of read, insert, update, mixed",
                "--blob|abc|--blob 'abc' must be a positive whole number of bytes",
                "--blob|0|--blob '0' must be a positive whole number",
                "--blob|-5|--blob '-5' must be a positive whole number",
                "--blob|1.5|--blob '1.5' must be a positive whole number",
                "--rate|fast|--rate 'fast' must be a number >= 0",
                "--blob|١٠٠|--blob '١٠٠' must be a positive whole number",
                "--records|0|--records '0' must be a positive whole number; leave --records out for a run timed by"
                        + " --duration",
                "--rate|1e30|--rate '1e30' must be a number >= 0 of records per second (0 = unthrottled), in plain"
                        + " digits",
                "--rate|200000000|--rate 200000000 is more than 100,000,000 records/s",
                "--keys|0|--keys '0' must be a positive whole number",
                "--parallelism|none|--parallelism 'none' must be a positive whole number",
                "--duration|5x|--duration '5x' is not a duration; write it like 30s",
                "--job-heap|lots|--job-heap 'lots' must look like 512m or 2g",
                "--duration|99999999999999999999s|--duration '99999999999999999999s' is too long",
                "--duration|1152921504606846977h|--duration '1152921504606846977h' is too long",
                "--metrics-port|99999|--metrics-port '99999' must be a port from 0 (any free port) to 65535",
                "--db-port|99999|--db-port '99999' must be a port from 1 to 65535",
                "--db-port|-1|--db-port '-1' must be a port from 1 to 65535",
                "--parallelism|100000|--parallelism 100000 is more than 128",
                "--generator-parallelism|100000|--generator-parallelism must be at most 128",
                "--db-setting|foo=bar|database postgresql has no setting 'foo'; its settings: url, user, password, table",
                "--db-setting|table=bad-name|postgresql: table 'bad-name' must be a plain SQL identifier",
                "--db-password|secret|--db-user and --db-password go with --db-url",
                "--warmup|steady:5s|--warmup steady:5s: the maximum must be at least 10 s",
                "--warmup|steady:x|--warmup steady:MAX 'x' is not a duration",
                "--db-profile|slow|--db-profile 'slow' is not a profile; use one of: default, fast",
                "--blob|2147483648|--blob 2147483648 is larger than 16 MiB (16777216 bytes)",
                "--job-heap|0m|--job-heap '0m' is too small for an engine's JVM; give at least 64m",
                "--startup-timeout|0s|--startup-timeout '0s' gives the job no time; give at least 1s",
                "--stop-timeout|0|--stop-timeout '0' gives the job no time; give at least 1s",
                "--collector-bind|192.0.2.1|--collector-bind 192.0.2.1: the runner cannot listen there",
                "--access|batch:0|--access 'batch:0': the size must be a whole number from 1 to 100000",
                "--access|async:-1|--access 'async:-1' must be sync, batch:N[,linger=20ms] or async:K",
                "--access|batch:abc|--access 'batch:abc' must be sync, batch:N[,linger=20ms] or async:K",
                "--access|async:4,linger=5ms|; linger goes with batch only",
                "--access|sync,linger=5ms|; linger goes with batch only",
                "--access|pipeline:8|--access 'pipeline:8' must be sync, batch:N[,linger=20ms] or async:K",
                "--key-distribution|zipf|--key-distribution: key distribution 'zipf' must be uniform, zipfian[:S] or"
                        + " latest[:S] (0 < S <= 10) or hotspot:F/P (fractions between 0 and 1)",
                "--key-distribution|hotspot:0.2|--key-distribution: key distribution 'hotspot:0.2' must be uniform",
                "--guarantee|maybe|--guarantee 'maybe' must be one of none, at-least-once, exactly-once",
                "--checkpoint-interval|5ms|--checkpoint-interval '5ms' is shorter than 10ms",
                "--checkpoint-interval|1.5s|--checkpoint-interval '1.5s' is not a duration; write it like 500ms",
                "--checkpoint-interval|2h|--checkpoint-interval '2h' is not a duration",
                "--fault|kill@3s|--fault 'kill@3s' must be fail-task@TIME",
                "--fault|fail-task@١s|--fault 'fail-task@١s' must be fail-task@TIME",
                "--fault|fail-task@3s|--fault fail-task@3s comes after the run's end (3 s of warm-up and measurement)",
                "--fault|kill-db@1s|--fault 'kill-db@1s' must be fail-task@TIME, fail-checkpoint@TIME, kill-worker@TIME,"
                        + " kill-db@TIME,down=TIME",
                "--fault|freeze-db@1s,for=0s|--fault 'freeze-db@1s,for=0s': its for must be more than 0",
                "--fault|kill-db@1s,down=2s|--fault kill-db@1s,down=2s is not over before the run's end (3 s of warm-up"
                        + " and measurement)",
            })
    void rejectsABadValue(String option, String value, String message) {
        assertRejected(message, option, value);
    }

    /** A fault on the database kills or stops the server and starts it again: only the suite's own. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "postgresql|--db-url|jdbc:postgresql://127.0.0.1:1/x|--fault kill-db is for the suite's own postgresql"
                        + " server, which it can stop and start again; leave out --db-url",
                "noop|--db-setting|callMicros=1|--fault freeze-db is for the suite's own noop server, which it can stop and"
                        + " start again; the suite has none",
            })
    void rejectsAFaultOnADatabaseServerTheSuiteDidNotStart(
            String database, String option, String value, String message) {
        String fault = message.contains("kill-db") ? "kill-db@1s,down=1s" : "freeze-db@1s,for=1s";
        assertRejected(message, "--db", database, option, value, "--fault", fault, "--duration", "5s");
    }

    /** An unknown engine or database is refused with the registries' names, whatever folders the tree holds. */
    @Test
    void anUnknownEngineOrDatabaseIsRefusedWithTheRegisteredNames() {
        assertRejected(
                "unknown engine 'storm'; use one of: " + String.join(", ", Registries.engines()), "--engine", "storm");
        assertRejected(
                "unknown database 'oracle'; use one of: "
                        + String.join(", ", Databases.names().stream().sorted().toList()),
                "--db",
                "oracle");
    }

    /** A host:port list the connector cannot read: one line before anything starts, not a stack trace. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {
                "cassandra|127.0.0.1:abc|cassandra: url '127.0.0.1:abc' must be host[:port],host[:port],..."
                        + " ('127.0.0.1:abc' has no port from 1 to 65535 after its host)",
                "hbase|zk1,127.0.0.1:99999|hbase: url 'zk1,127.0.0.1:99999' must be host[:port]",
                "cassandra|,|cassandra: url ',' must be host[:port],host[:port],... ('' has no host)",
            })
    void rejectsAHostListTheConnectorCannotRead(String database, String url, String message) {
        assertRejected(message, "--db", database, "--db-url", url);
    }

    /** Checked before anything starts: no local server is started, nothing is written under the work folder. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "table=bad-name|postgresql|postgresql: table 'bad-name' must be a plain SQL identifier",
                "readConsistency=SOME|cassandra|cassandra: readConsistency 'SOME' is no consistency level",
                "writeConcern=w9x|mongodb|mongodb: unknown write concern 'w9x'",
                "table=a:b:c|hbase|hbase: table name 'a:b:c' is not a legal HBase table name",
                "nosuch=1|mariadb|database mariadb has no setting 'nosuch'",
                "table=select|postgresql|postgresql: table 'select' is a reserved word of postgresql's SQL",
                "table=Key|mariadb|mariadb: table 'Key' is a reserved word of mariadb's SQL",
                "keyspace=keyspace|cassandra|cassandra: keyspace 'keyspace' is a reserved word of cassandra's CQL",
                "password=s3cret|postgresql|give the password with --db-password (or --db-password-file) and --db-url,"
                        + " not --db-setting password",
                "user=admin|mariadb|give the user with --db-user and --db-url, not --db-setting user",
            })
    void rejectsABadConnectorSettingBeforeStartingAServer(String setting, String database, String message)
            throws Exception {
        TestRuns.withWork(
                tmp.resolve("work"), () -> assertRejected(message, "--db", database, "--db-setting", setting));
        assertFalse(Files.exists(tmp.resolve("work")), "nothing was started or written under the work folder");
    }

    /** bench db start checks its port as bench run checks --db-port: nothing is started, no stack trace. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "postgresql|80|--port 80: the suite's local servers take ports from 1024",
                "cassandra|65535|--port 65535: cassandra also binds port 65536, beyond 65535; choose a lower port",
                "hbase|65534|--port 65534: hbase also binds port 65536, beyond 65535",
            })
    void rejectsABadLocalServerPort(String database, String port, String message) throws Exception {
        TestRuns.withWork(tmp.resolve("work"), () -> {
            CliResult result = CliResult.bench("db", "start", database, "--port", port);
            String err = oneLineRefusal(result);
            assertTrue(err.contains(message), err);
        });
        assertFalse(Files.exists(tmp.resolve("work").resolve("servers")), "no server was started");
    }

    /** A run that would measure nothing, or whose warm-up and window overflow a count of seconds. */
    @Test
    void rejectsARunThatMeasuresNothingOrNeverEnds() {
        assertRejected(
                "--duration '0s' measures nothing; give at least 1s", "--duration", "0s", "--warmup", "steady:10s");
        assertRejected(
                "--duration and --warmup together must be at most 720h (30 days)",
                "--duration",
                "596523h",
                "--warmup",
                "596522h");
        assertRejected(
                "--duration and --warmup together must be at most 720h (30 days)",
                "--duration",
                "721h",
                "--warmup",
                "steady");
    }

    /** User input echoed in a refusal is escaped: a newline in a setting does not break the one line. */
    @Test
    void aRefusalEchoesAControlCharacterEscaped() throws Exception {
        TestRuns.withWork(
                tmp.resolve("work"),
                () -> assertRejected(
                        "postgresql: table 'a\\nb' must be a plain SQL identifier",
                        "--db",
                        "postgresql",
                        "--db-setting",
                        "table=a\nb"));
    }

    /** A result folder inside the suite's work folder (a server's data folder) is refused; nothing is started or written. */
    @Test
    void rejectsAResultFolderInsideTheWorkFolder() throws Exception {
        Path work = tmp.resolve("work");
        Path dataFolder = Files.createDirectories(work.resolve("servers").resolve("postgresql"));
        for (String command : List.of("run", "capacity", "ceiling", "matrix", "quickstart")) {
            Path out = dataFolder.resolve("res-" + command);
            List<String> args = new ArrayList<>(List.of(command, "--out", out.toString()));
            if (command.equals("capacity")) {
                args.addAll(List.of("--slo", "p99=5s"));
            }
            TestRuns.withWork(work, () -> {
                String err = oneLineRefusal(CliResult.bench(args.toArray(String[]::new)));
                assertTrue(err.contains("--out " + out + " is inside the suite's work folder " + work), err);
            });
            assertFalse(Files.exists(out), command + " wrote into the server's data folder");
        }
        try (var left = Files.list(dataFolder)) {
            assertEquals(List.of(), left.toList(), "no server was started");
        }
    }

    @Test
    void rejectsALocalServerPortBesideAnExternalServer() {
        assertRejected(
                "--db-port is the port of the suite's own server, which --db-url replaces; give the port in the"
                        + " --db-url and leave out --db-port",
                "--db-url",
                "jdbc:postgresql://127.0.0.1:1/none",
                "--db-port",
                "45433");
    }

    /** Exactly-once needs a database that can commit a checkpoint's writes with its id, and writes at commit. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "flink|ignite|sync|exactly-once|--guarantee exactly-once commits each checkpoint's writes together"
                        + " with the checkpoint's id, and ignite cannot commit them so here; give a database that can"
                        + " (cassandra, hbase, postgresql, mariadb, hazelcast, redis) or --guarantee at-least-once",
                "flink|postgresql|async:4|exactly-once|so --access async has no calls to overlap; give sync or batch:N",
                "flink|postgresql|sync|none|--fault fail-checkpoint@1s fails a checkpoint, and --guarantee none takes"
                        + " none",
            })
    void rejectsExactlyOnceWhereItCannotHoldAndACheckpointFaultWithoutCheckpoints(
            String engine, String database, String access, String guarantee, String message) {
        assertRejected(
                message,
                "--engine",
                engine,
                "--db",
                database,
                "--pattern",
                "update",
                "--access",
                access,
                "--guarantee",
                guarantee,
                "--fault",
                "fail-checkpoint@1s",
                "--duration",
                "5s");
    }

    @ParameterizedTest
    @CsvSource({"exactly-once, container_local", "at-least-once, thread_local"})
    void rejectsAGuaranteeOnApexWhereTheGeneratorWouldBeDeployedAgain(String guarantee, String locality) {
        assertRejected(
                "--guarantee " + guarantee + " on apex needs streamLocality none: with " + locality
                        + " a failed processing operator takes the generator with it",
                "--engine",
                "apex",
                "--engine-setting",
                "streamLocality=" + locality,
                "--guarantee",
                guarantee);
    }

    @Test
    void rejectsAKeyDistributionThatPicksNothingOrFromTooManyKeys() {
        assertRejected(
                "--key-distribution zipfian picks among existing keys, and every record of an insert run has a new one",
                "--pattern",
                "insert",
                "--key-distribution",
                "zipfian");
        assertRejected(
                "--key-distribution: the zipfian key distribution takes at most 2147483647 keys",
                "--pattern",
                "update",
                "--keys",
                "3000000000",
                "--key-distribution",
                "zipfian:1.1");
    }

    @Test
    void rejectsAGuaranteeOnYarnBeforeLookingForTheCluster() {
        assertRejected(
                "--guarantee at-least-once is not built for --cluster yarn with apex yet (on YARN: flink"
                        + " at-least-once, flink exactly-once, spark at-least-once, spark exactly-once, apex"
                        + " exactly-once; every guarantee the engine gives in a job of its own JVM)",
                "--engine",
                "apex",
                "--cluster",
                "yarn",
                "--guarantee",
                "at-least-once");
        assertRejected(
                "--guarantee none with --fault is not built for --cluster yarn with flink yet",
                "--engine",
                "flink",
                "--cluster",
                "yarn",
                "--fault",
                "fail-task@1s");
    }

    /** A killed worker is a JVM the engine replaces: not in a local job, and only where its guarantee holds then. */
    @Test
    void rejectsAKilledWorkerInALocalJobAndWhereTheEngineWouldStartItsGeneratorsOver() {
        assertRejected(
                "--fault kill-worker@1s kills a worker's JVM for the engine to replace it, and a local job is one"
                        + " JVM; give --cluster yarn, or --fault fail-task@TIME",
                "--guarantee",
                "at-least-once",
                "--fault",
                "kill-worker@1s",
                "--duration",
                "5s");
        assertRejected(
                "--fault kill-worker@1s with --guarantee exactly-once is not built for spark yet: a generator instance"
                        + " restarted in the JVM that replaces a killed one would start over (see docs/guarantees.md);"
                        + " give --fault fail-task@TIME",
                "--engine",
                "spark",
                "--cluster",
                "yarn",
                "--guarantee",
                "exactly-once",
                "--fault",
                "kill-worker@1s",
                "--duration",
                "5s");
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "postgresql|async:5000|1|opens 5002 postgresql connections (5001 per processing instance, one for each"
                        + " call in flight, and the runner's), more than the suite's own postgresql server takes"
                        + " (max_connections 200); give async:198 or fewer",
                "mariadb|async:100|2|opens 203 mariadb connections (101 per processing instance, one for each call in"
                        + " flight, and the runner's), more than the suite's own mariadb server takes (max_connections"
                        + " 200); give async:98 or fewer",
            })
    void rejectsMoreConnectionsThanTheSuitesOwnServerTakes(
            String database, String access, String parallelism, String message) throws Exception {
        TestRuns.withWork(
                tmp.resolve("work"),
                () -> assertRejected(message, "--db", database, "--access", access, "--parallelism", parallelism));
        assertFalse(Files.exists(tmp.resolve("work")), "nothing was started or written under the work folder");
    }

    /**
     * bench capacity knows the engine's latency floor before it starts: a Spark batch interval above
     * the objective is refused, a Flink buffer timeout above it is warned of, naming the setting.
     */
    @Test
    void capacityNamesAnEngineSettingThatPutsAFloorAboveTheObjective() throws IOException {
        Path out = tmp.resolve("capacity");
        String refused = oneLineRefusal(CliResult.bench(
                "capacity", "--engine", "spark", "--db", "noop", "--slo", "p99=50ms", "--out", out.toString()));
        assertTrue(
                refused.contains("spark's batchIntervalMillis of 1000 ms is a floor under every record's latency")
                        && refused.contains(
                                "no rate can meet it; give --engine-setting batchIntervalMillis=N below" + " 50"),
                refused);
        CliResult warned = CliResult.bench(
                "capacity",
                "--engine",
                "flink",
                "--db",
                "noop",
                "--db-setting",
                "callMicros=1000",
                "--slo",
                "p99=50ms",
                "--dry-run",
                "--out",
                out.toString());
        assertEquals(0, warned.code(), warned.toString());
        assertTrue(
                warned.err().strip().lines().count() == 1
                        && warned.err().contains("bench: warning: flink's bufferTimeoutMillis of 100 ms is a floor")
                        && warned.err().contains("--engine-setting bufferTimeoutMillis=N below 50 (as low as 0)"),
                warned.toString());
        CliResult lowTimeout = CliResult.bench(
                "capacity",
                "--engine",
                "flink",
                "--db",
                "noop",
                "--engine-setting",
                "bufferTimeoutMillis=0",
                "--slo",
                "p99=50ms",
                "--dry-run",
                "--out",
                out.toString());
        assertEquals(0, lowTimeout.code(), lowTimeout.toString());
        Files.writeString(Files.createDirectories(out).resolve("result.json"), "{}");
        String refusedAfterAll = oneLineRefusal(CliResult.bench(
                "capacity", "--engine", "flink", "--db", "noop", "--slo", "p99=50ms", "--out", out.toString()));
        assertTrue(
                refusedAfterAll.contains("is not empty"), "a refusal, not the warning before it: " + refusedAfterAll);
        Files.delete(out.resolve("result.json"));
        Files.delete(out);
        assertEquals("", lowTimeout.err(), "no warning without a floor above the objective");
        CliResult matrix = CliResult.bench(
                "matrix",
                "--engines",
                "flink,spark",
                "--databases",
                "noop",
                "--capacity",
                "--slo",
                "p99=50ms",
                "--dry-run",
                "--out",
                out.toString());
        assertTrue(
                oneLineRefusal(matrix).contains("spark's batchIntervalMillis of 1000 ms is a floor"),
                matrix.toString());
        assertFalse(Files.exists(out), "no result folder may be left behind");
    }

    @Test
    void rejectsTheFastProfileWhereTheSuiteStartsNoServer() {
        assertRejected(
                "--db-profile fast sets up the suite's own servers; an external server (--db-url) runs as it was"
                        + " configured",
                "--db-profile",
                "fast",
                "--db-url",
                "jdbc:postgresql://127.0.0.1:1/none");
        assertRejected(
                "--db-profile fast sets up the suite's own servers; noop has none",
                "--db-profile",
                "fast",
                "--db",
                "noop");
    }

    @Test
    void rejectsAPrefillThatCannotFitTheFreeDisk() throws Exception {
        TestRuns.withWork(
                tmp.resolve("work"),
                () -> assertRejected(
                        "for the prefill under",
                        "--db",
                        "postgresql",
                        "--pattern",
                        "update",
                        "--keys",
                        "100000000",
                        "--blob",
                        "16000000"));
        assertFalse(Files.exists(tmp.resolve("work")));
    }

    @Test
    void rejectsALocalServerPortInUseNamingTheRightOption() throws Exception {
        try (ServerSocket taken = new ServerSocket(0)) {
            TestRuns.withWork(
                    tmp.resolve("work"),
                    () -> assertRejected(
                            "port " + taken.getLocalPort()
                                    + " is in use; start postgresql on another one with --db-port",
                            "--db",
                            "postgresql",
                            "--db-port",
                            Integer.toString(taken.getLocalPort())));
        }
    }

    @Test
    void rejectsAnUnwritableResultFolder() throws IOException {
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        for (Path out : List.of(file.resolve("run"), Path.of("/proc/streambench/run"))) {
            CliResult result = CliResult.bench(
                    "run",
                    "--db",
                    "noop",
                    "--duration",
                    "2s",
                    "--warmup",
                    "1s",
                    "--metrics-port",
                    "0",
                    "--out",
                    out.toString());
            assertEquals(2, result.code(), result.toString());
            assertEquals(1, result.err().strip().lines().count(), result.err());
            assertTrue(result.err().contains("cannot write the result folder " + out + " ("), result.err());
            assertTrue(result.err().contains("choose another --out"), result.err());
        }
    }

    /** Spec files: actions are no settings, keys appear once, KEY=VALUE options take a mapping. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "help: true|unknown key 'help'",
                "version: true|unknown key 'version'",
                "db: noop\\ndb: postgresql|Duplicate field 'db'",
                "engine-setting: batchIntervalMillis=500|'engine-setting' must be a mapping of names to values",
                "blob: [1, 2]|'blob' must be a single value",
                "db: noop\\nduration:|'duration' has no value; give one or leave the key out",
                "db: noop\\nduration: ''|'duration' has no value",
                "db: noop\\n\\tblob: 10|is not valid YAML: line 2, column 1: found character '\\t(TAB)' that cannot start"
                        + " any token",
            })
    void rejectsABadSpecFile(String yaml, String message) throws IOException {
        Path spec = Files.writeString(
                tmp.resolve("spec.yaml"), yaml.replace("\\n", "\n").replace("\\t", "\t") + "\n");
        assertRejected(message, "--spec", spec.toString());
    }

    /** Each hint names a command that exists. */
    @Test
    void hintsNameTheCommandThatWasMistyped() {
        CliResult top = CliResult.bench("--frobnicate");
        assertTrue(top.err().contains("(see: ./bench --help)"), top.toString());
        CliResult dbStart = CliResult.bench("db", "start");
        assertEquals(2, dbStart.code(), dbStart.toString());
        assertTrue(dbStart.err().contains("(see: ./bench db start --help)"), dbStart.toString());
        CliResult port = CliResult.bench("db", "start", "postgresql", "--port", "99999");
        assertEquals(2, port.code(), port.toString());
        assertTrue(port.err().contains("--port '99999' must be a port from 1 to 65535"), port.toString());
        CliResult quickstart = CliResult.bench(
                "quickstart",
                "--metrics-port",
                "99999",
                "--out",
                tmp.resolve("q").toString());
        assertEquals(2, quickstart.code(), quickstart.toString());
        assertTrue(quickstart.err().contains("--metrics-port '99999' must be a port"), quickstart.toString());
        assertFalse(Files.exists(tmp.resolve("q")));
    }

    @Test
    void yarnRejectsAConfigurationFolderWithoutYarnSiteOrWithAResourceManagerThatDoesNotAnswer() throws Exception {
        Path work = tmp.resolve("work");
        Path empty = Files.createDirectories(tmp.resolve("empty-conf"));
        TestRuns.withWork(work, () -> {
            CliResult noSite = CliResult.bench("yarn", "status", "--yarn-conf", empty.toString());
            assertEquals(2, noSite.code(), noSite.toString());
            assertEquals(
                    "bench: --yarn-conf " + empty + ": no yarn-site.xml there; give the folder that holds the"
                            + " cluster's yarn-site.xml and core-site.xml",
                    noSite.err().trim());
        });
        {
            int port = TestServers.freePort(); // free again: nothing listens there
            Path conf = Files.createDirectories(tmp.resolve("unreachable-conf"));
            Files.writeString(
                    conf.resolve("yarn-site.xml"),
                    "<configuration><property><name>yarn.resourcemanager.webapp.address</name>" + "<value>127.0.0.1:"
                            + port + "</value></property></configuration>");
            TestRuns.withWork(work, () -> {
                CliResult unreachable = CliResult.bench("yarn", "status", "--yarn-conf", conf.toString());
                assertEquals(2, unreachable.code(), unreachable.toString());
                assertTrue(
                        unreachable
                                .err()
                                .contains("the YARN ResourceManager at http://127.0.0.1:" + port
                                        + " (--yarn-conf " + conf + ") is not reachable; start the suite's own with"
                                        + " ./bench yarn start"),
                        unreachable.toString());
                assertEquals(1, unreachable.err().trim().lines().count(), unreachable.toString());
            });
        }
        assertFalse(Files.exists(work), "a rejected yarn command wrote to the work folder");
    }

    @Test
    void aRunOrMatrixOnYarnIsRejectedWithoutAReachableYarn() throws Exception {
        Path work = tmp.resolve("work");
        Path out = tmp.resolve("out");
        TestRuns.withWork(work, () -> {
            CliResult noYarn = CliResult.bench(
                    "run", "--engine", "spark", "--db", "noop", "--cluster", "yarn", "--out", out.toString());
            assertEquals(2, noYarn.code(), noYarn.toString());
            assertEquals(
                    "bench: --cluster yarn: no YARN to submit to; start the suite's own with ./bench yarn start,"
                            + " or give --yarn-conf DIR (or set HADOOP_CONF_DIR)",
                    noYarn.err().trim());
            CliResult badCluster =
                    CliResult.bench("run", "--db", "noop", "--cluster", "kubernetes", "--out", out.toString());
            assertEquals(2, badCluster.code(), badCluster.toString());
            assertEquals(
                    "bench: --cluster 'kubernetes' must be local or yarn",
                    badCluster.err().trim());
        });
        {
            // a port nothing listens on: a ResourceManager that is not reachable
            int resourceManagerPort = TestServers.freePort();
            Path conf = Files.createDirectories(tmp.resolve("conf"));
            Files.writeString(
                    conf.resolve("yarn-site.xml"),
                    "<configuration><property><name>yarn.resourcemanager.webapp.address</name><value>127.0.0.1:"
                            + resourceManagerPort + "</value></property></configuration>");
            TestRuns.withWork(work, () -> {
                CliResult unreachable = CliResult.bench(
                        "run",
                        "--engine",
                        "spark",
                        "--db",
                        "noop",
                        "--cluster",
                        "yarn",
                        "--yarn-conf",
                        conf.toString(),
                        "--out",
                        out.toString());
                assertEquals(2, unreachable.code(), unreachable.toString());
                assertEquals(1, unreachable.err().trim().lines().count(), unreachable.toString());
                assertTrue(unreachable.err().contains("is not reachable"), unreachable.toString());
                CliResult matrix = CliResult.bench(
                        "matrix",
                        "--engines",
                        "flink,apex",
                        "--databases",
                        "postgresql,hbase",
                        "--cluster",
                        "yarn",
                        "--yarn-conf",
                        conf.toString(),
                        "--out",
                        out.toString());
                assertEquals(2, matrix.code(), matrix.toString());
                assertEquals(1, matrix.err().trim().lines().count(), matrix.toString());
                assertTrue(matrix.err().contains("is not reachable"), matrix.toString());
            });
        }
        assertFalse(Files.exists(out), "a rejected run wrote its result folder");
        assertFalse(Files.exists(work.resolve("servers")), "a rejected run started a server");
    }

    @Test
    void yarnStartRejectsAPortRangeInUseBeforeStartingAnything() throws Exception {
        Path work = tmp.resolve("work");
        try (ServerSocket taken = new ServerSocket(0)) {
            int first = taken.getLocalPort() - 3;
            TestRuns.withWork(work, () -> {
                CliResult start = CliResult.bench("yarn", "start", "--port", Integer.toString(first));
                assertEquals(2, start.code(), start.toString());
                assertTrue(
                        start.err()
                                .contains("is in use; YARN needs ports " + first + "-" + (first + 7)
                                        + ": choose others with --port"),
                        start.toString());
            });
        }
        assertFalse(Files.exists(work.resolve("yarn")), "a rejected yarn start wrote its folder");
    }

    @Test
    void rejectsADurationNotLongerThanTheWarmup() {
        assertRejected(
                "--duration (5 s) must be longer than --warmup (5 s)",
                "--duration",
                "5s",
                "--warmup",
                "5s",
                "--db",
                "noop");
    }

    /** A command that only groups others, given none or a mistyped one, names the commands it has. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "''|bench needs a command: run, matrix, capacity, ceiling, report, quickstart, db, monitor, calibrate, yarn, swarm, help (see: ./bench --help)",
                "bogus|'bogus' is not a command of bench; use one of: run, matrix, capacity, ceiling, report, quickstart, db,",
                "db|bench db needs a command: start, stop, status (see: ./bench db --help)",
                "yarn strat|'strat' is not a command of bench yarn; use one of: start, stop, status (see: ./bench yarn --help)",
                "monitor|bench monitor needs a command: start, stop, status, scrape (see: ./bench monitor --help)"
            })
    void aMissingOrMistypedCommandIsAnsweredWithTheCommandsThereAre(String line, String message) {
        assertOneLineStartingWith(message, line.isEmpty() ? new String[0] : line.split(" "));
    }

    /** A missing argument is named with what it may be. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "report|bench report needs DIR: a matrix folder or a folder of run folders, or a .zip archive of one (as study/ keeps them) (see:"
            })
    void aMissingArgumentIsNamedWithWhatItMayBe(String line, String message) {
        assertOneLineStartingWith(message, line.split(" "));
    }

    /** ... and the databases it may be are the local servers there are. */
    @Test
    void aMissingDatabaseIsNamedWithTheLocalServers() {
        assertOneLineStartingWith(
                "bench db start needs DATABASE: " + String.join(", ", LocalServers.supported()) + " (see:",
                "db",
                "start");
    }

    private static void assertOneLineStartingWith(String message, String... args) {
        String err = oneLineRefusal(CliResult.bench(args));
        assertTrue(err.startsWith("bench: " + message), err);
    }

    /** The error of bad input: exit 2 and one line from bench. */
    private static String oneLineRefusal(CliResult result) {
        assertEquals(2, result.code(), result.toString());
        String err = result.err().strip();
        assertEquals(1, err.lines().count(), "exactly one line: " + err);
        assertTrue(err.startsWith("bench: "), err);
        return err;
    }

    /** bench capacity's own options, checked before a server or job starts; nothing written. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--slo|50ms|--slo '50ms' must look like p99=50ms",
                "--slo|p95=50ms|--slo 'p95=50ms' must look like p99=50ms",
                "--slo|p99=0ms|--slo 'p99=0ms' must be from 1 us to 1 hour",
                "--parallelisms|1,x|--parallelisms 'x' must be a positive whole number",
                "--parallelisms|2,2|--parallelisms names a parallelism twice: 2,2",
                "--parallelisms|500|--parallelisms 500 is more than 128",
                "--max-steps|0|--max-steps '0' must be a positive whole number",
                "--max-time|0s|--max-time '0s' leaves no time for a step",
                "--rate|100|bench capacity sets the rate of every step itself; leave out --rate",
                "--parallelism|2|bench capacity takes --parallelisms (a list), not --parallelism"
            })
    void capacityRejectsABadSearch(String option, String value, String message) {
        Path out = tmp.resolve("capacity");
        List<String> args = new ArrayList<>(List.of(
                "capacity",
                "--engine",
                "flink",
                "--db",
                "noop",
                "--pattern",
                "insert",
                "--blob",
                "1",
                "--duration",
                "2s",
                "--warmup",
                "1s",
                "--metrics-port",
                "0",
                "--out",
                out.toString()));
        if (!option.equals("--slo")) {
            args.addAll(List.of("--slo", "p99=50ms"));
        }
        args.addAll(List.of(option, value));
        String err = oneLineRefusal(CliResult.bench(args.toArray(String[]::new)));
        assertTrue(err.contains(message), "'" + message + "' not in: " + err);
        assertFalse(Files.exists(out), "no result folder may be left behind");
    }

    /** bench ceiling's own options, checked before a server or tool starts; nothing written. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--db|mongodb|database mongodb has no ceiling tool yet; those that have one: cassandra, hbase, postgresql, mariadb",
                "--db|oracle|unknown database 'oracle'",
                "--pattern|delete|unknown pattern 'delete'",
                "--threads|0|--threads '0' must be a positive whole number",
                "--threads|100|--threads 100 is more than 99",
                "--blob|0|--blob '0' must be a positive whole number",
                "--duration|0s|--duration '0s' measures nothing",
                "--keys|x|--keys 'x' must be a positive whole number"
            })
    void ceilingRejectsBadInput(String option, String value, String message) {
        Path out = tmp.resolve("ceiling");
        String err = oneLineRefusal(CliResult.bench("ceiling", option, value, "--out", out.toString()));
        assertTrue(err.contains(message), "'" + message + "' not in: " + err);
        assertFalse(Files.exists(out), "no result folder may be left behind");
    }

    /**
     * bench ceiling --access: a mode the database's tool cannot make as the connector does, more clients
     * than it takes, or too few keys for the distinct keys its clients use at a time; nothing written.
     */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "cassandra|async:30|300|latte: 300 keys for 2 threads; each thread updates keys of its own, at least 240",
                "postgresql|async:50|10000|pgbench (async:50 is 50 clients per thread): at most 99 threads",
                "mariadb|async:50|10000|sysbench (async:50 is 50 threads per thread): at most 99 threads",
                "hbase|batch:200|300|--keys 300 is fewer than the 400 distinct keys that 2 threads with --access batch:200",
                "postgresql|batch:0|10000|--access 'batch:0': the size must be a whole number from 1 to 100000"
            })
    void ceilingRejectsAnAccessModeItsToolCannotMake(String database, String access, String keys, String message) {
        Path out = tmp.resolve("ceiling");
        String err = oneLineRefusal(CliResult.bench(
                "ceiling",
                "--db",
                database,
                "--access",
                access,
                "--threads",
                "2",
                "--keys",
                keys,
                "--out",
                out.toString()));
        assertTrue(err.contains(message), "'" + message + "' not in: " + err);
        assertFalse(Files.exists(out), "no result folder may be left behind");
    }

    /**
     * bench run --ceiling: a database without a tool, more threads than the tool takes, or an access
     * mode it cannot run with them; nothing started or written.
     */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "mongodb|1|sync|database mongodb has no ceiling tool yet; those that have one: cassandra, hbase, postgresql,"
                        + " mariadb",
                "postgresql|100|sync|--ceiling runs one client per processing instance: at most 99, not --parallelism 100",
                "postgresql|2|async:50|pgbench (async:50 is 50 clients per thread): at most 99 threads"
            })
    void runWithCeilingRejectsWhatHasNoCeiling(String database, String parallelism, String access, String message) {
        Path out = tmp.resolve("run");
        String err = oneLineRefusal(CliResult.bench(
                "run",
                "--db",
                database,
                "--parallelism",
                parallelism,
                "--access",
                access,
                "--ceiling",
                "--out",
                out.toString()));
        assertTrue(err.contains(message), "'" + message + "' not in: " + err);
        assertFalse(Files.exists(out), "no result folder may be left behind");
    }

    /** bench matrix --ceiling: no database of the matrix has a tool, or more threads than the tools take; nothing written. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "mongodb|1|--ceiling: none of the matrix's databases has a ceiling tool; those that have one: cassandra,"
                        + " hbase, postgresql, mariadb",
                "postgresql,mongodb|100|--ceiling runs one client per processing instance: at most 99, not --parallelism"
                        + " 100"
            })
    void matrixWithCeilingRejectsWhatHasNoCeiling(String databases, String parallelism, String message) {
        Path out = tmp.resolve("matrix");
        String err = oneLineRefusal(CliResult.bench(
                "matrix",
                "--databases",
                databases,
                "--parallelism",
                parallelism,
                "--ceiling",
                "--out",
                out.toString()));
        assertTrue(err.contains(message), "'" + message + "' not in: " + err);
        assertFalse(Files.exists(out), "no result folder may be left behind");
    }

    /** bench matrix --capacity and its options, checked before anything starts; nothing written. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "--slo p99=50ms|--slo goes with --capacity",
                "--max-steps 3|--max-steps goes with --capacity",
                "--capacity|--capacity needs the objective, e.g. --slo p99=50ms",
                "--capacity --slo fast|--slo 'fast' must look like p99=50ms",
                "--capacity --slo p99=50ms --rate 100|bench matrix --capacity sets the rate of every step itself",
                "--capacity --slo p99=50ms --ceiling|--capacity and --ceiling: give one",
                "--capacity --slo p99=50ms --max-steps 0|--max-steps '0' must be a positive whole number",
                "--capacity --slo p99=50ms --time-budget 1h|--time-budget sizes single runs"
            })
    void matrixWithCapacityRejectsBadInput(String options, String message) {
        Path out = tmp.resolve("matrix");
        List<String> args = new ArrayList<>(List.of("matrix", "--databases", "postgresql", "--out", out.toString()));
        args.addAll(List.of(options.split(" ")));
        String err = oneLineRefusal(CliResult.bench(args.toArray(String[]::new)));
        assertTrue(err.contains(message), "'" + message + "' not in: " + err);
        assertFalse(Files.exists(out), "no result folder may be left behind");
    }

    @Test
    void rejectsAnUnknownOption() {
        assertRejected("Unknown option: '--frobnicate'", "--frobnicate");
    }

    /** A database that is not running: the error names it and says how to start it. */
    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "postgresql|jdbc:postgresql://127.0.0.1:%d/postgres",
                "mariadb|jdbc:mariadb://127.0.0.1:%d/streambench",
                "cassandra|127.0.0.1:%d",
                "hbase|127.0.0.1:%d",
                "mongodb|mongodb://127.0.0.1:%d",
            })
    void rejectsADatabaseThatIsNotRunning(String database, String urlFormat) throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String url = String.format(urlFormat, closedPort);
        assertRejected(
                List.of(
                        "cannot connect to " + database + " at " + url,
                        "start the suite's own with ./bench db start " + database),
                "--db",
                database,
                "--db-url",
                url);
    }

    @Test
    void rejectsAMetricsPortInUse() throws IOException {
        try (ServerSocket taken = new ServerSocket(0)) {
            assertRejected(
                    "choose another --metrics-port",
                    "--db",
                    "noop",
                    "--metrics-port",
                    Integer.toString(taken.getLocalPort()));
        }
    }

    @Test
    void rejectsAMissingOrMalformedSpecFile() throws IOException {
        assertRejected("does not exist", "--spec", tmp.resolve("missing.yaml").toString());
        Path spec = tmp.resolve("bad.yaml");
        Files.writeString(spec, "db: noop\nblobsize: 10\n");
        assertRejected("unknown key 'blobsize'", "--spec", spec.toString());
        assertRejected("is a folder; give a YAML file", "--spec", tmp.toString());
        assertRejected("/dev/null is not a regular file", "--spec", "/dev/null");
    }

    @Test
    void refusesToOverwriteANonEmptyResultFolder() throws IOException {
        Path out = Files.createDirectories(tmp.resolve("used"));
        Files.writeString(out.resolve("result.json"), "{}");
        CliResult result = CliResult.bench(
                "run",
                "--db",
                "noop",
                "--duration",
                "2s",
                "--warmup",
                "1s",
                "--metrics-port",
                "0",
                "--out",
                out.toString());
        assertEquals(2, result.code(), result.toString());
        assertTrue(result.err().contains("is not empty; choose another --out"), result.err());
        assertEquals("{}", Files.readString(out.resolve("result.json")));
    }
}
