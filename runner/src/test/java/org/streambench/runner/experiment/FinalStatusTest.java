package org.streambench.runner.experiment;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.streambench.generator.Pattern;
import org.streambench.generator.TimedRecord;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.GeneratorInstance;
import org.streambench.operators.Guarantee;
import org.streambench.operators.JobRuntime;
import org.streambench.operators.Polling;
import org.streambench.operators.ProcessingOperator;
import org.streambench.servers.TestServers;

/**
 * The runner ends a job once every worker has sent its final status, so a worker must not send it
 * while the engine still writes. After a restart from a checkpoint the records processed twice
 * count as handled: the job looks complete before the last replayed records are through, and the
 * worker that runs the job's main then finishes only when the engine's pipeline has ended.
 */
class FinalStatusTest {

    @Test
    void aWorkerThatFinishesWithItsPipelineSendsNoFinalStatusWhileTheReplayLooksComplete() throws Exception {
        try (JobCollector collector = new JobCollector("127.0.0.1", "127.0.0.1");
                JobRuntime runtime = JobRuntime.start(spec(collector, Guarantee.AT_LEAST_ONCE, 21))) {
            runtime.finishesWithItsPipeline();
            stopAfterAReplay(runtime);
            assertTrue(runtime.complete(), "the replayed records make the job look complete");
            Thread.sleep(1_000); // several periodic pushes
            assertFalse(collector.allFinal(), "the worker sent its final status before its pipeline ended");
            runtime.finish();
            assertTrue(Polling.until(collector::allFinal, 5_000), "the final status never came");
        }
    }

    @Test
    void aWorkerWithoutAGuaranteeSendsItsFinalStatusOnceTheJobIsComplete() throws Exception {
        try (JobCollector collector = new JobCollector("127.0.0.1", "127.0.0.1");
                JobRuntime runtime = JobRuntime.start(spec(collector, Guarantee.NONE, 22))) {
            GeneratorInstance generator = GeneratorInstance.of(runtime.spec(), 0);
            ProcessingOperator operator = runtime.processingOperator(0);
            for (int i = 0; i < 10; i++) {
                operator.accept(generator.next());
            }
            runtime.requestStop();
            assertNull(generator.next());
            assertTrue(Polling.until(collector::allFinal, 5_000), "a complete job's worker never finished");
        }
    }

    /** Ten records emitted and processed, the last five processed again as a replay does, then the stop. */
    private static void stopAfterAReplay(JobRuntime runtime) {
        GeneratorInstance generator = GeneratorInstance.of(runtime.spec(), 0);
        ProcessingOperator operator = runtime.processingOperator(0);
        List<TimedRecord> emitted = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            emitted.add(generator.next());
            operator.accept(emitted.get(i));
        }
        emitted.subList(5, 10).forEach(operator::accept);
        runtime.requestStop();
        assertNull(generator.next());
    }

    private static ExperimentSpec spec(JobCollector collector, Guarantee guarantee, int runToken) {
        return ExperimentSpec.builder("test", "noop", Pattern.INSERT)
                .keys(10)
                .seed(7)
                .runToken(runToken)
                .guarantee(guarantee)
                .metricsPort(TestServers.freePort())
                .collector(collector.url())
                .build();
    }
}
