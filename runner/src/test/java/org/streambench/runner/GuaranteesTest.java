package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.streambench.generator.Pattern;
import org.streambench.generator.RecordGenerator;
import org.streambench.operators.Fault;
import org.streambench.runner.results.ResultFiles;
import org.streambench.servers.ServerState;
import org.streambench.servers.TestServers;

/**
 * A task failed mid-run: with at-least-once, Flink restarts from its last checkpoint, the run goes
 * on and passes, and the audit of every updated key counts the records the replay applied twice,
 * exactly as many as the job processed beyond what it emitted, and no loss; in every access mode.
 * With the guarantee none the same fault fails the run with its cause.
 */
@Tag("guarantees")
class GuaranteesTest {

    private static final int KEYS = 1000;

    @ParameterizedTest
    @ValueSource(strings = {"sync", "batch:50", "async:8"})
    void atLeastOnceRecoversAFailedTaskAndTheAuditCountsEveryDuplicate(String access, @TempDir Path tmp)
            throws Exception {
        // 7 s after the generators started: the series counts from the first record processed, which in async
        // mode can come 3 s later on a loaded machine (with both cores busy elsewhere, a fault at 6 s fell into
        // the series' 3rd interval), and a fault in the 2nd leaves no whole interval before it to compare with
        CliResult run = run(tmp, "flink", "postgresql", access, "at-least-once", "fail-task@7s", "update", "9s");
        assertEquals(0, run.code(), run.toString());
        Map<String, Object> json = ResultFiles.read(tmp.resolve("run"));
        Map<String, Object> spec = EndToEndTest.map(json, "spec");
        assertEquals("at-least-once", spec.get("guarantee"));
        assertEquals(500, ((Number) spec.get("checkpointIntervalMillis")).intValue());
        assertEquals("fail-task@7000ms", spec.get("fault"));
        Map<String, Object> recovery = EndToEndTest.map(json, "recovery");
        assertEquals(
                "AT_LEAST_ONCE", EndToEndTest.map(recovery, "engineSettings").get("execution.checkpointing.mode"));
        assertTrue(((Number) recovery.get("restartedInstances")).longValue() >= 2, recovery.toString());
        Map<String, Object> audit = EndToEndTest.map(recovery, "audit");
        long duplicates = ((Number) audit.get("duplicates")).longValue();
        assertTrue(duplicates > 0, "a replay from the checkpoint before the failure applies records twice: " + audit);
        assertEquals(((Number) recovery.get("recordsProcessedAgain")).longValue(), duplicates, recovery.toString());
        assertEquals(0, ((Number) audit.get("losses")).longValue(), audit.toString());
        assertEquals(0, ((Number) audit.get("unexplainedKeys")).longValue(), audit.toString());
        assertEquals(keysUpdated(json), ((Number) audit.get("keysAudited")).longValue(), audit.toString());
        // Flink restarts the whole pipeline a second after the failure (its fixed delay), so the fault's interval
        // and the next together lose at least that second, wherever it falls across their edge: below 75 % of
        // two intervals at the rate before the fault (28-55 % in 9 runs here, with one to three busy loops beside
        // them on the two cores). One interval alone can keep half, and a loaded machine keeps the rate before the
        // fault well below the 2,000 records/s it is throttled to (down to 862 here).
        Map<String, Object> fault = EndToEndTest.map(recovery, "fault");
        int second = ((Number) fault.get("second")).intValue();
        assertTrue(second >= 3, fault.toString());
        double before = ((Number) fault.get("recordsPerSecondBefore")).doubleValue();
        assertTrue(before > 200, "the pipeline ran before the fault: " + fault);
        double faultAndNext = recordsPerSecond(json, second) + recordsPerSecond(json, second + 1);
        assertTrue(
                faultAndNext < 2 * before * 0.75,
                faultAndNext + " records/s in the fault's interval and the next, " + fault);
    }

