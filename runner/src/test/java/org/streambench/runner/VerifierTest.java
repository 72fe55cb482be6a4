package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.streambench.db.Database;
import org.streambench.generator.Keys;
import org.streambench.generator.Pattern;
import org.streambench.generator.RecordGenerator;
import org.streambench.generator.SensorRecord;
import org.streambench.model.RunDocument.Verification;
import org.streambench.operators.Blob;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.GeneratorInstance;
import org.streambench.operators.JobReport;
import org.streambench.operators.JobRuntime;
import org.streambench.operators.ProcessingOperator;
import org.streambench.runner.experiment.Verifier;
import org.streambench.servers.TestServers;

/**
 * Drives generator and operator in this JVM against a real server, then checks that the
 * verifier passes an honest run and catches every kind of change made behind the operator's back.
 */
@Tag("integration")
class VerifierTest {

    private static final int KEYS = 50;
    private static final int BLOB = 1000;
    private JobRuntime runtime;

    @AfterEach
    void closeRuntime() {
        runtime.close();
    }

    /** Runs {@code records} mixed records from two generator instances; returns the spec used. */
    private ExperimentSpec honestRun(String database, Database db, int records) throws Exception {
        ExperimentSpec spec = ExperimentSpec.builder("test", database, Pattern.MIXED)
                .blobBytes(BLOB)
                .durationSeconds(2)
                .warmupSeconds(1)
                .keys(KEYS)
                .generatorParallelism(2)
                .seed(11)
                .runToken(77)
                .databaseSettings(TestServers.start(database).settings())
                .build();
        runtime = JobRuntime.start(spec);
        db.resetSchema();
        db.prefill(KEYS, RecordGenerator::prefill, i -> Blob.of(BLOB, 11));
        try (ProcessingOperator operator = ProcessingOperator.open(runtime.spec())) {
            GeneratorInstance[] generators = {
                GeneratorInstance.of(runtime.spec(), 0), GeneratorInstance.of(runtime.spec(), 1)
            };
            for (int i = 0; i < records; i++) {
                operator.process(generators[i % 2].next());
            }
        }
        return spec;
    }

    private Verification verify(ExperimentSpec spec, Database db) {
        JobReport report = runtime.report("finished", null, "test");
        return new Verifier(spec).verify(report, db, true, KEYS);
    }

    @ParameterizedTest
    @MethodSource("org.streambench.runner.Registries#databases")
    void passesAnHonestRunAndCatchesTamperedValues(String database) throws Exception {
        try (Database db = TestServers.open(database)) {
            ExperimentSpec spec = honestRun(database, db, 400);
            Verification honest = verify(spec, db);
            assertEquals(0, honest.mismatches(), honest.details().toString());
            assertTrue(
                    honest.expectedInserts() > 150 && honest.expectedInserts() < 250, "about half of 400 are new keys");
            assertEquals(honest.expectedInserts(), honest.rowDelta());
            assertTrue(honest.checked() > KEYS, "every existing key of a 50-key space is sampled");

            SensorRecord stored = db.read(Keys.existing(7)).orElseThrow().record();
            db.update(stored.plus(new SensorRecord(stored.id(), 1, 0, 0, 0, 0, 0)), Blob.of(BLOB, 11));
            Verification tampered = verify(spec, db);
            assertEquals(1, tampered.mismatches(), tampered.details().toString());
            assertTrue(
                    tampered.details().get(0).contains(Keys.existing(7)),
                    tampered.details().toString());
        }
    }

    @ParameterizedTest
    @MethodSource("org.streambench.runner.Registries#databases")
    void catchesAWrongBlobLengthAndAnExtraRow(String database) throws Exception {
        try (Database db = TestServers.open(database)) {
            ExperimentSpec spec = honestRun(database, db, 100);
            SensorRecord stored = db.read(Keys.existing(3)).orElseThrow().record();
            db.update(stored, Blob.of(BLOB - 1, 11));
            db.insert(new SensorRecord(Keys.fresh(Keys.MAX_TOKEN, 0, 0), 0, 0, 0, 0, 0, 0), Blob.of(BLOB, 11));
            Verification tampered = verify(spec, db);
            String details = tampered.details().toString();
            assertTrue(details.contains("BLOBs are not " + BLOB + " bytes long"), details);
            assertTrue(details.contains("row count grew by " + (tampered.expectedInserts() + 1)), details);
            assertTrue(details.contains(Keys.existing(3) + " has a BLOB of " + (BLOB - 1)), details);
            assertEquals(3, tampered.mismatches(), details);
        }
    }
}
