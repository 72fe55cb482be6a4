package org.streambench.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.streambench.generator.Pattern;
import org.streambench.generator.RecordGenerator;
import org.streambench.generator.SensorRecord;
import org.streambench.generator.TimedRecord;

/**
 * A generator instance restored from a checkpoint replays what came after it. If the runner's stop
 * comes before the replay has caught up, the instance still emits up to where it had come before
 * the failure: those records count as emitted, and the job must process every one of them (a
 * restart on YARN that outlasted the rest of the window left them unprocessed).
 */
class ReplayAtStopTest {

    private static ExperimentSpec spec() {
        return ExperimentSpec.builder("test", "noop", Pattern.UPDATE)
                .keys(10)
                .seed(7)
                .runToken(13)
                .build();
    }

    @Test
    void aStopDuringTheReplayEndsWhereTheInstanceHadComeBeforeTheFailure() throws Exception {
        ExperimentSpec spec = spec();
        RecordGenerator records = spec.recordGenerator(0);
        try (JobRuntime runtime = JobRuntime.start(spec)) {
            GeneratorInstance failed = GeneratorInstance.of(spec, 0);
            for (int i = 0; i < 100; i++) {
                assertNotNull(failed.next());
            }
            GeneratorInstance restored = GeneratorInstance.restored(spec, 0, 0, 40);
            assertEquals(records.record(40), restored.next().record());
            runtime.requestStop();
            assertEquals(0, restored.nanosUntilDue(), "due at once: the replayed records are overdue");
            List<SensorRecord> replayed = new ArrayList<>();
            for (TimedRecord record = restored.next(); record != null; record = restored.next()) {
                replayed.add(record.record());
            }
            assertEquals(59, replayed.size(), "records 41 to 99");
            assertEquals(records.record(41), replayed.get(0));
            assertEquals(records.record(99), replayed.get(58));
            assertEquals(100, runtime.emittedByInstance().get(0));
        }
    }

    @Test
    void anInstanceThatNeverRestartedEndsAtTheStop() throws Exception {
        ExperimentSpec spec = spec();
        try (JobRuntime runtime = JobRuntime.start(spec)) {
            GeneratorInstance generator = GeneratorInstance.of(spec, 0);
            for (int i = 0; i < 10; i++) {
                assertNotNull(generator.next());
            }
            runtime.requestStop();
            assertNull(generator.next());
            assertEquals(10, runtime.emittedByInstance().get(0));
        }
    }
}