    /** The records per second of the series' interval {@code second} (numbered from 1, as the fault's). */
    private static double recordsPerSecond(Map<String, Object> json, int second) {
        Map<String, Object> interval = EndToEndTest.list(json, "perSecond").get(second - 1);
        assertEquals(second, ((Number) interval.get("second")).intValue(), interval.toString());
        return ((Number) interval.get("records")).doubleValue()
                / ((Number) interval.get("intervalSeconds")).doubleValue();
    }

    /**
     * Exactly-once: the writes wait for their checkpoint and are committed with its id, so after
     * the restart neither what the restored checkpoint held nor what the replay processes again is
     * applied twice: the audit finds no duplicate and no loss, and each record counts once. A
     * task failed in a checkpoint, before it completed, catches a sink that commits too early.
     */
    @ParameterizedTest
    @CsvSource({
        "postgresql, sync, fail-task@2s",
        "postgresql, batch:50, fail-checkpoint@2s",
        "mariadb, sync, fail-checkpoint@2s"
    })
    void exactlyOnceRecoversAFailedTaskAndTheDatabaseHoldsEveryEffectOnce(
            String database, String access, String fault, @TempDir Path tmp) throws Exception {
        CliResult run = run(tmp, database, access, "exactly-once", fault);
        assertEquals(0, run.code(), run.toString());
        Map<String, Object> json = ResultFiles.read(tmp.resolve("run"));
        assertEquals("exactly-once", EndToEndTest.map(json, "spec").get("guarantee"));
        Map<String, Object> recovery = EndToEndTest.map(json, "recovery");
        assertEquals(
                "EXACTLY_ONCE", EndToEndTest.map(recovery, "engineSettings").get("execution.checkpointing.mode"));
        assertTrue(((Number) recovery.get("restartedInstances")).longValue() >= 2, recovery.toString());
        Map<String, Object> audit = EndToEndTest.map(recovery, "audit");
        assertEquals(0, ((Number) audit.get("duplicates")).longValue(), audit.toString());
        assertEquals(0, ((Number) audit.get("losses")).longValue(), audit.toString());
        assertEquals(0, ((Number) audit.get("unexplainedKeys")).longValue(), audit.toString());
        assertEquals(keysUpdated(json), ((Number) audit.get("keysAudited")).longValue(), audit.toString());
        assertEquals(0, ((Number) recovery.get("recordsProcessedAgain")).longValue(), recovery.toString());
    }

    /**
     * Exactly-once inserts, on every engine and both SQL databases: a replayed insert meets no row
     * of its first attempt, because that attempt's commit never got in; the verifier finds every
     * emitted record stored once (the row count grew by exactly the records emitted) and each counted once.
     */
    @ParameterizedTest
    @CsvSource({
        "flink, postgresql",
        "flink, mariadb",
        "spark, postgresql",
        "spark, mariadb",
        "apex, postgresql",
        "apex, mariadb"
    })
    void exactlyOnceInsertsEveryRecordOnceThroughAFailedCheckpoint(String engine, String database, @TempDir Path tmp)
            throws Exception {
        CliResult run = run(tmp, engine, database, "sync", "exactly-once", "fail-checkpoint@2s", "insert");
        assertEquals(0, run.code(), run.toString());
        Map<String, Object> json = ResultFiles.read(tmp.resolve("run"));
        Map<String, Object> recovery = EndToEndTest.map(json, "recovery");
        // Flink restarts every instance of the pipeline; Spark retries the task, Apex redeploys the operator
        long restarted = ((Number) recovery.get("restartedInstances")).longValue();
        assertTrue(restarted >= (engine.equals("flink") ? 2 : 1), recovery.toString());
        Map<String, Object> verification = EndToEndTest.map(json, "verification");
        long emitted = EndToEndTest.map(EndToEndTest.map(json, "counts"), "emittedByInstance").values().stream()
                .mapToLong(count -> ((Number) count).longValue())
                .sum();
        assertEquals(emitted, ((Number) verification.get("rowDelta")).longValue(), verification.toString());
        assertEquals(0, ((Number) verification.get("mismatches")).longValue(), verification.toString());
    }

