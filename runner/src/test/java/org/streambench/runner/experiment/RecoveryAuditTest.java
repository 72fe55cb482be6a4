package org.streambench.runner.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.streambench.db.InMemoryDatabase;
import org.streambench.db.StoredRecord;
import org.streambench.generator.Keys;
import org.streambench.generator.Pattern;
import org.streambench.generator.RecordGenerator;
import org.streambench.generator.SensorRecord;
import org.streambench.model.RunDocument.Audit;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.Guarantee;

/**
 * The audit counts exactly the records a replay applied twice, those never applied, and calls a key
 * that neither explains wrong: checked on a database built from the run's own records, with
 * replays, losses and a foreign write put in on purpose.
 */
class RecoveryAuditTest {

    private static final int KEYS = 40;
    private static final Map<Integer, Long> EMITTED = Map.of(0, 400L, 1, 300L);
    private static final ExperimentSpec SPEC = ExperimentSpec.builder("flink", "noop", Pattern.UPDATE)
            .keys(KEYS)
            .seed(11)
            .runToken(3)
            .generatorParallelism(2)
            .guarantee(Guarantee.AT_LEAST_ONCE)
            .build();

    @Test
    void everyRecordAppliedOnceLeavesNothingToCount() {
        Audit audit = audit(new Applied().applyAll());
        assertEquals(new Audit(KEYS, 0, 0, 0, List.of()), audit);
    }

    @Test
    void aReplayedRunOfRecordsCountsEachAsADuplicate() {
        // as a restart from a checkpoint at 120 leaves it when records up to 165 had been processed
        Applied applied = new Applied().applyAll().applyAgain(0, 120, 165);
        Audit audit = audit(applied);
        assertEquals(45, audit.duplicates(), audit.toString());
        assertEquals(0, audit.losses());
        assertEquals(0, audit.unexplainedKeys());
    }

    @Test
    void replaysOfBothInstancesAddUp() {
        Audit audit = audit(new Applied().applyAll().applyAgain(0, 200, 230).applyAgain(1, 10, 50));
        assertEquals(30 + 40, audit.duplicates(), audit.toString());
        assertEquals(0, audit.losses());
        assertEquals(0, audit.unexplainedKeys(), audit.toString());
    }

    @Test
    void aRecordThatNeverReachedTheDatabaseIsALoss() {
        Applied applied = new Applied().applyAll().applyAgain(1, 10, 50);
        applied.unapply(0, 399); // the last record of instance 0
        Audit audit = audit(applied);
        assertEquals(40, audit.duplicates(), audit.toString());
        assertEquals(1, audit.losses(), audit.toString());
        assertEquals(0, audit.unexplainedKeys(), audit.toString());
    }

    @Test
    void aValueNoReplayExplainsIsAWrongKeyAndNamed() {
        Applied applied = new Applied().applyAll();
        String id = Keys.existing(7);
        SensorRecord stored = applied.stored(id);
        applied.store(new SensorRecord(id, stored.int1() + 100_000, stored.int2(), stored.int3(), 0, 0, 0));
        Audit audit = audit(applied);
        assertEquals(1, audit.unexplainedKeys(), audit.toString());
        assertTrue(
                audit.details().get(0).startsWith(id + " differs by (100000, 0, 0)"),
                audit.details().toString());
    }

    @Test
    void aMissingKeyIsWrong() {
        Applied applied = new Applied().applyAll();
        applied.rows().remove(Keys.existing(3));
        Audit audit = audit(applied);
        assertEquals(1, audit.unexplainedKeys(), audit.toString());
        assertEquals(Keys.existing(3) + " is missing", audit.details().get(0));
    }

    private static Audit audit(Applied applied) {
        return new RecoveryAudit(SPEC, EMITTED).audit(applied);
    }

    /** A database holding the prefill and whatever records a test applies to it, read-add-write. */
    private static final class Applied extends InMemoryDatabase {
        private static final byte[] BLOB = new byte[1];

        Applied() {
            for (long index = 0; index < KEYS; index++) {
                store(RecordGenerator.prefill(index));
            }
        }

        Applied applyAll() {
            EMITTED.forEach((instance, count) -> applyAgain(instance, 0, count));
            return this;
        }

        /** Applies records [from, to) of {@code instance} (again). */
        Applied applyAgain(int instance, long from, long to) {
            for (long seq = from; seq < to; seq++) {
                SensorRecord record = generator(instance).record(seq);
                store(stored(record.id()).plus(record));
            }
            return this;
        }

        void unapply(int instance, long seq) {
            SensorRecord record = generator(instance).record(seq);
            SensorRecord stored = stored(record.id());
            store(new SensorRecord(
                    record.id(),
                    stored.int1() - record.int1(),
                    stored.int2() - record.int2(),
                    stored.int3() - record.int3(),
                    stored.double1() - record.double1(),
                    stored.double2() - record.double2(),
                    stored.double3() - record.double3()));
        }

        SensorRecord stored(String id) {
            return rows().get(id).record();
        }

        void store(SensorRecord record) {
            rows().put(record.id(), new StoredRecord(record, BLOB));
        }

        private static RecordGenerator generator(int instance) {
            return new RecordGenerator(SPEC.seed(), SPEC.pattern(), SPEC.keys(), SPEC.runToken(), instance);
        }
    }

    @Test
    void theFewestRecordsExplainADifference() {
        List<RecoveryAudit.Sums> records = new ArrayList<>();
        records.add(new RecoveryAudit.Sums(1, 2, 3));
        records.add(new RecoveryAudit.Sums(4, 5, 6));
        records.add(new RecoveryAudit.Sums(5, 7, 9));
        // (5, 7, 9) is the third record alone, or the first two: one record is the fewer
        long[] counts = RecoveryAudit.explain(new RecoveryAudit.Sums(5, 7, 9), List.of(records))
                .orElseThrow();
        assertEquals(1, counts[0]);
        assertEquals(0, counts[1]);
        assertTrue(RecoveryAudit.explain(new RecoveryAudit.Sums(1, 1, 1), List.of(records))
                .isEmpty());
    }
}
