package org.streambench.runner.matrix;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.generator.Pattern;
import org.streambench.model.RunDocument;
import org.streambench.model.RunDocument.Environment;
import org.streambench.model.RunDocument.Verification;
import org.streambench.operators.ExperimentSpec;
import org.streambench.runner.results.RunResult;
import org.streambench.runner.results.WindowStatistics;

/**
 * The matrix's orchestration without servers or engines: cells run database group by group, each
 * group's database opened once and again after a failed cell, every cell from a clean folder, the
 * journal saying what happened, and a resumed matrix running only what is left.
 */
class MatrixRunnerTest {

    private final List<String> events = new ArrayList<>();

    /** A database session of the fake cells: opening and closing it is recorded. */
    private final class FakeDatabase implements AutoCloseable {
        private final String name;

        FakeDatabase(String name) {
            this.name = name;
            events.add("open " + name);
        }

        @Override
        public void close() {
            events.add("close " + name);
        }
    }

    /** Cells that succeed, except those whose id is in {@code failing} (failed result) or {@code throwing}. */
    private MatrixRunner.Cells<FakeDatabase> cells(Set<String> failing, Set<String> throwing) {
        return new MatrixRunner.Cells<>() {
            @Override
            public FakeDatabase openDatabase(String database, PrintWriter console) {
                return new FakeDatabase(database);
            }

            @Override
            public MatrixRunner.Outcome run(Cell cell, FakeDatabase database, Path dir, PrintWriter log)
                    throws Exception {
                assertEquals(cell.database(), database.name, "a cell runs against its own group's database");
                try (var files = Files.list(dir)) {
                    assertEquals(List.of(dir.resolve(MatrixRunner.RUN_LOG)), files.toList(), "a clean folder");
                }
                events.add("run " + cell.id());
                if (throwing.contains(cell.id())) {
                    throw new IllegalStateException("the database went away");
                }
                return MatrixRunner.Outcome.of(
                        result(cell, failing.contains(cell.id()) ? "verification found 3 mismatches" : null), dir);
            }
        };
    }

    @Test
    void runsEachDatabaseGroupOnOneOpenDatabaseAndReopensItAfterAFailedCell(@TempDir Path dir) throws Exception {
        MatrixPlan plan = new MatrixPlan(
                List.of("flink", "spark"), List.of("postgresql", "cassandra"), List.of("update"), List.of(1), 1, null);
        Journal journal = Journal.create(dir, plan, Map.of(), null);
        String failing = "flink/postgresql/update/1/rep-1";

        MatrixRunner<FakeDatabase> runner =
                new MatrixRunner<>(journal, cells(Set.of(failing), Set.of()), new MatrixRunner.Listener() {}, false);
        StringWriter console = new StringWriter();
        runner.run(new PrintWriter(console, true));

        assertEquals(
                List.of(
                        "open postgresql",
                        "run flink/postgresql/update/1/rep-1",
                        "close postgresql",
                        "open postgresql",
                        "run spark/postgresql/update/1/rep-1",
                        "close postgresql",
                        "open cassandra",
                        "run flink/cassandra/update/1/rep-1",
                        "run spark/cassandra/update/1/rep-1",
                        "close cassandra"),
                events);
        assertEquals(3, journal.count(Journal.State.OK));
        assertEquals(1, journal.count(Journal.State.FAILED));
        Journal.Entry failed = entry(journal, failing);
        assertEquals("verification found 3 mismatches", failed.reason());
        assertEquals(1, failed.attempts());
        assertTrue(
                entry(journal, "flink/cassandra/update/1/rep-1").phaseSeconds().containsKey("serverStart"));
        assertTrue(console.toString().contains("[4/4]"), console.toString());
        assertEquals(1, runner.summarize(new PrintWriter(new StringWriter())), "a failed cell: exit code 1");

        // the journal on disk says the same, and a resume with --retry-failed runs the failed cell alone
        Journal reread = Journal.read(dir);
        assertEquals(Journal.State.FAILED, entry(reread, failing).state());
        events.clear();
        MatrixRunner<FakeDatabase> retry =
                new MatrixRunner<>(reread, cells(Set.of(), Set.of()), new MatrixRunner.Listener() {}, true);
        retry.run(new PrintWriter(new StringWriter()));
        assertEquals(List.of("open postgresql", "run " + failing, "close postgresql"), events);
        assertEquals(2, entry(reread, failing).attempts());
        assertNull(entry(reread, failing).reason());
        assertEquals(0, retry.summarize(new PrintWriter(new StringWriter())));
    }

