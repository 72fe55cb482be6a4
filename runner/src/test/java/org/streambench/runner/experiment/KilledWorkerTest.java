package org.streambench.runner.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.streambench.generator.Pattern;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.Fault;
import org.streambench.operators.GeneratorInstance;
import org.streambench.operators.JobProtocol;
import org.streambench.operators.JobReport;
import org.streambench.operators.JobRuntime;
import org.streambench.operators.Polling;
import org.streambench.operators.WorkerStatus;
import org.streambench.servers.TestServers;

/**
 * {@code --fault kill-worker}: the worker that fires it tells the collector, then its JVM is
 * SIGKILLed. The collector expects its silence and keeps its last counts, while the engine's
 * replacement registers as a worker of its own; without that fault the same silence is a worker lost.
 */
class KilledWorkerTest {

    @Test
    void aWorkerKilledByTheRunsFaultIsNoLongerWaitedForAndItsCountsStay() throws Exception {
        try (JobCollector collector = new JobCollector("127.0.0.1", "127.0.0.1")) {
            collector.faultKillsItsWorker();
            collector.receive(WorkerStatuses.of("alive:1", Map.of(), 0, false));
            WorkerStatus.View toTheKilled =
                    collector.receive(WorkerStatuses.fired("killed:2", "http://127.0.0.1:1", 100, 7));
            assertEquals(1, toTheKilled.workers(), "the killed worker is not one of the job's workers alive");

            assertEquals(List.of("alive:1", "killed:2"), collector.workers(), "the run's record keeps both");
            assertEquals(List.of("http://alive:1"), collector.endpoints(), "no control request goes to the killed one");
            WorkerStatus.View toTheAlive = collector.receive(WorkerStatuses.of("alive:1", Map.of(), 0, false));
            assertEquals(Map.of(0, 100L), toTheAlive.othersEmittedByInstance());
            assertEquals(100, toTheAlive.othersHandled(), "what it processed stays processed");
            assertEquals(0, toTheAlive.othersAwaitingCommit(), "what it held for a commit died with it");

            Thread.sleep(5);
            assertEquals(List.of("alive:1"), collector.silentWorkers(Duration.ofMillis(1)));
            assertFalse(collector.allFinal());
            JobReport report = collector.report("ok", null);
            assertEquals(100, report.totalProcessed());
        }
    }

    @Test
    void withoutTheFaultThatKillsItsWorkerTheSameSilenceIsAWorkerLost() throws Exception {
        try (JobCollector collector = new JobCollector("127.0.0.1", "127.0.0.1")) {
            collector.receive(WorkerStatuses.of("alive:1", Map.of(), 0, false));
            collector.receive(WorkerStatuses.fired("killed:2", "http://127.0.0.1:1", 100, 7));
            assertEquals(List.of("http://alive:1", "http://127.0.0.1:1"), collector.endpoints());
            Thread.sleep(5);
            assertEquals(List.of("alive:1", "killed:2"), collector.silentWorkers(Duration.ofMillis(1)));
        }
    }

    /**
     * Under a guarantee on a cluster the engine may end a worker's JVM to replace it (Apex's
     * application master, after an operator failed): a worker whose status says its JVM was told to
     * end is taken as the killed one is. Without that mode the same silence is a worker lost.
     */
    @Test
    void aWorkerEndedByTheEngineIsReplacedUnderAGuaranteeOnAClusterAndLostOtherwise() throws Exception {
        try (JobCollector collector = new JobCollector("127.0.0.1", "127.0.0.1")) {
            collector.engineReplacesWorkers();
            collector.receive(WorkerStatuses.of("alive:1", Map.of(), 0, false));
            WorkerStatus.View toTheEnded =
                    collector.receive(WorkerStatuses.endedByEngine("ended:2", "http://127.0.0.1:1", 100));
            assertEquals(1, toTheEnded.workers(), "the ended worker is not one of the job's workers alive");
            assertEquals(List.of("http://alive:1"), collector.endpoints());
            Thread.sleep(5);
            assertEquals(List.of("alive:1"), collector.silentWorkers(Duration.ofMillis(1)));
            assertEquals(100, collector.report("ok", null).totalProcessed(), "what it processed stays processed");
        }
        try (JobCollector collector = new JobCollector("127.0.0.1", "127.0.0.1")) {
            collector.receive(WorkerStatuses.of("alive:1", Map.of(), 0, false));
            collector.receive(WorkerStatuses.endedByEngine("ended:2", "http://127.0.0.1:1", 100));
            assertEquals(List.of("http://alive:1", "http://127.0.0.1:1"), collector.endpoints());
            Thread.sleep(5);
            assertEquals(List.of("alive:1", "ended:2"), collector.silentWorkers(Duration.ofMillis(1)));
        }
    }

