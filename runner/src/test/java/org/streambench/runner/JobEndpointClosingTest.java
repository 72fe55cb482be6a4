package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.streambench.runner.TimedRecords.timed;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.generator.Keys;
import org.streambench.generator.Pattern;
import org.streambench.generator.SensorRecord;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.JobRuntime;
import org.streambench.operators.ProcessingOperator;
import org.streambench.runner.experiment.ExperimentRunner;
import org.streambench.runner.experiment.JobCollector;
import org.streambench.servers.TestServers;

/**
 * A job closes its metrics endpoint a moment before its JVM exits. The runner's per-second loop
 * may land in that moment: for a bounded run (which ends by itself) that is the normal end, for
 * an unbounded run (which ends only when asked) it is a failure. Here the endpoint is a real job
 * runtime in this JVM, and the "job JVM" a process that outlives the endpoint by two seconds.
 */
@Tag("integration")
class JobEndpointClosingTest {

    private final ScheduledExecutorService background = Executors.newSingleThreadScheduledExecutor();
    private final AtomicBoolean endpointClosed = new AtomicBoolean();
    private JobCollector collector;
    private JobRuntime runtime;
    private Process job;
    private int port;

    @AfterEach
    void cleanUp() {
        background.shutdownNow();
        closeEndpoint(); // the runtime is one per JVM: leave none behind for the next test
        if (job != null) {
            job.destroyForcibly();
        }
        if (collector != null) {
            collector.close();
        }
    }

    @Test
    void aBoundedRunWhoseEndpointClosesBeforeItsJvmExitsHasEnded(@TempDir Path tmp) throws Exception {
        ExperimentRunner runner = runnerWithEndpointClosingEarly(true);
        runner.sample(job, spec(true), collector, log(tmp), new ArrayList<>());
        assertFalse(job.isAlive(), "the runner waited for the job to exit");
    }

    @Test
    void anUnboundedRunWhoseEndpointVanishesHasFailed(@TempDir Path tmp) throws Exception {
        ExperimentRunner runner = runnerWithEndpointClosingEarly(false);
        ExperimentRunner.JobFailure failure = assertThrows(
                ExperimentRunner.JobFailure.class,
                () -> runner.sample(job, spec(false), collector, log(tmp), new ArrayList<>()));
        assertTrue(failure.getMessage().contains("metrics endpoint stopped answering"), failure.getMessage());
    }

    /** A live worker (registered with the collector) with one processed record, closed after 1.5 s; a stand-in job JVM that exits after 3.5 s. */
    private ExperimentRunner runnerWithEndpointClosingEarly(boolean bounded) throws Exception {
        port = TestServers.freePort();
        collector = new JobCollector("127.0.0.1", "127.0.0.1");
        runtime = JobRuntime.start(spec(bounded));
        try (ProcessingOperator operator = ProcessingOperator.open(runtime.spec())) {
            operator.process(timed(new SensorRecord(Keys.fresh(1, 0, 0), 1, 2, 3, 1.0, 2.0, 3.0)));
        }
        job = new ProcessBuilder("sleep", "3.5").start();
        background.schedule(this::closeEndpoint, 1500, TimeUnit.MILLISECONDS);
        return new ExperimentRunner(new PrintWriter(new StringWriter(), true), "1g", 30, 30);
    }

    private void closeEndpoint() {
        if (runtime != null && endpointClosed.compareAndSet(false, true)) {
            runtime.close();
        }
    }

    private ExperimentSpec spec(boolean bounded) {
        return ExperimentSpec.builder("test", "noop", Pattern.INSERT)
                .durationSeconds(20)
                .keys(10)
                .seed(1)
                .runToken(1)
                .recordsPerGenerator(bounded ? 1 : 0)
                .metricsPort(port)
                .collector(collector.url())
                .build();
    }

    private static Path log(Path tmp) throws Exception {
        return Files.writeString(tmp.resolve("job.log"), "");
    }
}