    /**
     * At-least-once inserts, alone and in a mixed run: the replay after the failure inserts records
     * whose first attempt got in, and each overwrites its own row with the same values (an upsert
     * on PostgreSQL and MariaDB, where a plain insert fails on the duplicate key; every write is one
     * on Cassandra); a mixed run's replayed new key is inserted again although its read now finds
     * it, where adding to it would double it. Records were processed again, and still the row count
     * grew by exactly the new keys emitted, each sampled one as emitted; the audit of a mixed run's
     * updated keys finds no loss.
     */
    @ParameterizedTest
    @CsvSource({
        "flink, postgresql, batch:50, fail-task@3s, insert",
        "spark, mariadb, sync, fail-checkpoint@3s, mixed",
        "apex, cassandra, sync, fail-checkpoint@3s, insert",
        "flink, mariadb, async:8, fail-task@3s, mixed"
    })
    void atLeastOnceInsertsEveryNewKeyOnceThoughTheReplayInsertsSomeAgain(
            String engine, String database, String access, String fault, String pattern, @TempDir Path tmp)
            throws Exception {
        // 3 s in, of 6: Spark's micro-batches lag the generator by a second or more, and a task failed on a
        // partition that has no records yet (at 2 s, once, under load) processes nothing again
        CliResult run = run(tmp, engine, database, access, "at-least-once", fault, pattern, "6s");
        assertEquals(0, run.code(), run.toString());
        Map<String, Object> json = ResultFiles.read(tmp.resolve("run"));
        Map<String, Object> recovery = EndToEndTest.map(json, "recovery");
        long processedAgain = ((Number) recovery.get("recordsProcessedAgain")).longValue();
        assertTrue(processedAgain > 0, recovery.toString());
        Map<String, Object> verification = EndToEndTest.map(json, "verification");
        assertEquals(newKeys(json), ((Number) verification.get("rowDelta")).longValue(), verification.toString());
        assertEquals(0, ((Number) verification.get("mismatches")).longValue(), verification.toString());
        if (pattern.equals("mixed")) {
            Map<String, Object> audit = EndToEndTest.map(recovery, "audit");
            assertEquals(0, ((Number) audit.get("losses")).longValue(), audit.toString());
            assertEquals(0, ((Number) audit.get("unexplainedKeys")).longValue(), audit.toString());
            long restarted = ((Number) recovery.get("restartedInstances")).longValue();
            assertTrue(
                    ((Number) audit.get("duplicates")).longValue() <= processedAgain + restarted,
                    "only replayed updates of existing keys apply twice: " + recovery);
        }
    }

    /** The new keys the run's records inserted, replayed from its seed and per-instance counts. */
    private static long newKeys(Map<String, Object> json) {
        Map<String, Object> spec = EndToEndTest.map(json, "spec");
        long newKeys = 0;
        for (Map.Entry<String, Object> instance : EndToEndTest.map(
                        EndToEndTest.map(json, "counts"), "emittedByInstance")
                .entrySet()) {
            RecordGenerator generator = new RecordGenerator(
                    ((Number) spec.get("seed")).longValue(),
                    Pattern.parse((String) spec.get("pattern")),
                    KEYS,
                    ((Number) spec.get("runToken")).intValue(),
                    Integer.parseInt(instance.getKey()));
            for (long seq = 0; seq < ((Number) instance.getValue()).longValue(); seq++) {
                newKeys += generator.isNewKey(seq) ? 1 : 0;
            }
        }
        assertTrue(newKeys > 0, "the run inserted records");
        return newKeys;
    }

