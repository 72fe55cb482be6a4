package org.streambench.runner.experiment;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.streambench.db.Database;
import org.streambench.db.StoredRecord;
import org.streambench.generator.Keys;
import org.streambench.generator.Pattern;
import org.streambench.generator.RecordGenerator;
import org.streambench.generator.SensorRecord;
import org.streambench.model.RunDocument.Verification;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.Guarantee;
import org.streambench.operators.JobReport;
import org.streambench.operators.Operation;

/**
 * Checks that the database holds exactly what the operator wrote. The generators are
 * deterministic, so the runner replays every record each instance emitted and derives the
 * expected state: the number of inserted rows, and the values of a sample of keys (existing keys
 * spread over the key space, plus new keys spread over each instance's stream). With a guarantee
 * the existing keys are left to the audit ({@link RecoveryAudit}), which reads every one updated.
 */
public final class Verifier {

    private static final int SAMPLED_EXISTING_KEYS = 250;
    private static final int SAMPLED_NEW_KEYS_PER_INSTANCE = 100;
    /**
     * With a guarantee: a replay after a recovery inserts one stretch of an instance's records again
     * (those since its last checkpoint), and an even sample of 1,000 reads into any stretch longer
     * than a thousandth of the instance's records.
     */
    private static final int SAMPLED_NEW_KEYS_PER_INSTANCE_WITH_A_GUARANTEE = 1000;

    private static final int MAX_DETAILS = 20;

    private final ExperimentSpec spec;
    private final List<String> details = new ArrayList<>();
    private long checked;
    private long mismatches;

    public Verifier(ExperimentSpec spec) {
        this.spec = spec;
    }

    public Verification verify(JobReport report, Database database, boolean storesData, long rowsBefore) {
        Map<String, SensorRecord> expected = new LinkedHashMap<>();
        long expectedInserts = replay(report, expected);

        // with at-least-once an engine replays records after a restart: each is processed at least
        // once, and the audit (RecoveryAudit) says which effects the database holds twice; with
        // exactly-once a record counts when its checkpoint's commit got in, once
        boolean replays = spec.guarantee() == Guarantee.AT_LEAST_ONCE;
        check(
                replays
                        ? report.totalProcessed() >= report.totalEmitted()
                        : report.totalProcessed() == report.totalEmitted(),
                "the operator completed " + report.totalProcessed() + " of " + report.totalEmitted()
                        + " emitted records");
        check(report.errors() == 0, report.errors() + " database errors; first: " + report.firstError());
        long inserted = report.processed().get(Operation.INSERT);
        check(
                replays ? inserted >= expectedInserts : inserted == expectedInserts,
                "the operator inserted " + inserted + " records, the generators emitted " + expectedInserts
                        + " new keys");
        if (!storesData) {
            return new Verification(checked, mismatches, expectedInserts, 0, List.copyOf(details));
        }
        long rowDelta = database.countRows() - rowsBefore;
        check(rowDelta == expectedInserts, "row count grew by " + rowDelta + ", expected " + expectedInserts);
        long wrongBlobs = database.countBlobsNotOfLength(spec.blobBytes());
        check(wrongBlobs == 0, wrongBlobs + " stored BLOBs are not " + spec.blobBytes() + " bytes long");
        expected.forEach((id, want) -> checkStored(id, want, database.read(id)));
        return new Verification(checked, mismatches, expectedInserts, rowDelta, List.copyOf(details));
    }

    /** Replays the run; fills {@code expected} for the sampled keys and returns the number of new keys. */
    private long replay(JobReport report, Map<String, SensorRecord> expected) {
        Pattern pattern = spec.pattern();
        Map<Long, SensorRecord> existing = new HashMap<>();
        // with a guarantee the audit (RecoveryAudit) reads every updated key instead of a sample
        if (pattern.needsExistingKeys() && !spec.guarantee().recovers()) {
            long step = Math.max(1, spec.keys() / SAMPLED_EXISTING_KEYS);
            for (long index = 0; index < spec.keys(); index += step) {
                existing.put(index, RecordGenerator.prefill(index));
            }
        }
        boolean sumsSampledExisting = !existing.isEmpty() && (pattern == Pattern.UPDATE || pattern == Pattern.MIXED);
        long inserts = 0;
        for (Map.Entry<Integer, Long> instance : report.emittedByInstance().entrySet()) {
            RecordGenerator generator = spec.recordGenerator(instance.getKey());
            long emitted = instance.getValue();
            long newKeyStep = Math.max(
                    1,
                    emitted
                            / (spec.guarantee().recovers()
                                    ? SAMPLED_NEW_KEYS_PER_INSTANCE_WITH_A_GUARANTEE
                                    : SAMPLED_NEW_KEYS_PER_INSTANCE));
            for (long seq = 0; seq < emitted; seq++) {
                if (generator.isNewKey(seq)) {
                    if (inserts++ % newKeyStep == 0) {
                        SensorRecord record = generator.record(seq);
                        expected.put(record.id(), record);
                    }
                } else if (sumsSampledExisting) {
                    SensorRecord record = generator.record(seq);
                    long index = Keys.existingIndex(record.id());
                    existing.computeIfPresent(index, (i, sum) -> sum.plus(record));
                }
            }
        }
        existing.values().forEach(record -> expected.put(record.id(), record));
        return inserts;
    }

    private void checkStored(String id, SensorRecord want, Optional<StoredRecord> stored) {
        if (!check(stored.isPresent(), id + " is missing")) {
            return;
        }
        SensorRecord got = stored.get().record();
        check(
                got.int1() == want.int1()
                        && got.int2() == want.int2()
                        && got.int3() == want.int3()
                        && close(got.double1(), want.double1())
                        && close(got.double2(), want.double2())
                        && close(got.double3(), want.double3()),
                id + " holds " + got + ", expected " + want);
        check(
                stored.get().blob().length == spec.blobBytes(),
                id + " has a BLOB of " + stored.get().blob().length + " bytes, expected " + spec.blobBytes());
    }

    /** Sums of doubles depend on the order in which parallel generators' records arrived. */
    private static boolean close(double got, double want) {
        return Math.abs(got - want) <= 1e-9 * Math.max(1.0, Math.abs(want));
    }

    private boolean check(boolean ok, String problem) {
        checked++;
        if (!ok) {
            mismatches++;
            if (details.size() < MAX_DETAILS) {
                details.add(problem);
            }
        }
        return ok;
    }
}
