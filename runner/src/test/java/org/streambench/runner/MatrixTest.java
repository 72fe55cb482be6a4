package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.runner.matrix.Journal;
import org.streambench.runner.results.ResultFiles;
import org.streambench.servers.LocalServers;
import org.streambench.servers.TestServers;

/** bench matrix as a user runs it: its own JVM, its own local servers, killed and resumed. */
@Tag("integration")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class MatrixTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void stopEverything() {
        for (Process bench : started) {
            bench.descendants().forEach(ProcessHandle::destroyForcibly);
            bench.destroyForcibly();
        }
    }

    @Test
    void aSmallMatrixRunsEveryCellIntoItsFolderAndKeepsItsJournal(@TempDir Path tmp) throws Exception {
        Path work = tmp.resolve("work");
        Path out = tmp.resolve("matrix");
        Process bench = start(
                work,
                tmp.resolve("bench.log"),
                "matrix",
                "--engines",
                "flink,apex",
                "--databases",
                "noop,postgresql",
                "--patterns",
                "update",
                "--blobs",
                "100",
                "--keys",
                "200",
                "--warmup",
                "1s",
                "--duration",
                "2s",
                "--metrics-port",
                "0",
                "--db-port",
                Integer.toString(TestServers.freePort()),
                "--out",
                out.toString());
        assertTrue(bench.waitFor(8, TimeUnit.MINUTES), "the matrix ended");
        String log = Files.readString(tmp.resolve("bench.log"));
        assertEquals(0, bench.exitValue(), log);

        JsonNode journal = JSON.readTree(out.resolve(Journal.FILE).toFile());
        assertEquals(Journal.VERSION, journal.get("version").asInt());
        assertEquals(4, journal.get("cells").size());
        List<String> order = new ArrayList<>();
        List<String> serverStarts = new ArrayList<>();
        for (JsonNode cell : journal.get("cells")) {
            if (cell.get("phaseSeconds").has("serverStart")) {
                serverStarts.add(cell.get("id").asText());
            }
            assertTrue(
                    cell.get("phaseSeconds").has("jobStart")
                            && cell.get("phaseSeconds").has("verify"),
                    cell.toString());
            String id = cell.get("id").asText();
            order.add(cell.get("database").asText());
            assertEquals("ok", cell.get("state").asText(), cell.toString());
            assertEquals(1, cell.get("attempts").asInt(), cell.toString());
            assertTrue(
                    cell.get("overheadSeconds").asDouble() > 0
                            && cell.get("measuredSeconds").asDouble() >= 3,
                    cell.toString());
            Map<String, Object> result = ResultFiles.read(out.resolve(id));
            assertEquals("ok", result.get("status"), id);
            assertEquals(
                    cell.get("engine").asText(),
                    EndToEndTest.map(result, "spec").get("engine"));
            assertEquals(
                    cell.get("pattern").asText(),
                    EndToEndTest.map(result, "spec").get("pattern"));
            assertEquals(0, EndToEndTest.map(result, "verification").get("mismatches"), id);
            assertTrue(Files.isRegularFile(out.resolve(id).resolve(ResultFiles.PER_SECOND)), id);
            assertTrue(
                    log.contains(cell.get("engine").asText() + " x "
                            + cell.get("database").asText() + ", "
                            + cell.get("pattern").asText() + ", 100 B: "),
                    "one line per experiment:\n" + log);
        }
        assertEquals(
                List.of("noop", "noop", "postgresql", "postgresql"),
                order,
                "cells are grouped by database, so each server starts once");
        assertEquals(
                1,
                log.split("starting postgresql on", -1).length - 1,
                "postgresql started once for its group:\n" + log);
        String firstPostgresCell = null;
        for (JsonNode cell : journal.get("cells")) {
            if (firstPostgresCell == null && cell.get("database").asText().equals("postgresql")) {
                firstPostgresCell = cell.get("id").asText();
            }
        }
        assertEquals(
                List.of(firstPostgresCell),
                serverStarts.stream().filter(id -> id.contains("postgresql")).toList(),
                "the first postgresql cell carries the server's start, the others none");
        assertTrue(log.contains("[4/4]") && log.contains("overhead per experiment"), log);
        assertTrue(log.contains("median seconds per phase: "), log);
        assertTrue(
                new LocalServers(work, new PrintWriter(new StringWriter()))
                        .running("postgresql")
                        .isEmpty(),
                "the matrix stops the server it started");
    }

    /** SIGKILL runs no shutdown hook: the journal still says which cell was running, and --resume runs it again. */
    @Test
    void aKilledMatrixResumesWithoutRedoingFinishedCells(@TempDir Path tmp) throws Exception {
        Path work = tmp.resolve("work");
        Path out = tmp.resolve("matrix");
        int metricsPort = TestServers.freePort();
        Process first = start(
                work,
                tmp.resolve("first.log"),
                "matrix",
                "--engines",
                "flink",
                "--databases",
                "postgresql",
                "--patterns",
                "update",
                "--blobs",
                "100",
                "--keyspaces",
                "200,300",
                "--db-settings",
                "table=resumed_sensors",
                "--warmup",
                "1s",
                "--time-budget",
                "62s", // 2 x (1 s warm-up + 10 s measured + 20 s of estimated overhead)
                "--metrics-port",
                Integer.toString(metricsPort),
                "--db-port",
                Integer.toString(TestServers.freePort()),
                "--out",
                out.toString());
        Processes.awaitRecords(metricsPort, 180);
        assertTrue(
                Files.readString(tmp.resolve("first.log")).contains("--time-budget 62s: 10 s measured per experiment"),
                Files.readString(tmp.resolve("first.log")));
        ProcessHandle job = Processes.jobJvm(first.toHandle()).orElseThrow();
        JsonNode before = JSON.readTree(out.resolve(Journal.FILE).toFile());
        assertEquals("running", before.get("cells").get(0).get("state").asText());
        first.destroyForcibly();
        assertTrue(Processes.exitsWithin(job, 15), "the job JVM outlived its killed matrix");

        Process second = start(work, tmp.resolve("second.log"), "matrix", "--resume", out.toString());
        assertTrue(second.waitFor(8, TimeUnit.MINUTES), "the resumed matrix ended");
        String log = Files.readString(tmp.resolve("second.log"));
        assertEquals(0, second.exitValue(), log);
        assertTrue(log.contains("resuming " + out + ": 0 done, 0 failed, 2 to run"), log);
        JsonNode journal = JSON.readTree(out.resolve(Journal.FILE).toFile());
        for (JsonNode cell : journal.get("cells")) {
            assertEquals("ok", cell.get("state").asText(), cell.toString());
            assertEquals(
                    "ok", ResultFiles.read(out.resolve(cell.get("id").asText())).get("status"));
            assertEquals(
                    10,
                    ((Number) EndToEndTest.map(
                                            ResultFiles.read(
                                                    out.resolve(cell.get("id").asText())),
                                            "spec")
                                    .get("durationSeconds"))
                            .intValue(),
                    "the resumed cells run with the window the time budget gave when the matrix started");
            Map<String, Object> spec =
                    EndToEndTest.map(ResultFiles.read(out.resolve(cell.get("id").asText())), "spec");
            assertEquals(
                    cell.get("settings").get("keys").asLong(),
                    ((Number) spec.get("keys")).longValue(),
                    "a resumed cell runs with its own value of the key-space axis");
            assertEquals(
                    "resumed_sensors",
                    ((Map<?, ?>) spec.get("databaseSettings")).get("table"),
                    "and with the connector setting of the --db-settings axis");
        }
        assertEquals(
                List.of(
                        "flink/postgresql/update/100/keys-200/db-setting-table-resumed-sensors/rep-1",
                        "flink/postgresql/update/100/keys-300/db-setting-table-resumed-sensors/rep-1"),
                StreamSupport.stream(journal.get("cells").spliterator(), false)
                        .map(cell -> cell.get("id").asText())
                        .toList());
        CliResult report = CliResult.bench("report", out.toString());
        assertEquals(0, report.code(), report.toString());
        String html = Files.readString(out.resolve("report").resolve("index.html"));
        assertTrue(
                html.contains("Settings: what one changes") && html.contains("sync, 300 keys"),
                "the report keeps the key spaces apart and compares them");
        assertEquals(2, journal.get("cells").get(0).get("attempts").asInt(), "the cell that was running ran again");
        assertEquals(1, journal.get("cells").get(1).get("attempts").asInt());

        // a finished matrix resumed again runs nothing
        CliResult again = CliResult.bench("matrix", "--resume", out.toString());
        assertEquals(0, again.code(), again.toString());
        assertTrue(again.out().contains("2 done, 0 failed, 0 to run"), again.toString());
        CliResult retryPlan = CliResult.bench("matrix", "--resume", out.toString(), "--retry-failed", "--dry-run");
        assertEquals(0, retryPlan.code(), retryPlan.toString());
        assertTrue(
                retryPlan.out().contains("the median overhead of this matrix's 2 finished experiments"),
                "a resumed plan estimates with the overhead measured so far: " + retryPlan);
        assertTrue(Processes.jobJvm(ProcessHandle.current()).isEmpty());
        assertTrue(
                new LocalServers(work, new PrintWriter(new StringWriter()))
                        .running("postgresql")
                        .isEmpty(),
                "no server is left behind");
    }

    /**
     * SIGTERM (Ctrl-C) mid-cell: the cell stays "running" in the journal for --resume, and the
     * matrix starts nothing more. (It once took the interrupted cell for a failed one, restarted its
     * server for the next cell while its clean-up stopped the first, and left that one running;
     * Cassandra, whose stop takes seconds, gave it the time to.)
     */
    @Test
    void aMatrixStoppedWithSigtermLeavesItsCellToResumeAndNothingRunning(@TempDir Path tmp) throws Exception {
        Path work = tmp.resolve("work");
        Path out = tmp.resolve("matrix");
        Path log = tmp.resolve("bench.log");
        int metricsPort = TestServers.freePort();
        Process bench = start(
                work,
                log,
                "matrix",
                "--engines",
                "flink",
                "--databases",
                "cassandra",
                "--patterns",
                "update",
                "--blobs",
                "100,300",
                "--keys",
                "200",
                "--warmup",
                "1s",
                "--duration",
                "60s",
                "--metrics-port",
                Integer.toString(metricsPort),
                "--db-port",
                Integer.toString(TestServers.freePort()),
                "--out",
                out.toString());
        Processes.awaitRecords(metricsPort, 180);
        ProcessHandle job = Processes.jobJvm(bench.toHandle()).orElseThrow();
        bench.destroy();
        assertTrue(bench.waitFor(60, TimeUnit.SECONDS), "the matrix ended after SIGTERM");
        assertTrue(Processes.exitsWithin(job, 15), "the job JVM outlived its matrix");

        String output = Files.readString(log);
        assertFalse(output.contains("failed 1"), output);
        JsonNode journal = JSON.readTree(out.resolve(Journal.FILE).toFile());
        assertEquals("running", journal.get("cells").get(0).get("state").asText());
        assertEquals("pending", journal.get("cells").get(1).get("state").asText());
        assertTrue(
                new LocalServers(work, new PrintWriter(new StringWriter()))
                        .running("cassandra")
                        .isEmpty(),
                "the server is stopped");
        Processes.awaitNoneNaming(work.toString(), 15); // no process of the matrix's work folder
    }

    /**
     * --steps in a matrix: each insert cell fills one table in two steps into its own step folders,
     * the second step starting on the first's rows; the plan says so, and the report finds every
     * planned cell's results in its step folders.
     */
    @Test
    void aFillMatrixRunsEachCellsStepsOnOneTableAndTheReportFindsThem(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("matrix");
        List<String> args = new ArrayList<>(List.of(
                "matrix",
                "--engines",
                "flink",
                "--databases",
                "postgresql",
                "--patterns",
                "insert",
                "--blobs",
                "100",
                "--steps",
                "2",
                "--records",
                "300",
                "--duration",
                "120s",
                "--warmup",
                "0s",
                "--metrics-port",
                "0",
                "--out",
                out.toString()));
        args.addAll(TestRuns.postgresArgs(TestServers.start("postgresql")));
        List<String> dryRun = new ArrayList<>(args);
        dryRun.add("--dry-run");
        CliResult plan = CliResult.bench(dryRun.toArray(String[]::new));
        assertEquals(0, plan.code(), plan.toString());
        assertTrue(plan.out().contains("each cell a fill of 2 steps on one table"), plan.out());
        assertFalse(Files.exists(out), "a dry run writes nothing");

        CliResult run = CliResult.bench(args.toArray(String[]::new));
        assertEquals(0, run.code(), run.toString());
        assertTrue(run.out().contains("fill of 2 steps, step 2: flink x postgresql, insert, 100 B"), run.out());
        String cell = "flink/postgresql/insert/100/rep-1";
        long perStep = 0;
        for (int step = 1; step <= 2; step++) {
            Map<String, Object> result = ResultFiles.read(out.resolve(cell).resolve("step-" + step));
            Map<String, Object> spec = EndToEndTest.map(result, "spec");
            perStep = ((Number) spec.get("recordsPerGenerator")).longValue()
                    * ((Number) spec.get("generatorParallelism")).intValue();
            assertEquals(0, EndToEndTest.map(result, "verification").get("mismatches"), result.toString());
            Map<String, Object> fill = EndToEndTest.map(result, "fill");
            assertEquals(step, fill.get("step"));
            assertEquals((step - 1) * perStep, ((Number) fill.get("rowsBefore")).longValue(), fill.toString());
        }
        JsonNode journal = JSON.readTree(out.resolve(Journal.FILE).toFile());
        assertEquals("ok", journal.get("cells").get(0).get("state").asText(), journal.toString());
        assertEquals("2", journal.get("settings").get("steps").asText(), "the journal keeps --steps for a resume");

        CliResult report = CliResult.bench("report", out.toString());
        assertEquals(0, report.code(), report.toString());
        String html = Files.readString(out.resolve("report").resolve("index.html"));
        assertTrue(html.contains("every one has a result"), html);
        assertTrue(html.contains("Fill level"), html);
    }

    @Test
    void aDryRunPrintsThePlanAndWritesNothing(@TempDir Path tmp) {
        Path out = tmp.resolve("matrix");
        CliResult run = CliResult.bench("matrix", "--dry-run", "--out", out.toString());
        assertEquals(0, run.code(), run.toString());
        assertTrue(run.out().contains("180 experiments; estimated wall time"), run.out());
        assertTrue(
                run.out().contains("each cell: warm-up until steady, at most 30 s, 30 s measured"),
                "the matrix's default warm-up: " + run.out());
        assertTrue(run.out().contains("metrics on any free port"), "never the fixed default port: " + run.out());
        assertTrue(run.out().contains("flink/cassandra/read/1/rep-1"), run.out());
        assertFalse(Files.exists(out));
    }

    @Test
    void settingAxesMakeACellPerCombinationInAFolderEachAndThePlanSaysSo(@TempDir Path tmp) {
        Path out = tmp.resolve("matrix");
        CliResult run = CliResult.bench(
                "matrix",
                "--dry-run",
                "--engines",
                "flink",
                "--databases",
                "cassandra",
                "--patterns",
                "update",
                "--blobs",
                "1",
                "--keyspaces",
                "10000,1000000",
                "--parallelisms",
                "1,2",
                "--db-settings",
                "writeConsistency=ONE;writeConsistency=QUORUM , readConsistency=ONE",
                "--out",
                out.toString());
        assertEquals(0, run.code(), run.toString());
        assertTrue(run.out().contains("x keys 10000 | 1000000 (a setting axis)"), run.out());
        assertTrue(run.out().contains("x parallelism 1 | 2 (a setting axis)"), run.out());
        assertTrue(
                run.out().contains("x db-setting writeConsistency=ONE | writeConsistency=QUORUM,readConsistency=ONE"),
                run.out());
        assertTrue(run.out().contains("keys per axis, parallelism per axis"), run.out());
        assertTrue(run.out().contains("8 experiments"), run.out());
        assertTrue(
                run.out()
                        .contains("flink/cassandra/update/1/keys-1000000/parallelism-2/"
                                + "db-setting-writeConsistency-QUORUM-readConsistency-ONE/rep-1"),
                run.out());
        assertFalse(Files.exists(out));
    }

    @Test
    void aKeyDistributionAxisLeavesOutTheInsertCellsThatCannotTakeIt(@TempDir Path tmp) {
        Path out = tmp.resolve("matrix");
        CliResult run = CliResult.bench(
                "matrix",
                "--dry-run",
                "--engines",
                "flink",
                "--databases",
                "postgresql",
                "--patterns",
                "read,insert",
                "--blobs",
                "1",
                "--key-distributions",
                "uniform,zipfian,hotspot:0.2/0.8",
                "--out",
                out.toString());
        assertEquals(0, run.code(), run.toString());
        assertTrue(run.out().contains("left out 2 of 6 cells"), run.out());
        assertTrue(run.out().contains("1 x --key-distribution zipfian picks among existing keys"), run.out());
        assertTrue(run.out().contains("4 experiments"), run.out());
        assertTrue(run.out().contains("flink/postgresql/read/1/key-distribution-hotspot-0-2-0-8/rep-1"), run.out());
        assertTrue(run.out().contains("flink/postgresql/insert/1/key-distribution-uniform/rep-1"), run.out());
        assertFalse(run.out().contains("flink/postgresql/insert/1/key-distribution-zipfian"), run.out());
        assertFalse(Files.exists(out));
    }

    @Test
    void aGuaranteeAxisLeavesOutTheCellsThatCannotGiveTheirGuaranteeAndSaysWhy(@TempDir Path tmp) {
        Path out = tmp.resolve("matrix");
        CliResult run = CliResult.bench(
                "matrix",
                "--dry-run",
                "--engines",
                "flink,apex",
                "--databases",
                "postgresql,ignite",
                "--patterns",
                "update",
                "--blobs",
                "1",
                "--guarantees",
                "none,exactly-once,at-least-once",
                "--checkpoint-intervals",
                "1s,10s",
                "--out",
                out.toString());
        assertEquals(0, run.code(), run.toString());
        // 4 without a guarantee; exactly-once on postgresql only, at-least-once everywhere
        assertTrue(run.out().contains("left out 4 of 20 cells"), run.out());
        assertTrue(run.out().contains("ignite cannot commit them so here"), run.out());
        assertTrue(run.out().contains("16 experiments"), run.out());
        assertTrue(run.out().contains("apex/ignite/update/1/at-least-once-1s/rep-1"), run.out());
        assertTrue(run.out().contains("apex/postgresql/update/1/exactly-once-10s/rep-1"), run.out());
        assertTrue(run.out().contains("flink/ignite/update/1/at-least-once-1s/rep-1"), run.out());
        assertFalse(run.out().contains("apex/ignite/update/1/exactly-once"), run.out());
        assertFalse(Files.exists(out));
    }

    @Test
    void badInputIsOneLineAndWritesNothing(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("matrix");
        assertBad(out, "unknown engine 'storm'", "matrix", "--engines", "flink,storm", "--out", out.toString());
        assertBad(out, "--patterns is empty", "matrix", "--patterns", ",", "--out", out.toString());
        assertBad(out, "unknown database 'oracle'", "matrix", "--databases", "oracle", "--out", out.toString());
        assertBad(
                out,
                "--key-distribution hotspot:0.1/0.9 picks among existing keys, and every record of an insert run has a new"
                        + " one; use it with read, update or mixed",
                "matrix",
                "--key-distribution",
                "hotspot:0.1/0.9",
                "--out",
                out.toString());
        assertBad(
                out, "takes --engines (a list), not --engine", "matrix", "--engine", "flink", "--out", out.toString());
        assertBad(out, "--retry-failed goes with --resume", "matrix", "--retry-failed", "--out", out.toString());
        assertBad(
                out,
                "--steps fills the table step by step; it goes with --pattern insert, not read",
                "matrix",
                "--steps",
                "2",
                "--patterns",
                "insert,read",
                "--databases",
                "noop",
                "--out",
                out.toString());
        assertBad(
                out,
                "--steps fills a table run by run; leave out --capacity",
                "matrix",
                "--steps",
                "2",
                "--patterns",
                "insert",
                "--capacity",
                "--slo",
                "p99=1s",
                "--out",
                out.toString());
        assertBad(
                out,
                "takes --guarantees (a list), not --guarantee",
                "matrix",
                "--guarantee",
                "exactly-once",
                "--out",
                out.toString());
        assertBad(
                out,
                "--checkpoint-intervals goes with a guarantee that checkpoints",
                "matrix",
                "--checkpoint-intervals",
                "1s,10s",
                "--out",
                out.toString());
        assertBad(
                out, "--guarantees 'twice' must be one of", "matrix", "--guarantees", "twice", "--out", out.toString());
        assertBad(
                out,
                "--checkpoint-intervals '5ms' is shorter than 10ms",
                "matrix",
                "--guarantees",
                "none,exactly-once",
                "--checkpoint-intervals",
                "1s,5ms",
                "--out",
                out.toString());
        assertBad(
                out,
                "no cell of the matrix can run its guarantee or key distribution: --guarantee exactly-once commits",
                "matrix",
                "--guarantees",
                "exactly-once",
                "--databases",
                "ignite",
                "--out",
                out.toString());

        assertBad(
                out,
                "--keyspaces 'many' must be a positive whole number",
                "matrix",
                "--keyspaces",
                "1000,many",
                "--out",
                out.toString());
        assertBad(
                out,
                "--keyspaces is empty; give at least one value, e.g. --keyspaces 10000,1000000",
                "matrix",
                "--keyspaces",
                ",",
                "--out",
                out.toString());
        assertBad(
                out,
                "give --parallelism or --parallelisms, not both",
                "matrix",
                "--parallelism",
                "2",
                "--parallelisms",
                "1,2",
                "--out",
                out.toString());
        assertBad(
                out,
                "--db-settings 'ONE' must be KEY=VALUE pairs",
                "matrix",
                "--databases",
                "cassandra",
                "--db-settings",
                "ONE",
                "--out",
                out.toString());
        assertBad(
                out,
                "database postgresql has no setting 'writeConsistency'",
                "matrix",
                "--databases",
                "postgresql",
                "--db-settings",
                "writeConsistency=ONE",
                "--out",
                out.toString());
        assertBad(
                out,
                "--db-setting table and --db-settings both set table",
                "matrix",
                "--databases",
                "postgresql",
                "--db-setting",
                "table=a",
                "--db-settings",
                "table=b;table=c",
                "--out",
                out.toString());
        assertBad(
                out,
                "--keys must be at most",
                "matrix",
                "--databases",
                "postgresql",
                "--keyspaces",
                "10,999999999999",
                "--out",
                out.toString());
        assertBad(out, "is not a matrix folder", "matrix", "--resume", tmp.toString());

        Path newer = Files.createDirectories(tmp.resolve("newer"));
        Files.writeString(newer.resolve(Journal.FILE), "{\"version\": 99, \"plan\": {}, \"cells\": []}");
        CliResult run = CliResult.bench("matrix", "--resume", newer.toString());
        assertEquals(2, run.code(), run.toString());
        assertTrue(run.err().contains("written by a newer streambench"), run.err());
        assertEquals(1, run.err().strip().lines().count(), run.err());
        assertEquals(
                List.of(Journal.FILE),
                Files.list(newer).map(p -> p.getFileName().toString()).toList());
    }

    private static void assertBad(Path out, String expected, String... args) {
        CliResult run = CliResult.bench(args);
        assertEquals(2, run.code(), run.toString());
        assertTrue(run.err().contains(expected), run.err());
        assertEquals(1, run.err().strip().lines().count(), "one line: " + run.err());
        assertFalse(Files.exists(out), "nothing written");
    }

    private Process start(Path work, Path log, String... args) throws Exception {
        Process bench = Processes.bench(work, log, args);
        started.add(bench);
        return bench;
    }
}