    /**
     * Every engine on every kind of database, with the strongest guarantee the pair has. Spark
     * retries a failed task on the micro-batch's stored blocks; Apex deploys a failed operator
     * again from its checkpoint, and the buffer server replays the windows since; Flink restarts
     * from its last checkpoint. Spark's and Apex's task fails once its records of a micro-batch or
     * window are processed, before they are committed (fail-checkpoint): with at-least-once they
     * were written, and the replay applies them twice, counted; with exactly-once they are
     * committed with the micro-batch's time or the window's id only then (Redis: MULTI/EXEC with
     * the epoch WATCHed), and a replayed one committed before is skipped: nothing applied twice.
     * Cassandra and HBase have no transaction across keys: each sink's epoch is marked after the
     * epoch's writes, which are its keys' whole values, so an epoch committed again stores the same
     * state. Redis and Hazelcast commit in a transaction (Hazelcast: two-phase, with the epoch read
     * for update).
     */
    @ParameterizedTest
    @CsvSource({
        "spark, postgresql, at-least-once, fail-checkpoint@2s, spark.task.maxFailures, 4",
        "spark, postgresql, exactly-once, fail-checkpoint@2s, spark.task.maxFailures, 4",
        "apex, postgresql, exactly-once, fail-checkpoint@2s, CHECKPOINT_WINDOW_COUNT, 1",
        "spark, mariadb, exactly-once, fail-checkpoint@2s, spark.task.maxFailures, 4",
        "apex, mariadb, exactly-once, fail-checkpoint@2s, CHECKPOINT_WINDOW_COUNT, 1",
        "flink, cassandra, exactly-once, fail-checkpoint@2s, execution.checkpointing.mode, EXACTLY_ONCE",
        "spark, cassandra, exactly-once, fail-checkpoint@2s, spark.task.maxFailures, 4",
        "apex, cassandra, exactly-once, fail-checkpoint@2s, CHECKPOINT_WINDOW_COUNT, 1",
        "flink, hbase, exactly-once, fail-checkpoint@2s, execution.checkpointing.mode, EXACTLY_ONCE",
        "spark, hbase, exactly-once, fail-checkpoint@2s, spark.task.maxFailures, 4",
        "apex, hbase, exactly-once, fail-checkpoint@2s, CHECKPOINT_WINDOW_COUNT, 1",
        "flink, redis, exactly-once, fail-checkpoint@2s, execution.checkpointing.mode, EXACTLY_ONCE",
        "spark, redis, exactly-once, fail-checkpoint@2s, spark.task.maxFailures, 4",
        "apex, redis, exactly-once, fail-checkpoint@2s, CHECKPOINT_WINDOW_COUNT, 1",
        "flink, hazelcast, exactly-once, fail-checkpoint@2s, execution.checkpointing.mode, EXACTLY_ONCE",
        "spark, hazelcast, exactly-once, fail-checkpoint@2s, spark.task.maxFailures, 4",
        "apex, hazelcast, exactly-once, fail-checkpoint@2s, CHECKPOINT_WINDOW_COUNT, 1"
    })
    void everyEngineRecoversAFailedTaskAndTheAuditSaysWhatTheGuaranteePromises(
            String engine,
            String database,
            String guarantee,
            String fault,
            String setting,
            String value,
            @TempDir Path tmp)
            throws Exception {
        CliResult run = run(tmp, engine, database, "sync", guarantee, fault, "update");
        assertEquals(0, run.code(), run.toString());
        Map<String, Object> json = ResultFiles.read(tmp.resolve("run"));
        Map<String, Object> recovery = EndToEndTest.map(json, "recovery");
        assertEquals(value, EndToEndTest.map(recovery, "engineSettings").get(setting), recovery.toString());
        long restarted = ((Number) recovery.get("restartedInstances")).longValue();
        assertTrue(restarted >= 1, recovery.toString());
        Map<String, Object> audit = EndToEndTest.map(recovery, "audit");
        long duplicates = ((Number) audit.get("duplicates")).longValue();
        long processedAgain = ((Number) recovery.get("recordsProcessedAgain")).longValue();
        if (guarantee.equals("at-least-once")) {
            assertTrue(duplicates > 0, "the retried task applies what it wrote before the failure again: " + audit);
            // Flink's restart cancels every task: a sync write it interrupted may have reached the database
            // uncounted (HBase, Cassandra), at most one per restarted instance; seen once, 161 against 160
            assertTrue(
                    duplicates >= processedAgain && duplicates <= processedAgain + restarted,
                    "the audit counts what the job processed again, and at most one interrupted write per"
                            + " restarted instance more: " + recovery);
        } else {
            assertEquals(0, duplicates, audit.toString());
            assertEquals(0, processedAgain, recovery.toString());
        }
        assertEquals(0, ((Number) audit.get("losses")).longValue(), audit.toString());
        assertEquals(0, ((Number) audit.get("unexplainedKeys")).longValue(), audit.toString());
        assertEquals(keysUpdated(json), ((Number) audit.get("keysAudited")).longValue(), audit.toString());
    }

