package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.streambench.db.Database;
import org.streambench.generator.Keys;
import org.streambench.generator.SensorRecord;
import org.streambench.operators.Blob;
import org.streambench.runner.experiment.ExperimentRunner;
import org.streambench.runner.results.ResultFiles;
import org.streambench.servers.DbProfile;
import org.streambench.servers.LocalServers;
import org.streambench.servers.ServerState;
import org.streambench.servers.TestServers;

/**
 * Whatever a run starts it stops, also when it is killed or interrupted; nothing half-written
 * looks like a result; a result's status agrees with its exit code; errors name the real cause.
 */
@Tag("integration")
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class NoLeaksTest {

    private final ExecutorService background = Executors.newSingleThreadExecutor();
    private Process bench;

    @AfterEach
    void stopEverything() {
        background.shutdownNow();
        if (bench != null) {
            bench.descendants().forEach(ProcessHandle::destroyForcibly);
            bench.destroyForcibly();
        }
    }

    /** SIGKILL runs no shutdown hook: the job JVM must notice by itself that its runner is gone. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.streambench.runner.Registries#engines")
    void aJobEndsByItselfWhenItsRunnerIsKilled(String engine, @TempDir Path tmp) throws Exception {
        int metricsPort = TestServers.freePort();
        bench = Processes.bench(
                tmp.resolve("work"),
                tmp.resolve("bench.log"),
                "run",
                "--engine",
                engine,
                "--db",
                "noop",
                "--duration",
                "300s",
                "--warmup",
                "1s",
                "--metrics-port",
                Integer.toString(metricsPort),
                "--out",
                tmp.resolve("run").toString());
        Processes.awaitRecords(metricsPort, 180);
        ProcessHandle job = Processes.jobJvm(bench.toHandle()).orElseThrow();
        List<String> listening = Processes.listeningAddresses(job.pid());
        assertTrue(
                listening.contains("[::ffff:127.0.0.1]:" + metricsPort)
                        || listening.contains("127.0.0.1:" + metricsPort),
                listening.toString());
        List<String> beyondLoopback =
                listening.stream().filter(a -> !Processes.isLoopback(a)).toList();
        // Apex 3.7's buffer server binds every interface, hard-coded (netlet's EventLoop.start(null, port, ...)); see
        // docs/engines.md
        assertTrue(
                beyondLoopback.size() <= (engine.equals("apex") ? 1 : 0),
                "the " + engine + " job listens beyond loopback: " + listening);

        assertTrue(Files.isDirectory(tmp.resolve("run").resolve(ExperimentRunner.JOB_TMP)));

        bench.destroyForcibly();
        assertTrue(Processes.exitsWithin(job, 15), "the " + engine + " job JVM outlived its killed runner");
        String jobLog = Files.readString(tmp.resolve("run").resolve(ExperimentRunner.JOB_LOG));
        assertTrue(jobLog.contains("the runner (pid " + bench.pid() + ") is gone"));
        Path jobTmp = tmp.resolve("run").resolve(ExperimentRunner.JOB_TMP);
        assertFalse(
                Files.exists(jobTmp),
                () -> "the job did not delete its temporary folder when its runner was gone; left: "
                        + leftIn(jobTmp) + "; the job log ends: "
                        + jobLog.substring(Math.max(0, jobLog.length() - 2000)));
        assertFalse(
                Files.exists(tmp.resolve("run").resolve(ResultFiles.RESULT)),
                "a killed run left something that looks like a result");
    }

    /**
     * Engines write to the temporary folder and leave files behind (Flink a 21 MB RPC jar per
     * start): a job keeps them in a folder of its own inside the run folder, deleted when it ends.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("org.streambench.runner.Registries#engines")
    void aFinishedRunLeavesNoFilesOfItsEngineBehind(String engine, @TempDir Path tmp) throws Exception {
        Path systemTmp = Path.of(System.getProperty("java.io.tmpdir"));
        Set<String> before = engineFiles(systemTmp);
        Path startedIn = Path.of("").toAbsolutePath();
        Set<String> startedInBefore = entries(startedIn);
        deleteRecursively(startedIn.resolve(APEX_DEFAULT_APPLICATION_PATH)); // what Apex jobs left there before
        Path out = tmp.resolve("run");
        CliResult run = CliResult.bench(
                "run",
                "--engine",
                engine,
                "--db",
                "noop",
                "--records",
                "2000",
                "--duration",
                "120s",
                "--warmup",
                "0s",
                "--metrics-port",
                "0",
                "--out",
                out.toString());
        assertEquals(0, run.code(), run.toString());
        assertFalse(Files.exists(out.resolve(ExperimentRunner.JOB_TMP)), "the job's temporary folder is deleted");
        Set<String> left = engineFiles(systemTmp);
        left.removeAll(before);
        assertTrue(left.isEmpty(), "the " + engine + " job left files in " + systemTmp + ": " + left);
        Set<String> leftWhereStarted = entries(startedIn);
        leftWhereStarted.removeAll(startedInBefore);
        assertTrue(leftWhereStarted.isEmpty(), "in the folder the run started in: " + leftWhereStarted);
        assertFalse(
                Files.exists(startedIn.resolve(APEX_DEFAULT_APPLICATION_PATH)),
                "an Apex job keeps its application in its own folder: Apex empties its default at start, and two jobs"
                        + " started from one folder deleted each other's operators");
    }

    private static final Path APEX_DEFAULT_APPLICATION_PATH =
            Path.of("target", "com.datatorrent.stram.StramLocalCluster");

    private static Set<String> entries(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(entry -> entry.getFileName().toString()).collect(Collectors.toCollection(HashSet::new));
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                    Files.delete(path);
                }
            }
        }
    }

    private static final List<String> ENGINE_FILE_PREFIXES =
            List.of("flink-", "minicluster_", "chkp", "blockmgr-", "spark-", "liblz4-java", "snappy-");

    private static List<String> leftIn(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            return paths.map(path -> dir.relativize(path).toString()).limit(20).toList();
        } catch (IOException | RuntimeException e) {
            return List.of(e.toString());
        }
    }

    private static Set<String> engineFiles(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(entry -> entry.getFileName().toString())
                    .filter(name -> ENGINE_FILE_PREFIXES.stream().anyMatch(name::startsWith))
                    .collect(Collectors.toCollection(HashSet::new));
        }
    }

    /** SIGTERM, like Ctrl-C's SIGINT, runs the runner's shutdown hook (background shells ignore SIGINT, so the test sends SIGTERM). */
    @Test
    void anInterruptedRunStopsItsJobAndTheServerItStartedAndSaysInterrupted(@TempDir Path tmp) throws Exception {
        Path work = tmp.resolve("work");
        Path out = tmp.resolve("run");
        int metricsPort = TestServers.freePort();
        bench = Processes.bench(
                work,
                tmp.resolve("bench.log"),
                "run",
                "--db",
                "postgresql",
                "--db-port",
                Integer.toString(TestServers.freePort()),
                "--pattern",
                "update",
                "--keys",
                "200",
                "--blob",
                "100",
                "--duration",
                "300s",
                "--warmup",
                "1s",
                "--metrics-port",
                Integer.toString(metricsPort),
                "--out",
                out.toString());
        Processes.awaitRecords(metricsPort, 180);
        ProcessHandle job = Processes.jobJvm(bench.toHandle()).orElseThrow();
        LocalServers servers = new LocalServers(work, new PrintWriter(new StringWriter()));
        List<ProcessHandle> server = servers.running("postgresql").orElseThrow().alive().stream()
                .map(ServerState.ProcessRef::handle)
                .flatMap(Optional::stream)
                .toList();

        bench.destroy();
        assertTrue(bench.waitFor(90, TimeUnit.SECONDS), "the runner ended after SIGTERM");
        assertTrue(Processes.exitsWithin(job, 10), "the job JVM was stopped");
        for (ProcessHandle process : server) {
            assertTrue(
                    Processes.exitsWithin(process, 30),
                    "the postgresql the run started is still running: pid " + process.pid());
        }
        assertTrue(servers.running("postgresql").isEmpty());
        assertFalse(Files.exists(out.resolve(ExperimentRunner.JOB_TMP)), "the job's temporary folder is deleted");
        Map<String, Object> result = ResultFiles.read(out);
        assertEquals("interrupted", result.get("status"), result.toString());
        assertFalse(result.containsKey("throughput"), "an interrupted run has no numbers: " + result);
        assertFalse(Files.exists(out.resolve(ResultFiles.PER_SECOND)));
    }

    /** The holder JVM of MariaDB killed with SIGKILL leaves mariadbd behind: the suite still finds it and stops it. */
    @Test
    void aServerWhoseHolderWasKilledIsStillFoundAndStopped(@TempDir Path tmp) throws Exception {
        StringWriter log = new StringWriter();
        LocalServers servers = new LocalServers(tmp.resolve("work"), new PrintWriter(log, true));
        int port = TestServers.freePort();
        try {
            ServerState state = servers.start("mariadb", port, "--port", DbProfile.DEFAULT);
            assertTrue(state.processes().size() >= 2, "the holder JVM and mariadbd are recorded: " + state.processes());
            ProcessHandle holder = ProcessHandle.of(state.pid()).orElseThrow();
            holder.destroyForcibly();
            assertTrue(Processes.exitsWithin(holder, 10));
            List<ProcessHandle> orphans = state.alive().stream()
                    .map(ServerState.ProcessRef::handle)
                    .flatMap(Optional::stream)
                    .toList();
            assertFalse(orphans.isEmpty(), "mariadbd outlives its holder (else this test proves nothing)");
            assertTrue(servers.running("mariadb").isPresent(), "status must still see the orphaned server");
            assertFalse(TestServers.isFree(port), "the orphaned mariadbd still listens on its port");

            assertTrue(servers.stop("mariadb"), "stop must find the orphaned server");
            for (ProcessHandle orphan : orphans) {
                assertTrue(Processes.exitsWithin(orphan, 30), "pid " + orphan.pid() + " survived stop");
            }
            assertTrue(TestServers.isFree(port), "the orphan's port is free again");
        } finally {
            servers.stop("mariadb");
        }
    }

    @Test
    void aJobJvmKilledFromOutsideIsReportedAsKilled(@TempDir Path tmp) throws Exception {
        int metricsPort = TestServers.freePort();
        Path out = tmp.resolve("run");
        Future<CliResult> run = background.submit(() -> CliResult.bench(
                "run",
                "--db",
                "noop",
                "--duration",
                "300s",
                "--warmup",
                "1s",
                "--metrics-port",
                Integer.toString(metricsPort),
                "--out",
                out.toString()));
        Processes.awaitRecords(metricsPort, 180);
        Processes.jobJvm(ProcessHandle.current()).orElseThrow().destroyForcibly();
        CliResult result = run.get(120, TimeUnit.SECONDS);

        assertEquals(1, result.code(), result.toString());
        String error = String.valueOf(ResultFiles.read(out).get("error"));
        assertTrue(error.contains("the flink job process died: killed by signal 9 (SIGKILL)"), error);
    }

    /** A run whose verification finds a mismatch has failed, in result.json as in its exit code. */
    @Test
    void aRunWithMismatchesHasFailed(@TempDir Path tmp) throws Exception {
        ServerState postgres = TestServers.start("postgresql");
        int metricsPort = TestServers.freePort();
        Path out = tmp.resolve("run");
        Future<CliResult> run = background.submit(() -> CliResult.bench(
                "run",
                "--db",
                "postgresql",
                "--pattern",
                "update",
                "--keys",
                "50",
                "--blob",
                "10",
                "--records",
                "1500",
                "--rate",
                "150",
                "--duration",
                "120s",
                "--warmup",
                "0s",
                "--metrics-port",
                Integer.toString(metricsPort),
                "--db-url",
                postgres.settings().get("url"),
                "--db-user",
                "postgres",
                "--db-password",
                postgres.settings().get("password"),
                "--out",
                out.toString()));
        Processes.awaitRecords(metricsPort, 180);
        try (Database db = TestServers.open("postgresql")) { // behind the operator's back
            db.update(new SensorRecord(Keys.existing(0), 1_000_000, 0, 0, 0, 0, 0), Blob.of(10, 1));
        }
        CliResult result = run.get(120, TimeUnit.SECONDS);

        assertEquals(1, result.code(), result.toString());
        Map<String, Object> json = ResultFiles.read(out);
        assertEquals("failed", json.get("status"), "status must agree with the exit code");
        assertTrue(
                String.valueOf(json.get("error")).startsWith("verification found 1 mismatches"),
                String.valueOf(json.get("error")));
    }
}
