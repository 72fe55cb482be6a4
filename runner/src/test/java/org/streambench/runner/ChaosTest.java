package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.streambench.runner.matrix.Journal;
import org.streambench.runner.results.ResultFiles;
import org.streambench.servers.LocalServers;
import org.streambench.servers.ServerState;
import org.streambench.servers.TestServers;

/**
 * The suite under a seeded fault schedule: a small matrix (every engine x 2 databases x 2 patterns)
 * in which each engine meets, each in a cell of its own, its database server SIGKILLed mid-cell,
 * its job JVM SIGKILLed mid-cell and a hog on both CPU cores for a whole cell; and, dealt out by the
 * seed, one engine's database frozen (SIGSTOP) for 20 s and two engines' runners SIGKILLed and
 * resumed. Every cell must end ok, or failed with the fault it met named in one line; {@code
 * --resume --retry-failed} then completes the matrix with 0 mismatches, each cell's result once in
 * its folder, nothing of the suite left running, and the next run on the same ports clean. Seeds:
 * {@code -Dstreambench.chaos.seeds=1} (the default; more seeds deal the faults to other cells).
 */
@Tag("chaos")
@Timeout(value = 30, unit = TimeUnit.MINUTES)
class ChaosTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> DATABASES = List.of("postgresql", "mariadb");
    private static final int FREEZE_SECONDS = 20;

    enum Fault {
        DB_KILL("the database server SIGKILLed mid-cell"),
        JOB_KILL("the job JVM SIGKILLed mid-cell"),
        DB_FREEZE("the database SIGSTOPped for " + FREEZE_SECONDS + " s, then continued"),
        RUNNER_KILL("the matrix runner SIGKILLed mid-cell, then resumed with --resume"),
        CPU_HOG("a busy loop on each of the 2 cores for the whole cell");

        final String description;

        Fault(String description) {
            this.description = description;
        }
    }

    /** The faults every engine meets, each on a cell of its own. */
    private static final List<Fault> EVERY_ENGINE = List.of(Fault.DB_KILL, Fault.JOB_KILL, Fault.CPU_HOG);
    /** The faults dealt out to one engine each (on its fourth cell), in a seeded order of engines. */
    private static final List<Fault> ONE_ENGINE_EACH = List.of(Fault.DB_FREEZE, Fault.RUNNER_KILL, Fault.RUNNER_KILL);

    static Stream<Long> seeds() {
        return Arrays.stream(System.getProperty("streambench.chaos.seeds", "1").split(","))
                .map(String::strip)
                .map(Long::parseLong);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void aMatrixUnderFaultsNamesEveryCauseAndCompletesOnRetry(long seed, @TempDir Path tmp) throws Exception {
        Random random = new Random(seed);
        List<String> engines = new ArrayList<>(Registries.engines());
        Collections.shuffle(engines, random);
        Path work = tmp.resolve("work");
        Path out = tmp.resolve("matrix");
        int dbPort = TestServers.freePort();
        long started = System.nanoTime();

        Process runner = Processes.bench(
                work,
                tmp.resolve("runner-1.log"),
                "matrix",
                "--engines",
                String.join(",", engines),
                "--databases",
                String.join(",", DATABASES),
                "--patterns",
                "insert,update",
                "--blobs",
                "100",
                "--keys",
                "200",
                "--warmup",
                "1s",
                "--duration",
                "4s",
                "--metrics-port",
                "0",
                "--db-port",
                Integer.toString(dbPort),
                "--out",
                out.toString());
        List<Process> runners = new ArrayList<>(List.of(runner));
        List<Process> hogs = new ArrayList<>();
        List<ProcessHandle> frozen = new ArrayList<>();
        Map<String, Fault> faults = new LinkedHashMap<>();
        Map<String, String> injected = new LinkedHashMap<>();
        try {
            List<String> ids = awaitJournal(out, runner);
            faults.putAll(schedule(journal(out).orElseThrow(), engines, random));
            System.out.printf("chaos seed %d: engines %s, databases %s; fault schedule:%n", seed, engines, DATABASES);
            for (String id : ids) {
                Fault fault = faults.get(id);
                System.out.printf("  %-36s %s%n", id, fault == null ? "-" : fault.description);
            }

            String hogCell = null;
            long thawAt = 0;
            while (true) {
                if (!frozen.isEmpty() && System.nanoTime() >= thawAt) {
                    frozen.forEach(p -> Processes.signal("CONT", p));
                    frozen.clear();
                }
                Optional<String> running = runningCell(out);
                if (hogCell != null && !running.equals(Optional.of(hogCell))) {
                    hogs.forEach(Process::destroyForcibly);
                    hogs.clear();
                    hogCell = null;
                }
                if (!runner.isAlive()) {
                    if (frozen.isEmpty()) {
                        break;
                    }
                    Thread.sleep(200);
                    continue;
                }
                if (running.isPresent() && faults.containsKey(running.get()) && !injected.containsKey(running.get())) {
                    String id = running.get();
                    Fault fault = faults.get(id);
                    if (fault == Fault.CPU_HOG) {
                        for (int core = 0; core < 2; core++) {
                            hogs.add(new ProcessBuilder("sh", "-c", "while :; do :; done").start());
                        }
                        hogCell = id;
                        injected.put(
                                id,
                                "hog pids "
                                        + hogs.stream()
                                                .map(p -> Long.toString(p.pid()))
                                                .toList());
                    } else if (recordsFlow(out, id)) {
                        Thread.sleep(random.nextInt(1500));
                        injected.put(id, inject(fault, runner, work, frozen));
                        if (fault == Fault.DB_FREEZE) {
                            thawAt = System.nanoTime() + TimeUnit.SECONDS.toNanos(FREEZE_SECONDS);
                        }
                        if (fault == Fault.RUNNER_KILL) {
                            assertTrue(runner.waitFor(15, TimeUnit.SECONDS), "the runner outlived SIGKILL");
                            runner = Processes.bench(
                                    work,
                                    tmp.resolve("runner-" + (runners.size() + 1) + ".log"),
                                    "matrix",
                                    "--resume",
                                    out.toString());
                            runners.add(runner);
                        }
                    }
                }
                assertTrue(
                        System.nanoTime() - started < TimeUnit.MINUTES.toNanos(20),
                        "the faulty matrix still runs after 20 minutes");
                Thread.sleep(200);
            }
            String runnerLog = Files.readString(tmp.resolve("runner-" + runners.size() + ".log"));
            assertEquals(
                    faults.keySet(),
                    injected.keySet(),
                    "every scheduled fault was injected: " + injected + "; the runner (exit " + runner.exitValue()
                            + ") said:\n" + runnerLog);

            JsonNode journal = JSON.readTree(out.resolve(Journal.FILE).toFile());
            System.out.printf("chaos seed %d: after the faults (%d runner starts):%n", seed, runners.size());
            int failedCells = 0;
            for (JsonNode cell : journal.get("cells")) {
                String id = cell.get("id").asText();
                String state = cell.get("state").asText();
                String reason = cell.path("reason").asText("");
                Fault fault = faults.get(id);
                System.out.printf(
                        "  %-36s %-11s %s, %d attempt(s)%s%n",
                        id,
                        fault == null ? "-" : fault.name(),
                        state,
                        cell.get("attempts").asInt(),
                        reason.isEmpty() ? "" : ": " + reason);
                assertTrue(state.equals("ok") || state.equals("failed"), id + " ended " + state);
                if (state.equals("failed")) {
                    failedCells++;
                    assertFalse(reason.isBlank(), id + " failed without a cause");
                    assertEquals(1, reason.strip().lines().count(), id + ": one line: " + reason);
                    assertTrue(
                            namesItsCause(fault, cell.get("database").asText(), reason),
                            id + " (" + (fault == null ? "no fault" : fault.description)
                                    + ") failed without naming its cause: " + reason);
                }
            }
            assertEquals(failedCells == 0 ? 0 : 1, runner.exitValue(), runnerLog);

            Process retry = Processes.bench(
                    work, tmp.resolve("retry.log"), "matrix", "--resume", out.toString(), "--retry-failed");
            runners.add(retry);
            assertTrue(retry.waitFor(10, TimeUnit.MINUTES), "the retry ended");
            String retryLog = Files.readString(tmp.resolve("retry.log"));
            assertEquals(0, retry.exitValue(), retryLog);
            System.out.printf(
                    "chaos seed %d: --resume --retry-failed ran %d failed cell(s); every cell ok; wall time %d s%n",
                    seed, failedCells, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));

            journal = JSON.readTree(out.resolve(Journal.FILE).toFile());
            Set<String> journalIds = new TreeSet<>();
            for (JsonNode cell : journal.get("cells")) {
                String id = cell.get("id").asText();
                assertTrue(journalIds.add(id), "the journal lists " + id + " twice");
                assertEquals("ok", cell.get("state").asText(), cell.toString());
                Map<String, Object> result = ResultFiles.read(out.resolve(id));
                assertEquals("ok", result.get("status"), id);
                Map<String, Object> spec = EndToEndTest.map(result, "spec");
                assertEquals(cell.get("engine").asText(), spec.get("engine"), id);
                assertEquals(cell.get("database").asText(), spec.get("database"), id);
                assertEquals(cell.get("pattern").asText(), spec.get("pattern"), id);
                assertEquals(0, EndToEndTest.map(result, "verification").get("mismatches"), id);
            }
            assertEquals(ids.size(), journalIds.size());
            assertEquals(journalIds, resultFolders(out), "one result per cell, each in its cell's folder");

            for (String database : DATABASES) {
                assertTrue(
                        new LocalServers(work, new PrintWriter(new StringWriter()))
                                .running(database)
                                .isEmpty(),
                        database + " is left running");
            }
            Processes.awaitNoneNaming(tmp.toString(), 15); // no server, job or runner of the test is left

            Path after = tmp.resolve("after.log");
            Process next = Processes.bench(
                    work,
                    after,
                    "run",
                    "--engine",
                    engines.get(0),
                    "--db",
                    DATABASES.get(random.nextInt(DATABASES.size())),
                    "--db-port",
                    Integer.toString(dbPort),
                    "--pattern",
                    "update",
                    "--keys",
                    "200",
                    "--warmup",
                    "1s",
                    "--duration",
                    "2s",
                    "--metrics-port",
                    "0",
                    "--out",
                    tmp.resolve("after").toString());
            runners.add(next);
            assertTrue(next.waitFor(5, TimeUnit.MINUTES), "the next run ended");
            String nextLog = Files.readString(after);
            assertEquals(0, next.exitValue(), nextLog);
            assertFalse(nextLog.contains("left running"), nextLog);
            assertEquals("ok", ResultFiles.read(tmp.resolve("after")).get("status"), nextLog);
            Processes.awaitNoneNaming(tmp.toString(), 15); // no server, job or runner of the test is left
        } finally {
            frozen.forEach(p -> Processes.signal("CONT", p));
            hogs.forEach(Process::destroyForcibly);
            for (Process each : runners) {
                each.descendants().forEach(ProcessHandle::destroyForcibly);
                each.destroyForcibly();
            }
            new LocalServers(work, new PrintWriter(new StringWriter())).stop("postgresql");
            new LocalServers(work, new PrintWriter(new StringWriter())).stop("mariadb");
        }
    }

    /** Injects {@code fault} into the cell that runs now; what it did, in words. */
    private static String inject(Fault fault, Process runner, Path work, List<ProcessHandle> frozen) {
        switch (fault) {
            case DB_KILL -> {
                ServerState server = runningServer(work).orElseThrow(() -> new AssertionError("no server runs"));
                ProcessHandle serving = server.alive().stream()
                        .flatMap(p -> ProcessHandle.of(p.pid()).stream())
                        .flatMap(p -> Stream.concat(Stream.of(p), p.descendants()))
                        .filter(p -> listensOn(p, server.port()))
                        .findFirst()
                        .orElseThrow(() -> new AssertionError("no process of " + server.database() + " listens"));
                Processes.signal("KILL", serving);
                return "SIGKILL to " + server.database() + " pid " + serving.pid() + " (it served port " + server.port()
                        + ")";
            }
            case DB_FREEZE -> {
                ServerState server = runningServer(work).orElseThrow(() -> new AssertionError("no server runs"));
                server.alive().stream()
                        .flatMap(p -> ProcessHandle.of(p.pid()).stream())
                        .flatMap(p -> Stream.concat(Stream.of(p), p.descendants()))
                        .distinct()
                        .forEach(frozen::add);
                frozen.forEach(p -> Processes.signal("STOP", p));
                return "SIGSTOP to " + server.database() + " pids "
                        + frozen.stream().map(p -> Long.toString(p.pid())).toList();
            }
            case JOB_KILL -> {
                ProcessHandle job =
                        Processes.jobJvm(runner.toHandle()).orElseThrow(() -> new AssertionError("no job JVM runs"));
                Processes.signal("KILL", job);
                return "SIGKILL to job JVM pid " + job.pid();
            }
            case RUNNER_KILL -> {
                Optional<ProcessHandle> job = Processes.jobJvm(runner.toHandle());
                runner.destroyForcibly();
                job.ifPresent(
                        j -> assertTrue(exitsWithin(j, 15), "the job JVM " + j.pid() + " outlived its killed runner"));
                return "SIGKILL to runner pid " + runner.pid();
            }
            default -> throw new IllegalArgumentException(fault.name());
        }
    }

    private static boolean listensOn(ProcessHandle process, int port) {
        try {
            return Processes.listeningAddresses(process.pid()).stream().anyMatch(a -> a.endsWith(":" + port));
        } catch (IOException gone) {
            return false;
        }
    }

    private static boolean exitsWithin(ProcessHandle process, long seconds) {
        try {
            return Processes.exitsWithin(process, seconds);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Whether a cell's failure names the fault it met (or, without a fault, never happens). */
    private static boolean namesItsCause(Fault fault, String database, String reason) {
        if (fault == null) {
            return false;
        }
        return switch (fault) {
            case DB_KILL -> reason.contains("the database stopped answering")
                    || reason.contains("the local " + database + " server");
            case JOB_KILL -> reason.contains("job process died: killed by signal 9 (SIGKILL)");
            case DB_FREEZE -> reason.contains("the database stopped answering") || reason.contains("did not answer");
            default -> false;
        };
    }

    private static Optional<ServerState> runningServer(Path work) {
        LocalServers servers = new LocalServers(work, new PrintWriter(new StringWriter()));
        return DATABASES.stream()
                .map(servers::running)
                .flatMap(Optional::stream)
                .findFirst();
    }

    /**
     * Which cell meets which fault: each engine's cells in a seeded order, the first ones {@link
     * #EVERY_ENGINE}'s faults, the next one a fault of {@link #ONE_ENGINE_EACH} (engines in their
     * seeded order).
     */
    private static Map<String, Fault> schedule(JsonNode journal, List<String> engines, Random random) {
        Map<String, List<String>> cellsOf = new LinkedHashMap<>();
        engines.forEach(engine -> cellsOf.put(engine, new ArrayList<>()));
        journal.get("cells").forEach(cell -> cellsOf.get(cell.get("engine").asText())
                .add(cell.get("id").asText()));
        Map<String, Fault> faults = new LinkedHashMap<>();
        int dealt = 0;
        for (String engine : engines) {
            List<String> cells = cellsOf.get(engine);
            Collections.shuffle(cells, random);
            List<Fault> ofEngine = new ArrayList<>(EVERY_ENGINE);
            if (dealt < ONE_ENGINE_EACH.size()) {
                ofEngine.add(ONE_ENGINE_EACH.get(dealt++));
            }
            assertTrue(cells.size() >= ofEngine.size(), engine + " has too few cells for " + ofEngine);
            for (int i = 0; i < ofEngine.size(); i++) {
                faults.put(cells.get(i), ofEngine.get(i));
            }
        }
        assertEquals(ONE_ENGINE_EACH.size(), dealt, "every fault of one engine each was dealt: " + engines);
        return faults;
    }

    /** The matrix's cell ids in the order it runs them, once its journal exists. */
    private static List<String> awaitJournal(Path out, Process runner) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline && runner.isAlive()) {
            Optional<JsonNode> journal = journal(out);
            if (journal.isPresent()) {
                List<String> ids = new ArrayList<>();
                journal.get().get("cells").forEach(c -> ids.add(c.get("id").asText()));
                return ids;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the matrix wrote no journal");
    }

    private static Optional<JsonNode> journal(Path out) {
        try {
            return Optional.of(JSON.readTree(out.resolve(Journal.FILE).toFile()));
        } catch (IOException notYet) {
            return Optional.empty();
        }
    }

    private static Optional<String> runningCell(Path out) {
        return journal(out).flatMap(j -> {
            for (JsonNode cell : j.get("cells")) {
                if (cell.get("state").asText().equals("running")) {
                    return Optional.of(cell.get("id").asText());
                }
            }
            return Optional.empty();
        });
    }

    private static boolean recordsFlow(Path out, String id) throws IOException {
        Path log = out.resolve(id).resolve("run.log");
        return Files.isRegularFile(log) && Files.readString(log).contains("records flowing");
    }

    /** The cells (relative folders) that hold a result file. */
    private static Set<String> resultFolders(Path out) throws IOException {
        try (Stream<Path> files = Files.walk(out)) {
            Set<String> folders = new TreeSet<>();
            files.filter(f -> f.getFileName().toString().equals(ResultFiles.RESULT))
                    .forEach(f -> folders.add(out.relativize(f.getParent()).toString()));
            return folders;
        }
    }
}