    /** The distinct keys the run's records updated, replayed from its seed and per-instance counts. */
    private static long keysUpdated(Map<String, Object> json) {
        Map<String, Object> spec = EndToEndTest.map(json, "spec");
        Set<String> keys = new HashSet<>();
        EndToEndTest.map(EndToEndTest.map(json, "counts"), "emittedByInstance").forEach((instance, emitted) -> {
            RecordGenerator generator = new RecordGenerator(
                    ((Number) spec.get("seed")).longValue(),
                    Pattern.UPDATE,
                    KEYS,
                    ((Number) spec.get("runToken")).intValue(),
                    Integer.parseInt(instance));
            for (long seq = 0; seq < ((Number) emitted).longValue(); seq++) {
                keys.add(generator.record(seq).id());
            }
        });
        assertTrue(keys.size() > KEYS / 2, "the run updated most keys: " + keys.size());
        return keys.size();
    }

    /** Spark Streaming would go on with the next micro-batch after a failed one, Apex would redeploy: the run ends instead. */
    @ParameterizedTest
    @ValueSource(strings = {"flink", "spark", "apex"})
    void withoutAGuaranteeTheFaultFailsTheRunWithItsCause(String engine, @TempDir Path tmp) throws Exception {
        CliResult run = run(tmp, engine, "postgresql", "sync", "none", "fail-task@2s", "update");
        assertEquals(1, run.code(), run.toString());
        Map<String, Object> json = ResultFiles.read(tmp.resolve("run"));
        assertEquals("failed", json.get("status"));
        String error = (String) json.get("error");
        assertTrue(error.contains("the injected fault fail-task@2000ms"), error);
        assertFalse(EndToEndTest.map(json, "spec").containsKey("guarantee"), "none is the default, left out");
        assertEquals("fail-task@2000ms", EndToEndTest.map(json, "spec").get("fault"));
    }

