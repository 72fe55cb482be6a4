package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.streambench.generator.Pattern;
import org.streambench.runner.results.ResultFiles;
import org.streambench.runner.yarn.LocalYarn;
import org.streambench.servers.ServerState;
import org.streambench.servers.TestServers;

/**
 * bench yarn runs a real pseudo-distributed YARN: a ResourceManager that answers and a NodeManager
 * registered with it, each its own process on loopback only, both gone after stop. Started once
 * for the class (about 20 s).
 */
@Tag("integration")
@Tag("yarn")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class YarnTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path work;

    private static int port;
    private static LocalYarn yarn;

    @BeforeAll
    static void startYarn() throws Exception {
        port = freeRange(LocalYarn.PORT_COUNT); // first, since TestServers sets the work folder of the other tests
        TestServers.registerWork(work); // its YARN is stopped by the next ./bench if this JVM is killed
        System.setProperty("streambench.work", work.toString());
        CliResult start = CliResult.bench("yarn", "start", "--port", Integer.toString(port));
        assertEquals(0, start.code(), start.toString());
        assertTrue(start.out().contains("ready after"), start.toString());
        yarn = new LocalYarn(work, new PrintWriter(new StringWriter()));
    }

    @AfterAll
    static void stopYarn() throws IOException {
        try {
            if (yarn != null) {
                yarn.stop();
            }
        } finally {
            System.setProperty("streambench.work", TestServers.WORK.toString());
        }
    }

    @Test
    @Order(1)
    void theResourceManagerAnswersAndItsNodeManagerRuns() throws Exception {
        JsonNode nodes = get("/ws/v1/cluster/nodes").path("nodes").path("node");
        assertEquals(1, nodes.size(), nodes.toString());
        assertEquals("RUNNING", nodes.get(0).path("state").asText(), nodes.toString());
        assertEquals(8192, nodes.get(0).path("availMemoryMB").asLong(), nodes.toString());
        assertEquals(
                "3.4.2",
                get("/ws/v1/cluster/info")
                        .path("clusterInfo")
                        .path("hadoopVersion")
                        .asText());

        CliResult status = CliResult.bench("yarn", "status");
        assertEquals(0, status.code(), status.toString());
        assertTrue(status.out().contains("yarn started"), status.toString());
        assertTrue(status.out().contains("hadoop 3.4.2, 1 node(s) running"), status.toString());
    }

    @Test
    @Order(2)
    void bothProcessesListenOnLoopbackOnlyAndAStartAgainUsesThem() throws Exception {
        LocalYarn.Running running = yarn.running().orElseThrow();
        for (long pid :
                List.of(running.resourceManager().pid(), running.nodeManager().pid())) {
            List<String> listening = Processes.listeningAddresses(pid);
            assertFalse(listening.isEmpty(), "pid " + pid + " listens nowhere");
            List<String> beyondLoopback =
                    listening.stream().filter(a -> !Processes.isLoopback(a)).toList();
            assertTrue(beyondLoopback.isEmpty(), "pid " + pid + " listens beyond loopback: " + listening);
        }
        CliResult again = CliResult.bench("yarn", "start", "--port", Integer.toString(port));
        assertEquals(0, again.code(), again.toString());
        assertTrue(again.out().contains("yarn already runs"), again.toString());
        assertEquals(running, yarn.running().orElseThrow());
    }

    @Test
    @Order(3)
    void aClusterNamedByItsConfigurationFolderIsAskedThroughIt(@TempDir Path conf) throws Exception {
        Files.copy(yarn.conf().resolve("yarn-site.xml"), conf.resolve("yarn-site.xml"));
        CliResult status = CliResult.bench("yarn", "status", "--yarn-conf", conf.toString());
        assertEquals(0, status.code(), status.toString());
        assertTrue(status.out().contains("--yarn-conf " + conf), status.toString());
        assertTrue(status.out().contains("1 node(s) running"), status.toString());
    }

    /**
     * What the engines will need: a container that YARN launches runs the node's Java. The
     * application is submitted through the REST API with a bare command as its ApplicationMaster,
     * which never registers, so YARN marks it failed once the command exited; its log shows it ran.
     */
    @Test
    @Order(4)
    void aContainerLaunchedByYarnRunsJava() throws Exception {
        String id = post("/ws/v1/cluster/apps/new-application", "")
                .path("application-id")
                .asText();
        String marker = "streambench-container-ran-" + id;
        String submission = JSON.writeValueAsString(Map.of(
                "application-id",
                id,
                "application-name",
                "streambench-smoke",
                "application-type",
                "YARN",
                "max-app-attempts",
                1,
                "resource",
                Map.of("memory", 256, "vCores", 1),
                "am-container-spec",
                Map.of(
                        "commands",
                        Map.of(
                                "command",
                                "$JAVA_HOME/bin/java -version 1><LOG_DIR>/stdout 2><LOG_DIR>/stderr; echo " + marker
                                        + " $JAVA_HOME >> <LOG_DIR>/stdout"))));
        post("/ws/v1/cluster/apps", submission);
        String state = "";
        for (int attempt = 0;
                attempt < 120 && !List.of("FINISHED", "FAILED", "KILLED").contains(state);
                attempt++) {
            Thread.sleep(500);
            state = get("/ws/v1/cluster/apps/" + id).path("app").path("state").asText();
        }
        assertTrue(List.of("FINISHED", "FAILED").contains(state), "the application ended as '" + state + "'");
        Path containers = yarn.dir().resolve("nm-logs").resolve(id);
        try (Stream<Path> files = Files.walk(containers)) {
            List<Path> logs = files.filter(Files::isRegularFile).toList();
            Path stdout = logs.stream()
                    .filter(f -> f.getFileName().toString().equals("stdout"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no container stdout in " + logs));
            // engines launch $JAVA_HOME/bin/java in their containers: the node must pass on the suite's JDK
            assertEquals(
                    marker + " " + System.getProperty("java.home"),
                    Files.readString(stdout).trim());
            String stderr = Files.readString(stdout.resolveSibling("stderr"));
            assertTrue(stderr.contains("version \"17"), "the container did not run the JDK 17: " + stderr);
        }
    }

    /**
     * Each engine on the local YARN with a parallelism of 2: Spark's driver and two executors,
     * Flink's JobManager and two TaskManagers, Apex's launcher and its operators' containers, each
     * JVM a worker of the job. A bounded update run of each leaves the same database state, as it
     * does locally ({@link EngineParityTest}; Spark's doubles up to their last bits, see
     * SparkJob); each run is verified, records its application,
     * keeps its containers' logs (without YARN's launch scripts, which hold the database password)
     * and leaves nothing in /tmp.
     */
    @Test
    @Order(5)
    void everyEngineOnYarnRunsInSeveralJvmsAndLeavesTheSameDatabaseStateAsTheOthers(@TempDir Path tmp)
            throws Exception {
        ServerState postgres = server("postgresql");
        Map<String, Map<String, String>> stateByEngine = new LinkedHashMap<>();
        for (String engine : List.of("spark", "flink", "apex")) {
            Path out = tmp.resolve(engine);
            List<Path> tempFoldersBefore = engineTempFolders();
            CliResult run = CliResult.bench(
                    EngineParityTest.boundedRun(engine, "update", 1, postgres, out, "--cluster", "yarn"));
            assertEquals(0, run.code(), run.toString());
            assertTrue(run.out().contains("0 mismatches"), run.toString());
            assertEquals(tempFoldersBefore, engineTempFolders(), engine + " left a folder in /tmp");
            stateByEngine.put(engine, EngineParityTest.snapshot(Pattern.UPDATE, 1));

            Map<String, Object> result = ResultFiles.read(out);
            @SuppressWarnings("unchecked")
            Map<String, Object> environment = (Map<String, Object>) result.get("environment");
            assertEquals("yarn", environment.get("cluster"), engine);
            assertEquals("3.4.2", environment.get("yarnVersion"), engine);
            @SuppressWarnings("unchecked")
            Map<String, Object> resources = (Map<String, Object>) environment.get("yarnResources");
            String askedFor = Registries.expectedOf(
                    Map.of(
                            "spark", "spark.executor.instances",
                            "flink", "taskmanager.numberOfTaskSlots",
                            "apex", "containerMemoryMb"),
                    engine,
                    "what the job asks YARN for");
            assertTrue(resources.containsKey(askedFor), engine + ": what the job asked YARN for: " + resources);
            String application = String.valueOf(environment.get("applicationId"));
            assertTrue(application.matches("application_\\d+_\\d+"), engine + ": " + environment);
            assertTrue(
                    ((List<?>) environment.get("workers")).size() >= 3,
                    engine + ": the job's main and two more JVMs reported: " + environment);
            assertFalse(
                    get("/ws/v1/cluster/apps/" + application + "/state")
                            .path("state")
                            .asText()
                            .equals("RUNNING"),
                    engine + ": the application still runs after the run");
            try (Stream<Path> containers = Files.list(out.resolve("yarn-logs"))) {
                List<String> names =
                        containers.map(c -> c.getFileName().toString()).toList();
                assertTrue(names.size() >= 2, engine + ": container logs " + names);
                String applicationNumber = application.substring("application_".length());
                assertTrue(
                        names.stream().allMatch(name -> name.contains(applicationNumber)),
                        engine + ": container logs of another application: " + names);
            }
            String password = postgres.settings().get("password");
            try (Stream<Path> files = Files.walk(out)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    assertFalse(
                            Files.readString(file, StandardCharsets.ISO_8859_1).contains(password),
                            file + " holds the database password");
                }
            }
        }
        assertEquals(stateByEngine.get("flink"), stateByEngine.get("apex"), "Apex left another state than Flink");
        // across executors, Spark adds a key's updates within a micro-batch in the order its shuffle fetches them
        EngineParityTest.assertSameStateUpToRounding(
                stateByEngine.get("flink"), stateByEngine.get("spark"), "Spark left another state than Flink");
    }

    /**
     * Apex's containers put their jars on the classpath in no set order beside the cluster's Hadoop;
     * they get the HBase client built on Hadoop 3 (the default one carries Hadoop 2 classes, which
     * broke the cluster's Hadoop there), so an Apex job against HBase runs on YARN and verifies.
     */
    @Test
    @Order(6)
    void anApexJobOnYarnRunsAgainstHBase(@TempDir Path tmp) throws Exception {
        ServerState hbase = server("hbase");
        Path out = tmp.resolve("run");
        CliResult run = CliResult.bench(AllPairsTest.boundedMixedRun(
                "apex", "hbase", out, "--db-url", hbase.settings().get("url"), "--cluster", "yarn"));
        assertEquals(0, run.code(), run.toString());
        Map<String, Object> result = ResultFiles.read(out);
        assertEquals("ok", result.get("status"), String.valueOf(result.get("error")));
        Map<String, Object> verification = EndToEndTest.map(result, "verification");
        assertEquals(0, verification.get("mismatches"), verification.toString());
        assertTrue(((Number) verification.get("checked")).longValue() > 0, verification.toString());
        Map<String, Object> environment = EndToEndTest.map(result, "environment");
        assertEquals("yarn", environment.get("cluster"));
        assertTrue(
                String.valueOf(environment.get("applicationId")).matches("application_\\d+_\\d+"),
                environment.toString());
    }

    /**
     * A guarantee in YARN's containers: 3 s into the run (Apex's: 10 s) a worker is killed or a
     * task fails, the engine recovers (Flink gets a new container for the SIGKILLed TaskManager
     * from YARN and restarts the job from its last checkpoint, its sources on either TaskManager;
     * Spark runs the task again on the micro-batch's blocks, once it has processed them, before
     * they are committed; Apex's application master deploys the operators of a killed container,
     * or of one it ended after an operator failed, in a new container from their last
     * checkpoint), and the run ends as planned (the application cluster interrupting Flink's job
     * main once the job has finished is no failure). The audit of every updated key finds nothing lost
     * and, with exactly-once, nothing applied twice; with at-least-once what the job processed again.
     * A task failed in a live TaskManager, Flink's other recovery, is in {@code GuaranteesTest}.
     */
    @ParameterizedTest
    @CsvSource({
        "flink, exactly-once, kill-worker@3s, 20s, execution.checkpointing.mode, EXACTLY_ONCE",
        "flink, at-least-once, kill-worker@3s, 20s, execution.checkpointing.mode, AT_LEAST_ONCE",
        // Spark's at-least-once replay, counted and audited, is GuaranteesTest's (everyEngineRecoversAFailedTask...,
        // locally); on YARN its exactly-once case runs the executors, the task's retry and the staging folder's end
        "spark, exactly-once, fail-checkpoint@3s, 8s, spark.task.maxFailures, 4",
        // a container lost before its operator's first checkpoint is deployed again from scratch, which no
        // worker can tell from a first deployment yet (not counted as restarted): the fault comes late enough
        // for a checkpoint (a CI run's at 3 s, in the series' first second, most likely did not)
        "apex, exactly-once, kill-worker@10s, 25s, CHECKPOINT_WINDOW_COUNT, 1",
        "apex, exactly-once, fail-task@10s, 25s, CHECKPOINT_WINDOW_COUNT, 1"
    })
    @Order(7)
    void aGuaranteeRecoversAWorkerKilledOrATaskFailedOnYarnAndTheAuditFindsWhatItPromises(
            String engine,
            String guarantee,
            String fault,
            String duration,
            String setting,
            String value,
            @TempDir Path tmp)
            throws Exception {
        ServerState postgres = server("postgresql");
        Path out = tmp.resolve("run");
        List<String> args = new ArrayList<>(List.of(onYarn(engine, postgres, out, duration)));
        args.addAll(List.of(
                "--parallelism",
                "2",
                "--rate",
                "2000",
                "--guarantee",
                guarantee,
                "--checkpoint-interval",
                "500ms",
                "--fault",
                fault));
        CliResult run = CliResult.bench(args.toArray(String[]::new));
        assertEquals(0, run.code(), run.toString());
        Map<String, Object> result = ResultFiles.read(out);
        if (engine.equals("spark")) {
            assertLeavesNoStagingFolder(result, out);
        }
        Map<String, Object> recovery = EndToEndTest.map(result, "recovery");
        assertEquals(value, EndToEndTest.map(recovery, "engineSettings").get(setting), recovery.toString());
        assertTrue(((Number) recovery.get("restartedInstances")).longValue() >= 1, recovery.toString());
        if (fault.startsWith("kill-worker")) {
            List<?> workers = (List<?>) EndToEndTest.map(result, "environment").get("workers");
            // the job's main, two workers (TaskManagers, Apex's containers), and the one YARN gave in place of the
            // killed one
            assertTrue(workers.size() >= 4, "a new worker replaced the killed one: " + workers);
        }
        Map<String, Object> audit = EndToEndTest.map(recovery, "audit");
        assertEquals(0, ((Number) audit.get("losses")).longValue(), audit.toString());
        assertEquals(0, ((Number) audit.get("unexplainedKeys")).longValue(), audit.toString());
        long duplicates = ((Number) audit.get("duplicates")).longValue();
        long processedAgain = ((Number) recovery.get("recordsProcessedAgain")).longValue();
        if (guarantee.equals("exactly-once")) {
            assertEquals(0, duplicates, audit.toString());
            assertEquals(0, processedAgain, recovery.toString());
        } else {
            assertTrue(duplicates > 0, "the task ran again on records it had written: " + recovery);
            // a sync write that Flink's restart interrupted may have reached the database uncounted
            long restarted = ((Number) recovery.get("restartedInstances")).longValue();
            assertTrue(
                    duplicates >= processedAgain && duplicates <= processedAgain + restarted,
                    "the audit counts what the job processed again, and at most one interrupted write per"
                            + " restarted instance more: " + recovery);
        }
    }

    /**
     * Spark stages an application's files (its settings with the database password among them) and
     * deletes them when its driver shuts down or its submitter sees the application fail; a run
     * that ends by its duration does neither (the job ends its JVMs itself), so by default they
     * stayed in ~/.sparkStaging.
     */
    private static void assertLeavesNoStagingFolder(Map<String, Object> result, Path out) {
        Map<String, Object> environment = EndToEndTest.map(result, "environment");
        Path staging = Path.of(
                System.getProperty("user.home"), ".sparkStaging", String.valueOf(environment.get("applicationId")));
        assertFalse(Files.exists(staging), staging + " is left");
        assertFalse(Files.exists(out.resolve("job-tmp")), "the run's temporary folder is left");
    }

    /** YARN kills the application mid-run: the run fails saying so, and nothing of it is left running. */
    @Test
    @Order(8)
    void aYarnApplicationKilledFromOutsideFailsTheRun(@TempDir Path tmp) throws Exception {
        ServerState postgres = server("postgresql");
        Path log = tmp.resolve("bench.log");
        Process bench = Processes.bench(work, log, onYarn("spark", postgres, tmp.resolve("run"), "120s"));
        try {
            Processes.awaitRecordsFlowing(bench, log);
            JsonNode running =
                    get("/ws/v1/cluster/apps?states=RUNNING").path("apps").path("app");
            assertEquals(1, running.size(), running.toString());
            kill(running.get(0).path("id").asText());

            assertTrue(bench.waitFor(60, TimeUnit.SECONDS), "the runner did not end: " + Files.readString(log));
            assertEquals(1, bench.exitValue(), Files.readString(log));
            String output = Files.readString(log);
            assertTrue(output.contains("KILLED"), "the run does not say that YARN killed it:\n" + output);
            assertTrue(
                    get("/ws/v1/cluster/apps?states=RUNNING")
                            .path("apps")
                            .path("app")
                            .isEmpty(),
                    "an application still runs");
            for (String process : List.of("ApplicationMaster", "CoarseGrainedExecutorBackend")) {
                Processes.awaitNoneNaming(process, 30); // YARN stops its containers within seconds
            }
            assertFalse(Files.exists(tmp.resolve("run").resolve("job-tmp")), "the run's temporary folder is left");
        } finally {
            bench.destroyForcibly();
        }
    }

    /**
     * An application that YARN ends before the job's first record (here killed as soon as its
     * ApplicationMaster runs) fails the run at once, saying so. Apex's submitting JVM, the job's
     * main, outlives its ApplicationMaster, so the runner used to wait for the first record until
     * its startup timeout. Killed while still NEW or SUBMITTED, the application fails the
     * submission itself instead, which another path reports.
     */
    @Test
    @Order(9)
    void anApplicationThatFailsBeforeItsFirstRecordEndsTheRunAtOnce(@TempDir Path tmp) throws Exception {
        ServerState postgres = server("postgresql");
        Path log = tmp.resolve("bench.log");
        Process bench = Processes.bench(work, log, onYarn("apex", postgres, tmp.resolve("run"), "120s"));
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            JsonNode running;
            do {
                assertTrue(System.nanoTime() < deadline, "YARN never ran the application: " + Files.readString(log));
                Thread.sleep(200);
                running = get("/ws/v1/cluster/apps?states=RUNNING").path("apps").path("app");
            } while (running.isEmpty());
            kill(running.get(0).path("id").asText());

            assertTrue(bench.waitFor(60, TimeUnit.SECONDS), "the runner still waits: " + Files.readString(log));
            String output = Files.readString(log);
            assertEquals(1, bench.exitValue(), output);
            assertTrue(output.contains("ended before any record was processed; YARN application"), output);
            assertTrue(output.contains("KILLED"), output);
        } finally {
            bench.destroyForcibly();
        }
    }

    /**
     * A runner killed with SIGKILL cleans nothing up. Apex's launcher (the job's main, outside
     * YARN) sees its runner gone and kills the application it submitted: no application and no JVM
     * of the job is left. (Spark's driver and Flink's JobManager are the job's main inside the
     * ApplicationMaster and end their JVM once the runner's collector is silent, as
     * WorkersAcrossJvmsTest checks for a worker JVM.) While the job runs, Prometheus's scrape
     * targets are its workers.
     */
    @Test
    @Order(10)
    void aRunnerKilledWithSigkillLeavesNoApplicationRunning(@TempDir Path tmp) throws Exception {
        ServerState postgres = server("postgresql");
        String engine = "apex";
        Path log = tmp.resolve(engine + ".log");
        Process bench = Processes.bench(work, log, onYarn(engine, postgres, tmp.resolve(engine), "120s"));
        try {
            Processes.awaitRecordsFlowing(bench, log);
            assertEquals(
                    1,
                    get("/ws/v1/cluster/apps?states=RUNNING")
                            .path("apps")
                            .path("app")
                            .size());
            // Prometheus's job targets are the job's workers: the job's main and at least one more JVM
            // (beside them the runner's own endpoint, its resources)
            try (Stream<Path> files = Files.list(work.resolve("monitor").resolve("targets"))) {
                List<JsonNode> groups = new ArrayList<>();
                for (Path file :
                        files.filter(f -> f.toString().endsWith(".json")).toList()) {
                    groups.add(JSON.readTree(file.toFile()).get(0));
                }
                List<JsonNode> jobs = groups.stream()
                        .filter(group ->
                                group.path("labels").path("role").asText().equals("job"))
                        .toList();
                assertEquals(1, jobs.size(), groups.toString());
                JsonNode targets = jobs.get(0).get("targets");
                assertTrue(targets.size() >= 2, engine + ": scrape targets " + targets);
            }
        } finally {
            bench.destroyForcibly();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!get("/ws/v1/cluster/apps?states=ACCEPTED,RUNNING")
                .path("apps")
                .path("app")
                .isEmpty()) {
            assertTrue(
                    System.nanoTime() < deadline,
                    engine + ": the application still runs 60 s after its runner was killed");
            Thread.sleep(500);
        }
        for (String process : List.of("ApexOnYarn", "StreamingContainer", "StreamingAppMaster")) {
            Processes.awaitNoneNaming(process, 30); // YARN stops its containers within seconds
        }
    }

    private static String[] onYarn(String engine, ServerState postgres, Path out, String duration) {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--engine",
                engine,
                "--db",
                "postgresql",
                "--pattern",
                "update",
                "--blob",
                "1000",
                "--duration",
                duration,
                "--warmup",
                "1s",
                "--keys",
                "2000",
                "--metrics-port",
                Integer.toString(TestServers.freePort()),
                "--cluster",
                "yarn",
                "--out",
                out.toString()));
        args.addAll(TestRuns.postgresArgs(postgres));
        return args.toArray(String[]::new);
    }

    /** What Spark's and Flink's JVMs leave in /tmp when they end without their own shutdown. */
    private static List<Path> engineTempFolders() throws IOException {
        try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return files.filter(f -> f.getFileName().toString().matches("(spark|flink|blobStore|dt-heap)-.*"))
                    .sorted()
                    .toList();
        }
    }

    @Test
    @Order(11)
    void stopEndsBothProcessesAndStatusSaysSo() throws Exception {
        LocalYarn.Running running = yarn.running().orElseThrow();
        CliResult stop = CliResult.bench("yarn", "stop");
        assertEquals(0, stop.code(), stop.toString());
        assertEquals("yarn stopped", stop.out().trim());
        assertFalse(running.resourceManager().handle().isPresent(), "the ResourceManager still runs");
        assertFalse(running.nodeManager().handle().isPresent(), "the NodeManager still runs");
        assertTrue(yarn.running().isEmpty());

        CliResult status = CliResult.bench("yarn", "status");
        assertEquals(0, status.code(), status.toString());
        assertTrue(status.out().startsWith("yarn stopped"), status.toString());
        CliResult stopAgain = CliResult.bench("yarn", "stop");
        assertEquals("yarn was not running", stopAgain.out().trim());
    }

    private static JsonNode post(String path, String json) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + (port + 4) + path))
                                .header("Accept", "application/json")
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(json))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertTrue(List.of(200, 202).contains(response.statusCode()), response.statusCode() + " " + response.body());
        return response.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(response.body());
    }

    /** A database server of the suite's tests; TestServers points the work folder at its own, the runs here need YARN's. */
    private static ServerState server(String kind) throws Exception {
        ServerState server = TestServers.start(kind);
        System.setProperty("streambench.work", work.toString());
        return server;
    }

    /** Kills an application through the ResourceManager's REST API, as `yarn application -kill` does. */
    private static void kill(String applicationId) throws Exception {
        put("/ws/v1/cluster/apps/" + applicationId + "/state", "{\"state\":\"KILLED\"}");
    }

    private static void put(String path, String json) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + (port + 4) + path))
                                .header("Content-Type", "application/json")
                                .PUT(HttpRequest.BodyPublishers.ofString(json))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertTrue(List.of(200, 202).contains(response.statusCode()), response.statusCode() + " " + response.body());
    }

    private static JsonNode get(String path) throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + (port + 4) + path))
                                .header("Accept", "application/json")
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return JSON.readTree(response.body());
    }

    /** The first of {@code count} consecutive free ports. */
    static int freeRange(int count) {
        for (int attempt = 0; attempt < 100; attempt++) {
            int first = TestServers.freePort();
            if (first + count > 65535) {
                continue;
            }
            boolean allFree = true;
            for (int port = first + 1; port < first + count && allFree; port++) {
                allFree = isFree(port);
            }
            if (allFree) {
                return first;
            }
        }
        throw new IllegalStateException("found no " + count + " consecutive free ports");
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException taken) {
            return false;
        }
    }
}