    /**
     * The job's per-second sums go on counting a killed worker's records at its last answer, also
     * when it dies between the collector learning it fired and a scrape: the sums never drop. The
     * job is over when the workers alive have pushed their final statuses. The killed worker here
     * serves a copy of a real worker's metrics (one run has one worker per JVM).
     */
    @Test
    void theJobsMetricsKeepAKilledWorkersLastAnswerAndItsFinalStatusIsNotAwaited() throws Exception {
        try (JobCollector collector = new JobCollector("127.0.0.1", "127.0.0.1");
                JobRuntime alive = JobRuntime.start(spec(collector))) {
            collector.faultKillsItsWorker();
            assertTrue(Polling.until(() -> collector.workers().size() == 1, 5_000), "the worker registers");
            for (int i = 0; i < 5; i++) {
                GeneratorInstance.of(alive.spec(), 0).next();
            }
            HttpServer killed = metricsCopy(collector.endpoints().get(0));
            String killedWorker = "127.0.0.1:" + killed.getAddress().getPort();
            try {
                collector.receive(WorkerStatuses.of(killedWorker, Map.of(), 0, false));
                assertEquals(10, collector.scrape().generated());
                collector.receive(WorkerStatuses.fired(killedWorker, "http://" + killedWorker, 0, 0));
            } finally {
                killed.stop(0);
            }
            assertEquals(1, collector.endpoints().size());
            assertEquals(10, collector.scrape().generated(), "the killed worker's last answer counts");
            alive.finish();
            assertTrue(Polling.until(collector::allFinal, 5_000), "only the workers alive push a final status");
        }
    }

    @Test
    void aWorkerThatDiesUnannouncedStillFailsTheScrapeAndIsAwaited() throws Exception {
        try (JobCollector collector = new JobCollector("127.0.0.1", "127.0.0.1");
                JobRuntime alive = JobRuntime.start(spec(collector))) {
            collector.faultKillsItsWorker();
            assertTrue(Polling.until(() -> collector.workers().size() == 1, 5_000), "the worker registers");
            HttpServer gone = metricsCopy(collector.endpoints().get(0));
            String goneWorker = "127.0.0.1:" + gone.getAddress().getPort();
            collector.receive(WorkerStatuses.of(goneWorker, Map.of(), 0, false));
            collector.scrape();
            gone.stop(0);
            assertThrows(IOException.class, collector::scrape);
            alive.finish();
            Thread.sleep(300);
            assertFalse(collector.allFinal(), "the one that died unannounced never pushed its final status");
        }
    }

    /** A worker endpoint that serves what {@code endpoint}'s metrics are now. */
    private static HttpServer metricsCopy(String endpoint) throws IOException, InterruptedException {
        byte[] metrics = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create(endpoint + JobProtocol.METRICS_PATH))
                                .build(),
                        HttpResponse.BodyHandlers.ofByteArray())
                .body();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 4);
        server.createContext(JobProtocol.METRICS_PATH, exchange -> {
            try (exchange) {
                exchange.sendResponseHeaders(200, metrics.length);
                exchange.getResponseBody().write(metrics);
            }
        });
        server.start();
        return server;
    }

    private static ExperimentSpec spec(JobCollector collector) {
        return ExperimentSpec.builder("test", "noop", Pattern.INSERT)
                .durationSeconds(2)
                .keys(10)
                .seed(7)
                .runToken(31)
                .metricsPort(TestServers.freePort())
                .collector(collector.url())
                .fault(Fault.parse("kill-worker@3600s"))
                .build();
    }
}