    /**
     * The database server itself SIGKILLed mid-run and started again on its data a second later:
     * every connection breaks and every call fails until it is back. Under a guarantee the failed
     * task fails to the engine, which restarts it from its last checkpoint; the restarted operator
     * waits for the server to answer again. Exactly-once then leaves every effect once on every
     * engine (what a killed commit did not make durable is committed again from the checkpoint),
     * also on MariaDB, and at-least-once loses nothing and counts what it applied twice. The servers here keep every
     * write they acknowledged through a kill (PostgreSQL's and MariaDB's defaults); the suite's Cassandra does so only
     * with {@code --db-profile durable} (below): a CI run of at-least-once on its default profile lost 14 records.
     */
    @ParameterizedTest
    @CsvSource({
        "flink, postgresql, exactly-once, 5s",
        "spark, postgresql, exactly-once, 5s",
        "apex, postgresql, exactly-once, 5s",
        "spark, mariadb, exactly-once, 5s",
        "flink, postgresql, at-least-once, 10s"
    })
    void everyEngineRecoversFromItsDatabaseServerKilledAndStartedAgain(
            String engine, String database, String guarantee, String duration, @TempDir Path tmp) throws Exception {
        CliResult run = run(tmp, engine, database, "sync", guarantee, "kill-db@2s,down=1s", "update", duration);
        assertEquals(0, run.code(), run.toString());
        assertTrue(run.out().contains("fault: the database server SIGKILLed"), run.toString());
        assertTrue(run.out().contains("fault over: the database server runs again"), run.toString());
        assertFalse(run.out().contains("may lose writes it acknowledged"), "its defaults keep them: " + run);
        Map<String, Object> json = ResultFiles.read(tmp.resolve("run"));
        assertEquals(
                "kill-db@2000ms,down=1000ms", EndToEndTest.map(json, "spec").get("fault"));
        Map<String, Object> recovery = EndToEndTest.map(json, "recovery");
        assertFalse(recovery.containsKey("killedServerCaveat"), recovery.toString());
        assertTrue(((Number) recovery.get("restartedInstances")).longValue() >= 1, recovery.toString());
        Map<String, Object> audit = EndToEndTest.map(recovery, "audit");
        if (guarantee.equals("exactly-once")) {
            assertEquals(0, ((Number) audit.get("duplicates")).longValue(), audit.toString());
        }
        assertEquals(0, ((Number) audit.get("losses")).longValue(), audit.toString());
        assertEquals(0, ((Number) audit.get("unexplainedKeys")).longValue(), audit.toString());
        assertEquals(keysUpdated(json), ((Number) audit.get("keysAudited")).longValue(), audit.toString());
        Map<String, Object> fault = EndToEndTest.map(recovery, "fault");
        assertTrue(((Number) fault.get("second")).intValue() >= 2, fault.toString());
        double before = ((Number) fault.get("recordsPerSecondBefore")).doubleValue();
        assertTrue(((Number) fault.get("lowestRecordsPerSecond")).doubleValue() < before / 2, fault.toString());
        // the killed server's CPU up to its kill and its replacement's, not the new server's total less the old one's;
        // in a 5 s window a second of the killed server's may go unread (killed before the next reading), and its
        // replacement may work for less than a tenth of a CPU-second before the window ends (CI saw 0.0)
        if (Duration.parse("PT" + duration).toSeconds() >= 10) {
            Map<String, Object> server =
                    EndToEndTest.map(EndToEndTest.map(EndToEndTest.map(json, "resources"), "roles"), "database");
            assertTrue(((Number) server.get("cpuSeconds")).doubleValue() > 0, server.toString());
        }
    }

    /**
     * Redis holds its data in memory, and by default on disk only in snapshots; Cassandra syncs its
     * commit log every 10 s by default. Killed, either comes back without some writes it had
     * acknowledged, so exactly-once loses what it had committed (Redis: 15,391 to 20,076 records in
     * docs/measurements/2026-11-29-database-faults.md), or, when the lost write was the sink's
     * epoch mark (Cassandra), commits an epoch again and counts its records twice (55,794 completed
     * of 55,296 emitted, once). With {@code --db-profile durable} (Redis's AOF fsynced at every
     * write, Cassandra's commit log synced before each acknowledgement) every commit it
     * acknowledged survives the kill, and exactly-once holds: nothing lost, nothing applied twice.
     * The measured time must cover the killed server's start: a durable Cassandra took 17 to 29 s here
     * to answer again (its commit log replayed, the job retrying beside it), and a run whose time ends
     * first fails (docs/guarantees.md), as a CI run of 25 s did. So Cassandra's run is bounded by its
     * records instead (10,000 at 2,000/s, within 120 s): it ends once they are processed, however long
     * the start took (a 50 s window took 101 s in CI's run of {@code c83c643}).
     */
    @ParameterizedTest
    @CsvSource({"redis, 5s, , appendfsync, always", "cassandra, 120s, 10000, commitlog_sync, batch"})
    void exactlyOnceHoldsThroughAKilledServerThatIsDurable(
            String database,
            String duration,
            Integer records,
            String durabilitySetting,
            String durableValue,
            @TempDir Path tmp)
            throws Exception {
        Path work = tmp.resolve("work");
        TestRuns.withWork(work, () -> {
            List<String> args =
                    args(tmp, "flink", database, "sync", "exactly-once", "kill-db@2s,down=1s", "update", duration);
            args.addAll(List.of("--db-profile", "durable", "--db-port", Integer.toString(TestServers.freePort())));
            if (records != null) {
                args.addAll(List.of("--records", records.toString()));
            }
            CliResult run = CliResult.bench(args.toArray(String[]::new));
            assertEquals(0, run.code(), run.toString());
            assertTrue(run.out().contains("(data in " + work.resolve("servers")), run.toString());
            assertTrue(run.out().contains("fault over: the database server runs again"), run.toString());
            assertFalse(run.out().contains("may lose writes it acknowledged"), "durable keeps them: " + run);
            Map<String, Object> json = ResultFiles.read(tmp.resolve("run"));
            Map<String, Object> environment = EndToEndTest.map(json, "environment");
            assertEquals("durable", environment.get("databaseProfile"));
            assertEquals(
                    durableValue,
                    EndToEndTest.map(environment, "durability").get(durabilitySetting),
                    environment.toString());
            Map<String, Object> recovery = EndToEndTest.map(json, "recovery");
            assertTrue(((Number) recovery.get("restartedInstances")).longValue() >= 1, recovery.toString());
            Map<String, Object> audit = EndToEndTest.map(recovery, "audit");
            assertEquals(0, ((Number) audit.get("duplicates")).longValue(), audit.toString());
            assertEquals(0, ((Number) audit.get("losses")).longValue(), audit.toString());
            assertEquals(0, ((Number) audit.get("unexplainedKeys")).longValue(), audit.toString());
            assertEquals(keysUpdated(json), ((Number) audit.get("keysAudited")).longValue(), audit.toString());
            if (records != null) {
                assertEquals(
                        records.longValue(),
                        ((Number) EndToEndTest.map(json, "counts").get("emitted")).longValue());
                assertTrue(
                        ((List<?>) json.get("perSecond")).size() < 120,
                        "ended by its records, before the window: " + json.get("phaseSeconds"));
            }
        });
    }

