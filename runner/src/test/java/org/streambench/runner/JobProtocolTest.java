package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.streambench.generator.Pattern;
import org.streambench.generator.TimedRecord;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.JobProtocol.Meter;
import org.streambench.operators.JobRuntime;
import org.streambench.operators.Operation;
import org.streambench.operators.OperatorMetrics;
import org.streambench.runner.experiment.MetricsScraper;

/** What a job exports is what the runner reads: the same names on both sides, and the numbers add up. */
class JobProtocolTest {

    @Test
    void theRunnerReadsEveryCountTheJobRecorded() throws IOException {
        ExperimentSpec spec = new ExperimentSpec(
                "test", "noop", Pattern.MIXED, 1, 2, 1, 0, 10, 1, 1, 7, 3, 0, "127.0.0.1", 0, Map.of(), Map.of());
        try (JobRuntime runtime = JobRuntime.start(spec)) {
            OperatorMetrics metrics = runtime.metrics();
            for (int i = 0; i < 3; i++) {
                metrics.processed(Operation.INSERT, TimedRecord.UNTIMED);
            }
            metrics.processed(Operation.UPDATE, TimedRecord.UNTIMED);
            metrics.recordRead(1_000_000, OperatorMetrics.ReadResult.HIT);
            metrics.recordRead(3_000_000, OperatorMetrics.ReadResult.MISS);
            metrics.recordRead(5_000_000, OperatorMetrics.ReadResult.FAILED);
            metrics.error(Operation.READ, new RuntimeException("refused"));

            String exported = metrics.scrape();
            for (Meter meter : Meter.values()) {
                assertTrue(
                        exported.lines()
                                .anyMatch(line -> line.startsWith(meter.exportedName() + "{")
                                        || line.startsWith(meter.exportedName() + " ")
                                        || line.startsWith(meter.exportedName() + "_count{")),
                        meter + " is not exported as " + meter.exportedName() + ":\n" + exported);
            }

            MetricsScraper.Snapshot read = MetricsScraper.parse(exported, 42);
            assertEquals(4, read.records());
            assertEquals(2, read.reads(), "reads that worked: the failed one is apart");
            assertEquals(0.004, read.readSeconds(), 1e-9);
            assertEquals(1, read.errors());
            assertEquals(0, read.generated());
            assertTrue(read.jobEpochNanos() > 0, "the job's clock is read");
        }
    }
}
