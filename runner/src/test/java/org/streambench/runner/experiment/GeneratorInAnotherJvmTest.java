package org.streambench.runner.experiment;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.streambench.generator.Pattern;
import org.streambench.generator.TimedRecord;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.GeneratorInstance;
import org.streambench.operators.JobRuntime;
import org.streambench.operators.Operation;
import org.streambench.operators.Polling;
import org.streambench.servers.TestServers;

/**
 * A generator instance that the engine restarts in another JVM (Flink's source task on the other
 * TaskManager on YARN) replays there, from its restored position, what its first JVM emitted and
 * reported already. The records in flight at the
 * failure were lost, so the replay must not wait for them to be processed (it did, and the run
 * stalled: nothing processed until the runner gave up), and the job counts each instance's records
 * once, at the highest count any worker reports.
 */
class GeneratorInAnotherJvmTest {

    private static final long EMITTED_BEFORE = 1000;
    private static final long MAX_IN_FLIGHT = 500;

    @Test
    void aReplayInAnotherJvmWaitsForNoLostRecordAndCountsEachRecordOnce() throws Exception {
        try (JobCollector collector = new JobCollector("127.0.0.1", "127.0.0.1")) {
            // the first JVM emitted 1000 records of instance 0; none was processed before the failure
            collector.receive(WorkerStatuses.of("first:1", Map.of(0, EMITTED_BEFORE), 1_000, false));
            ExperimentSpec spec = ExperimentSpec.builder("test", "noop", Pattern.UPDATE)
                    .keys(10)
                    .seed(7)
                    .runToken(17)
                    .metricsPort(TestServers.freePort())
                    .collector(collector.url())
                    .build();
            try (JobRuntime runtime = JobRuntime.start(spec)) {
                assertTrue(Polling.until(() -> !runtime.drained(), 5_000), "the collector's view never came");
                GeneratorInstance restored = GeneratorInstance.restored(spec, 0, MAX_IN_FLIGHT, 0);
                assertFalse(
                        restored.heldBack(),
                        "the replay waits for credit that the records lost with the first JVM never give back");
                for (long i = 0; i < EMITTED_BEFORE; i++) {
                    TimedRecord record = restored.next();
                    assertNotNull(record);
                    runtime.metrics().processed(Operation.UPDATE, TimedRecord.UNTIMED);
                }
                assertTrue(
                        runtime.drained(),
                        "the replay processed all 1000 records the instance emitted, yet the job counts some in flight:"
                                + " the instance's records counted in both JVMs");
                assertFalse(restored.heldBack(), "nothing is in flight: the next record is free to go");
            }
        }
    }
}