    /**
     * Without a guarantee a killed server fails the run with the failed call, and the error names
     * the fault; a frozen one (SIGSTOP, then SIGCONT) only holds every call, which JDBC waits for
     * without a timeout: that run passes, verified, with the dip in its series.
     */
    @ParameterizedTest
    @CsvSource({"'kill-db@2s,down=1s', 1", "'freeze-db@2s,for=1s', 0"})
    void withoutAGuaranteeAKilledServerFailsTheRunAndAFrozenOneOnlyHoldsIt(String fault, int code, @TempDir Path tmp)
            throws Exception {
        CliResult run = run(tmp, "flink", "postgresql", "sync", "none", fault, "update", "5s");
        assertEquals(code, run.code(), run.toString());
        Map<String, Object> json = ResultFiles.read(tmp.resolve("run"));
        String written = Fault.parse(fault).toString();
        assertEquals(written, EndToEndTest.map(json, "spec").get("fault"));
        if (code == 1) {
            String error = (String) json.get("error");
            assertTrue(error.contains("a database call failed"), error);
            assertTrue(error.endsWith("(after the injected fault " + written + ")"), error);
        } else {
            assertEquals(0, ((Number) EndToEndTest.map(json, "verification").get("mismatches")).longValue());
            Map<String, Object> recovered = EndToEndTest.map(EndToEndTest.map(json, "recovery"), "fault");
            assertTrue(
                    ((Number) recovered.get("lowestRecordsPerSecond")).doubleValue()
                            < ((Number) recovered.get("recordsPerSecondBefore")).doubleValue() / 2,
                    recovered.toString());
        }
    }

