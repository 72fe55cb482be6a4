package org.streambench.runner.experiment;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.streambench.generator.Pattern;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.GeneratorInstance;
import org.streambench.operators.JobRuntime;
import org.streambench.operators.Polling;
import org.streambench.servers.TestServers;

/**
 * Under exactly-once a processing operator holds its records until its checkpoint commits them,
 * and the generator's credit leaves those out: they wait for the checkpoint, not for the
 * operator. Also when the operator runs in another JVM than the generator (on YARN): counted as
 * in flight there, they held the generator back until each commit, and a Flink job on YARN with
 * checkpoints every 10 s emitted 35,776 records in 25 s where 2,000 a second were asked for.
 */
class CommitsInAnotherJvmTest {

    private static final long MAX_IN_FLIGHT = 500;
    /** Below the bound at every credit check on the way (one each 64 records), at it after the last. */
    private static final long EMITTED = 512;

    @Test
    void recordsThatAnotherWorkerHoldsForItsCommitDoNotHoldTheGeneratorBack() throws Exception {
        try (JobCollector collector = new JobCollector("127.0.0.1", "127.0.0.1")) {
            ExperimentSpec spec = ExperimentSpec.builder("test", "noop", Pattern.UPDATE)
                    .keys(10)
                    .seed(7)
                    .runToken(19)
                    .metricsPort(TestServers.freePort())
                    .collector(collector.url())
                    .build();
            try (JobRuntime runtime = JobRuntime.start(spec)) {
                GeneratorInstance generator = GeneratorInstance.of(spec, 0, MAX_IN_FLIGHT);
                for (long i = 0; i < EMITTED; i++) {
                    assertNotNull(generator.next());
                }
                assertTrue(generator.heldBack(), "512 records in flight, none processed: the bound of 500 holds");
                // the other JVM's operators took every one and hold them for their checkpoint's commit
                collector.receive(WorkerStatuses.holding("other:1", EMITTED));
                assertTrue(
                        Polling.until(() -> !generator.heldBack(), 5_000),
                        "the records another worker holds for its commit still count as in flight");
                assertFalse(runtime.drained(), "held for their commit, the records are not processed yet");
            }
        }
    }
}
