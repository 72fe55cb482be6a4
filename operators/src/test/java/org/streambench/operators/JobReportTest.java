package org.streambench.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the job writes is what the runner reads: every field survives the file. */
class JobReportTest {

    @Test
    void everyFieldSurvivesWritingAndReading(@TempDir Path dir) throws Exception {
        LatencyStats stats = new LatencyStats(10, 12.5, 1.5, 11, 14, 15, 16, 17);
        JobReport written = new JobReport(
                "failed",
                "the database refused: x=1\nsecond line",
                "Apache Flink 1.20.1",
                Map.of(0, 100L, 1, 98L),
                Map.of(Operation.READ, 0L, Operation.INSERT, 101L, Operation.UPDATE, 97L),
                2,
                "insert: refused",
                stats,
                Map.of("hit", new LatencyStats(7, 10, 1, 9, 11, 12, 12, 13), "failed", stats),
                new LatencyStats(198, 4500.25, 30, 4400, 4600, 4700, 4800, 4900),
                new LatencyStats(198, 3, 1, 2, 4, 5, 6, 7));
        Path file = dir.resolve("job-report.properties");
        written.write(file);
        JobReport read = JobReport.read(file);
        assertEquals(written.status(), read.status());
        assertEquals(written.error(), read.error());
        assertEquals(written.engineVersion(), read.engineVersion());
        assertEquals(written.emittedByInstance(), read.emittedByInstance());
        assertEquals(written.processed(), read.processed());
        assertEquals(written.errors(), read.errors());
        assertEquals(written.firstError(), read.firstError());
        assertEquals(written.latency(), read.latency());
        assertEquals(written.latencyByResult(), read.latencyByResult());
        assertEquals(written.endToEnd(), read.endToEnd());
        assertEquals(written.generatorDelay(), read.generatorDelay());
        assertEquals(198, read.totalEmitted());
        assertEquals(198, read.totalProcessed());
    }

    @Test
    void aJobThatFailedBeforeItsRuntimeStartedReportsNoCounts(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("job-report.properties");
        JobReport.withoutRuntime("failed", "no spec", "Apache Spark 3.5.5").write(file);
        JobReport read = JobReport.read(file);
        assertEquals("failed", read.status());
        assertEquals(0, read.totalEmitted());
        assertEquals(0, read.totalProcessed());
        assertEquals(null, read.latency());
    }
}