    @Test
    void aCellThatThrowsIsRecordedAsFailedWithItsReasonAndTheMatrixGoesOn(@TempDir Path dir) throws Exception {
        MatrixPlan plan =
                new MatrixPlan(List.of("flink"), List.of("hbase"), List.of("read", "insert"), List.of(1), 1, null);
        Journal journal = Journal.create(dir, plan, Map.of(), null);
        List<String> heard = new ArrayList<>();
        MatrixRunner.Listener listener = new MatrixRunner.Listener() {
            @Override
            public void started(Cell cell) {
                heard.add("started " + cell.pattern());
            }

            @Override
            public void finished(
                    Cell cell, Double throughput, Double readLatencyMicros, long ok, long failed, long left, long eta) {
                heard.add("finished " + cell.pattern() + " ok " + ok + " failed " + failed + " left " + left);
            }
        };
        new MatrixRunner<>(journal, cells(Set.of(), Set.of("flink/hbase/read/1/rep-1")), listener, false)
                .run(new PrintWriter(new StringWriter()));

        assertEquals(
                List.of(
                        "started read",
                        "finished read ok 0 failed 1 left 1",
                        "started insert",
                        "finished insert ok 1 failed 1 left 0"),
                heard);
        assertEquals(
                "the database went away",
                entry(journal, "flink/hbase/read/1/rep-1").reason());
        assertEquals(
                Journal.State.OK, entry(journal, "flink/hbase/insert/1/rep-1").state());
    }

    @Test
    void aResumeRunsOnlyThePendingAndTheInterruptedCells(@TempDir Path dir) throws Exception {
        MatrixPlan plan = new MatrixPlan(
                List.of("apex"), List.of("mariadb"), List.of("read", "update", "mixed"), List.of(1), 1, null);
        Journal journal = Journal.create(dir, plan, Map.of(), null);
        entry(journal, "apex/mariadb/read/1/rep-1").state(Journal.State.OK, null);
        entry(journal, "apex/mariadb/update/1/rep-1").state(Journal.State.RUNNING, null); // the matrix died here
        journal.save();

        assertEquals(2, MatrixRunner.todo(Journal.read(dir), false).size());
        new MatrixRunner<>(Journal.read(dir), cells(Set.of(), Set.of()), new MatrixRunner.Listener() {}, false)
                .run(new PrintWriter(new StringWriter()));
        assertEquals(
                List.of(
                        "open mariadb",
                        "run apex/mariadb/update/1/rep-1",
                        "run apex/mariadb/mixed/1/rep-1",
                        "close mariadb"),
                events);
    }

    private static Journal.Entry entry(Journal journal, String id) {
        return journal.entries().stream()
                .filter(e -> e.cell().id().equals(id))
                .findFirst()
                .orElseThrow();
    }

    /** A result as a finished run writes it: ok, or failed with {@code error}. */
    private static RunResult result(Cell cell, String error) {
        ExperimentSpec spec = ExperimentSpec.builder(cell.engine(), cell.database(), Pattern.parse(cell.pattern()))
                .blobBytes(cell.blobBytes())
                .durationSeconds(10)
                .warmupSeconds(2)
                .build();
        Environment environment = new Environment(
                "local",
                null,
                null,
                null,
                "512m",
                List.of(),
                "engine 1",
                "database 1",
                null,
                Map.of(),
                "default",
                "checkpoint",
                "java",
                2,
                1L,
                "linux",
                "host",
                "0.1",
                null,
                null);
        return new RunResult(
                spec,
                new RunDocument.Warmup("fixed", 2, null),
                error == null ? "ok" : "failed",
                error,
                "2026-11-25T00:00:00Z",
                WindowStatistics.throughput(1000, 10, 0, false),
                null,
                null,
                List.of(),
                new Verification(10, error == null ? 0 : 3, 0, 0, List.of()),
                null,
                environment,
                Map.of("reset", 0.5, "verify", 1.0),
                null,
                null,
                null);
    }
}
