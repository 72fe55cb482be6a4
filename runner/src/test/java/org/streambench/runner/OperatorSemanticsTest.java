package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.runner.TimedRecords.timed;

import java.io.IOException;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.streambench.db.Database;
import org.streambench.db.StoredRecord;
import org.streambench.generator.Keys;
import org.streambench.generator.Pattern;
import org.streambench.generator.RecordGenerator;
import org.streambench.generator.SensorRecord;
import org.streambench.operators.Blob;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.JobRuntime;
import org.streambench.operators.Operation;
import org.streambench.operators.OperatorMetrics;
import org.streambench.operators.ProcessingOperator;
import org.streambench.servers.TestServers;

/**
 * The processing operator's semantics for every pattern, against every database the suite runs
 * locally (real servers; MongoDB is the wire-protocol emulator, see the README).
 */
@Tag("integration")
class OperatorSemanticsTest {

    private static final int KEYS = 20;
    private JobRuntime runtime;

    @AfterEach
    void closeRuntime() {
        if (runtime != null) {
            runtime.close();
        }
    }

    private Database prepare(String database, Pattern pattern, int blobBytes) throws IOException {
        runtime = JobRuntime.start(ExperimentSpec.builder("test", database, pattern)
                .blobBytes(blobBytes)
                .durationSeconds(2)
                .warmupSeconds(1)
                .keys(KEYS)
                .seed(7)
                .runToken(3)
                .databaseSettings(TestServers.start(database).settings())
                .build());
        Database db = TestServers.open(database);
        db.resetSchema();
        if (pattern.needsExistingKeys()) {
            db.prefill(KEYS, RecordGenerator::prefill, i -> Blob.pool(runtime.spec())
                    .forKey(Keys.existing(i)));
        }
        return db;
    }

    @ParameterizedTest
    @MethodSource("org.streambench.runner.Registries#databases")
    void insertStoresTheRecordWithItsBlobAndNoRead(String database) throws IOException {
        try (Database db = prepare(database, Pattern.INSERT, 100_000);
                ProcessingOperator operator = ProcessingOperator.open(runtime.spec())) {
            SensorRecord first = new SensorRecord(Keys.fresh(3, 0, 0), 1, 2, 3, 0.25, -1.5, 9.75);
            SensorRecord second = new SensorRecord(Keys.fresh(3, 0, 1), 4, 5, 6, 1.0, 2.0, 3.0);
            operator.process(timed(first));
            operator.process(timed(second));
            assertEquals(2, db.countRows());
            StoredRecord stored = db.read(first.id()).orElseThrow();
            assertEquals(first, stored.record());
            assertArrayEquals(Blob.pool(runtime.spec()).forKey(first.id()), stored.blob());
            OperatorMetrics metrics = runtime.metrics();
            assertEquals(2, metrics.processedCount(Operation.INSERT));
            assertEquals(0, runtime.measuredLatency().getTotalCount(), "insert-only must not read");
        }
    }

    @ParameterizedTest
    @MethodSource("org.streambench.runner.Registries#databases")
    void updateReadsAddsFieldByFieldAndWritesBack(String database) throws IOException {
        try (Database db = prepare(database, Pattern.UPDATE, 10_000);
                ProcessingOperator operator = ProcessingOperator.open(runtime.spec())) {
            SensorRecord delta = new SensorRecord(Keys.existing(5), 10, 20, 30, 0.5, 0.25, -0.125);
            operator.process(timed(delta));
            operator.process(timed(delta));
            SensorRecord expected = RecordGenerator.prefill(5).plus(delta).plus(delta);
            StoredRecord stored = db.read(Keys.existing(5)).orElseThrow();
            assertEquals(expected, stored.record());
            assertEquals(10_000, stored.blob().length);
            assertEquals(
                    RecordGenerator.prefill(6),
                    db.read(Keys.existing(6)).orElseThrow().record(),
                    "other keys untouched");
            assertEquals(KEYS, db.countRows());
            assertEquals(2, runtime.metrics().processedCount(Operation.UPDATE));
            assertEquals(2, runtime.measuredLatency().getTotalCount(), "every update reads first, timed");
        }
    }

    @ParameterizedTest
    @MethodSource("org.streambench.runner.Registries#databases")
    void readOnlyReadsAndChangesNothing(String database) throws IOException {
        try (Database db = prepare(database, Pattern.READ, 1);
                ProcessingOperator operator = ProcessingOperator.open(runtime.spec())) {
            operator.process(timed(new SensorRecord(Keys.existing(2), 100, 100, 100, 1, 1, 1)));
            assertEquals(
                    RecordGenerator.prefill(2),
                    db.read(Keys.existing(2)).orElseThrow().record());
            assertEquals(1, runtime.metrics().processedCount(Operation.READ));
            assertEquals(1, runtime.measuredLatency().getTotalCount());
            assertEquals(1, db.read(Keys.existing(2)).orElseThrow().blob().length);
        }
    }