    /**
     * A failure that recovery does not cure: the table renamed mid-run, so every write fails again
     * after each restart. Each engine gives up after its own bound (Flink's 3 restarts, Spark's 4
     * attempts of a task, Apex's {@code RECOVERY_ATTEMPTS} 3; Apex's default has no bound) and the
     * run fails in one line with the database's error, long before its measured window ends.
     */
    @ParameterizedTest
    @ValueSource(strings = {"flink", "spark", "apex"})
    void everyEngineGivesUpOnAFailureThatEveryRestartMeetsAgain(String engine, @TempDir Path tmp) throws Exception {
        Map<String, String> settings = TestServers.start("postgresql").settings();
        ExecutorService background = Executors.newSingleThreadExecutor();
        try (Connection connection = DriverManager.getConnection(
                        settings.get("url"), settings.get("user"), settings.get("password"));
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS sensor_records"); // an earlier run's rows are not this run's
            long started = System.nanoTime();
            Future<CliResult> running = background.submit(
                    () -> run(tmp, engine, "postgresql", "sync", "exactly-once", null, "insert", "60s"));
            while (committedRows(statement) == 0) {
                assertFalse(running.isDone(), () -> "the run ended before a record was committed: " + result(running));
                Thread.sleep(100);
            }
            statement.execute("ALTER TABLE sensor_records RENAME TO sensor_records_gone");
            CliResult run = running.get(5, TimeUnit.MINUTES);
            assertEquals(1, run.code(), run.toString());
            String error = (String) ResultFiles.read(tmp.resolve("run")).get("error");
            System.out.printf("%s gave up after %.1f s: %s%n", engine, (System.nanoTime() - started) / 1e9, error);
            assertTrue(error.contains("relation \"sensor_records\" does not exist"), error);
            assertEquals(1, error.lines().count(), error);
            assertTrue(error.length() < 500, "a line to read, not the failed batch's values: " + error);
            if (engine.equals("apex")) {
                assertTrue(error.contains("failed more than 3 times (RECOVERY_ATTEMPTS)"), error);
            }
            assertTrue(
                    System.nanoTime() - started < TimeUnit.SECONDS.toNanos(60),
                    "the run gave up before its 60 s window ended: " + run);
        } finally {
            background.shutdownNow();
            try (Connection connection = DriverManager.getConnection(
                            settings.get("url"), settings.get("user"), settings.get("password"));
                    Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS sensor_records_gone");
            }
        }
    }

    /** The rows of the run's table, 0 while it does not exist yet (the run creates it). */
    private static long committedRows(Statement statement) {
        try (ResultSet rows = statement.executeQuery("SELECT count(*) FROM sensor_records")) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException notYet) {
            return 0;
        }
    }

    private static String result(Future<CliResult> done) {
        try {
            return done.get().toString();
        } catch (InterruptedException | ExecutionException e) {
            return e.toString();
        }
    }

    private static CliResult run(Path tmp, String database, String access, String guarantee, String fault)
            throws Exception {
        return run(tmp, database, access, guarantee, fault, "update");
    }

    private static CliResult run(
            Path tmp, String database, String access, String guarantee, String fault, String pattern) throws Exception {
        return run(tmp, "flink", database, access, guarantee, fault, pattern);
    }

    private static CliResult run(
            Path tmp, String engine, String database, String access, String guarantee, String fault, String pattern)
            throws Exception {
        return run(tmp, engine, database, access, guarantee, fault, pattern, "5s");
    }

    private static CliResult run(
            Path tmp,
            String engine,
            String database,
            String access,
            String guarantee,
            String fault,
            String pattern,
            String duration)
            throws Exception {
        ServerState server = TestServers.start(database);
        List<String> args = args(tmp, engine, database, access, guarantee, fault, pattern, duration);
        args.addAll(List.of("--db-port", Integer.toString(server.port())));
        return CliResult.bench(args.toArray(String[]::new));
    }

    /** A run's arguments, its server left out. */
    private static List<String> args(
            Path tmp,
            String engine,
            String database,
            String access,
            String guarantee,
            String fault,
            String pattern,
            String duration) {
        List<String> args = new ArrayList<>(List.of(
                "run",
                "--engine",
                engine,
                "--db",
                database,
                "--pattern",
                pattern,
                "--access",
                access,
                "--blob",
                "100",
                "--keys",
                Integer.toString(KEYS),
                "--rate",
                "2000",
                "--parallelism",
                "2",
                "--guarantee",
                guarantee,
                "--checkpoint-interval",
                "500ms",
                "--duration",
                duration,
                "--warmup",
                "1s",
                "--metrics-port",
                "0",
                "--out",
                tmp.resolve("run").toString()));
        if (fault != null) {
            args.addAll(List.of("--fault", fault));
        }
        return args;
    }
}
