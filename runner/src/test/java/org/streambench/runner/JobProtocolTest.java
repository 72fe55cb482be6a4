package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.streambench.generator.Pattern;
import org.streambench.generator.TimedRecord;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.GeneratorInstance;
import org.streambench.operators.JobProtocol;
import org.streambench.operators.JobProtocol.Meter;
import org.streambench.operators.JobRuntime;
import org.streambench.operators.Operation;
import org.streambench.operators.OperatorMetrics;
import org.streambench.runner.experiment.MetricsScraper;
import org.streambench.servers.TestServers;

/** What a job exports is what the runner reads: the same names on both sides, and the numbers add up. */
class JobProtocolTest {

    /** The runner launches the job while it prefills: nothing may be emitted before it says start. */
    @Test
    void generatorsEmitNothingBeforeTheStartRequest() throws Exception {
        int port = TestServers.freePort();
        ExecutorService source = Executors.newSingleThreadExecutor();
        try (JobRuntime runtime = JobRuntime.start(spec(port), true)) {
            GeneratorInstance generator = GeneratorInstance.of(runtime.spec(), 0);
            assertTrue(generator.awaitingStart());
            assertTrue(generator.nanosUntilDue() > 0, "a non-blocking source is told to wait");
            Future<TimedRecord> first = source.submit(generator::next);
            Thread.sleep(300);
            assertFalse(first.isDone(), "a record was emitted before the start request");
            assertEquals(0, runtime.emittedByInstance().getOrDefault(0, 0L));

            assertEquals(200, post(port, JobProtocol.START_PATH));
            assertNotNull(first.get(5, TimeUnit.SECONDS));
            assertFalse(generator.awaitingStart());
            assertTrue(runtime.started());
        } finally {
            source.shutdownNow();
        }
    }

    @Test
    void aGeneratorWaitingForTheStartEndsWhenTheJobStops() throws Exception {
        ExecutorService source = Executors.newSingleThreadExecutor();
        try (JobRuntime runtime = JobRuntime.start(spec(TestServers.freePort()), true)) {
            GeneratorInstance generator = GeneratorInstance.of(runtime.spec(), 0);
            Future<TimedRecord> first = source.submit(generator::next);
            Thread.sleep(100);
            runtime.requestStop();
            assertNull(first.get(5, TimeUnit.SECONDS), "a stopped job emits nothing");
            assertFalse(generator.awaitingStart());
        } finally {
            source.shutdownNow();
        }
    }

    private static ExperimentSpec spec(int port) {
        return ExperimentSpec.builder("test", "noop", Pattern.INSERT)
                .durationSeconds(2)
                .keys(10)
                .seed(7)
                .runToken(3)
                .metricsPort(port)
                .build();
    }

    private static int post(int port, String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .POST(HttpRequest.BodyPublishers.noBody())
                .build();
        return HttpClient.newHttpClient()
                .send(request, HttpResponse.BodyHandlers.discarding())
                .statusCode();
    }

    @Test
    void theRunnerReadsEveryCountTheJobRecorded() throws IOException {
        ExperimentSpec spec = ExperimentSpec.builder("test", "noop", Pattern.MIXED)
                .durationSeconds(2)
                .warmupSeconds(1)
                .keys(10)
                .seed(7)
                .runToken(3)
                .build();
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
            assertEquals(0.004, read.readSeconds(), 0.004 * 0.001, "the histograms' sum, within their 3 digits");
            assertEquals(1, read.errors());
            assertEquals(0, read.generated());
            assertTrue(read.jobEpochNanos() > 0, "the job's clock is read");
        }
    }
}