    @ParameterizedTest
    @MethodSource("org.streambench.runner.Registries#databases")
    void mixedInsertsNewKeysAndUpdatesExistingOnes(String database) throws IOException {
        try (Database db = prepare(database, Pattern.MIXED, 10_000);
                ProcessingOperator operator = ProcessingOperator.open(runtime.spec())) {
            SensorRecord fresh = new SensorRecord(Keys.fresh(3, 0, 9), 7, 8, 9, 0.5, 0.5, 0.5);
            SensorRecord existing = new SensorRecord(Keys.existing(1), 1, 1, 1, 1, 1, 1);
            operator.process(timed(fresh));
            operator.process(timed(existing));
            assertEquals(KEYS + 1, db.countRows());
            assertEquals(fresh, db.read(fresh.id()).orElseThrow().record());
            assertEquals(
                    RecordGenerator.prefill(1).plus(existing),
                    db.read(existing.id()).orElseThrow().record());
            assertEquals(1, runtime.metrics().processedCount(Operation.INSERT));
            assertEquals(1, runtime.metrics().processedCount(Operation.UPDATE));
            OperatorMetrics.LatencyWindow window = runtime.measuredWindow(); // taking a window starts the next one
            assertEquals(2, window.successful().getTotalCount(), "mixed reads before both paths");
            Map<OperatorMetrics.ReadResult, Histogram> byResult = window.byResult();
            assertEquals(1, byResult.get(OperatorMetrics.ReadResult.HIT).getTotalCount(), "the existing key, a hit");
            assertEquals(1, byResult.get(OperatorMetrics.ReadResult.MISS).getTotalCount(), "the new key, a miss");
            assertEquals(0, byResult.get(OperatorMetrics.ReadResult.FAILED).getTotalCount());
        }
    }

    /** A read that fails is timed too, apart from the reads that worked, never dropped. */
    @Test
    @SuppressWarnings("try") // the prepared database is only held open, and closed, by the try
    void aFailedReadIsRecordedApart() throws IOException {
        try (Database db = prepare("postgresql", Pattern.UPDATE, 100)) {
            ProcessingOperator operator = ProcessingOperator.open(runtime.spec());
            operator.close(); // its connection is gone: the next read fails
            operator.process(timed(new SensorRecord(Keys.existing(1), 1, 1, 1, 1, 1, 1)));
            OperatorMetrics.LatencyWindow window = runtime.measuredWindow();
            assertEquals(
                    1, window.byResult().get(OperatorMetrics.ReadResult.FAILED).getTotalCount());
            assertEquals(0, window.successful().getTotalCount(), "the read latency counts only reads that worked");
            assertEquals(1, runtime.metrics().errorCount());
            assertTrue(
                    runtime.metrics().scrape().contains("streambench_read_failed_latency_seconds_count"),
                    "exported apart");
        }
    }

    /** Cassandra's and HBase's writes are upserts by design; the others reject a duplicate key. */
    @ParameterizedTest
    @MethodSource("org.streambench.runner.Registries#databasesRejectingDuplicates")
    @SuppressWarnings("try") // the prepared database is only held open, and closed, by the try
    void failedCallsAreCountedAndReportedNeverSwallowed(String database) throws IOException {
        try (Database db = prepare(database, Pattern.INSERT, 1);
                ProcessingOperator operator = ProcessingOperator.open(runtime.spec())) {
            SensorRecord record = new SensorRecord(Keys.fresh(3, 0, 0), 1, 1, 1, 1, 1, 1);
            operator.process(timed(record));
            operator.process(timed(record)); // duplicate key
            assertEquals(1, runtime.metrics().processedCount(Operation.INSERT));
            assertEquals(1, runtime.metrics().errorCount());
            assertNotNull(runtime.metrics().firstError());
            assertTrue(
                    runtime.metrics().firstError().startsWith("insert:"),
                    runtime.metrics().firstError());
            assertTrue(runtime.metrics().scrape().contains("streambench_db_errors_total"), "errors are exported");
        }
    }

    @ParameterizedTest
    @MethodSource("org.streambench.runner.Registries#databases")
    void readOfAMissingKeyIsAnError(String database) throws IOException {
        try (Database db = prepare(database, Pattern.UPDATE, 1);
                ProcessingOperator operator = ProcessingOperator.open(runtime.spec())) {
            operator.process(timed(new SensorRecord(Keys.existing(KEYS + 5), 1, 1, 1, 1, 1, 1)));
            assertEquals(0, runtime.metrics().processedCount(Operation.UPDATE));
            assertEquals(1, runtime.metrics().errorCount());
            assertEquals(KEYS, db.countRows(), "a missing key must not be inserted by update-only");
        }
    }

    @ParameterizedTest
    @MethodSource("org.streambench.runner.Registries#databases")
    void resetEmptiesTheSchemaAndPrefillStoresEveryKey(String database) throws IOException {
        try (Database db = prepare(database, Pattern.UPDATE, 10_000)) {
            assertEquals(KEYS, db.countRows());
            assertEquals(0, db.countBlobsNotOfLength(10_000));
            assertEquals(KEYS, db.countBlobsNotOfLength(9_999));
            for (long index = 0; index < KEYS; index++) {
                assertEquals(
                        RecordGenerator.prefill(index),
                        db.read(Keys.existing(index)).orElseThrow().record());
            }
            assertTrue(db.read(Keys.existing(KEYS)).isEmpty());
            db.resetSchema();
            assertEquals(0, db.countRows());
            assertTrue(db.read(Keys.existing(0)).isEmpty());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 10_000, 100_000})
    void everyStudyBlobSizeRoundTripsOnEveryDatabase(int blobBytes) throws IOException {
        for (String database : Registries.databases()) {
            try (Database db = prepare(database, Pattern.MIXED, blobBytes);
                    ProcessingOperator operator = ProcessingOperator.open(runtime.spec())) {
                operator.process(timed(new SensorRecord(Keys.fresh(3, 0, 1), 1, 1, 1, 1, 1, 1)));
                operator.process(timed(new SensorRecord(Keys.existing(0), 1, 1, 1, 1, 1, 1)));
                assertEquals(0, db.countBlobsNotOfLength(blobBytes), database);
                assertEquals(KEYS + 1, db.countRows(), database);
                assertArrayEquals(
                        Blob.pool(runtime.spec()).forKey(Keys.existing(0)),
                        db.read(Keys.existing(0)).orElseThrow().blob(),
                        database);
            } finally {
                runtime.close();
                runtime = null;
            }
        }
    }
}
