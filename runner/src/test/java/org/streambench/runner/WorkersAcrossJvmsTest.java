package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.generator.Pattern;
import org.streambench.generator.TimedRecord;
import org.streambench.local.Home;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.GeneratorInstance;
import org.streambench.operators.JobProtocol;
import org.streambench.operators.JobReport;
import org.streambench.operators.JobRuntime;
import org.streambench.operators.Operation;
import org.streambench.operators.ProcessingOperator;
import org.streambench.runner.experiment.JobCollector;

/**
 * A job whose operators run in two JVMs, as on a cluster: each JVM's worker registers with the
 * runner's collector, waits for its start, and ends only when the whole job is done; the job's
 * report adds both JVMs' counts and merges their latency histograms.
 */
@Tag("integration")
class WorkersAcrossJvmsTest {

    private static final long RECORDS_PER_GENERATOR = 300;

    @Test
    void theJobsReportCombinesTwoWorkerJvms(@TempDir Path dir) throws Exception {
        List<Process> workers = new ArrayList<>();
        try (JobCollector collector = new JobCollector("127.0.0.1", "127.0.0.1")) {
            Path specFile = writeSpec(dir, collector, RECORDS_PER_GENERATOR);
            for (int instance = 0; instance < 2; instance++) {
                workers.add(launchWorker(dir, specFile, instance));
            }
            await(() -> collector.endpoints().size() == 2, "both workers registered");
            Thread.sleep(300);
            assertEquals(0, collector.scrape().records(), "a worker processed records before the start");

            collector.control(JobProtocol.START_PATH);
            await(collector::allFinal, "both workers pushed their final status");
            for (Process worker : workers) {
                assertTrue(worker.waitFor(15, TimeUnit.SECONDS), "a worker did not end with the job");
                assertEquals(0, worker.exitValue(), "a worker failed; logs in " + dir);
            }

            JobReport report = collector.report("finished", null);
            assertEquals(Map.of(0, RECORDS_PER_GENERATOR, 1, RECORDS_PER_GENERATOR), report.emittedByInstance());
            assertEquals(2 * RECORDS_PER_GENERATOR, report.processed().get(Operation.UPDATE));
            assertEquals(2 * RECORDS_PER_GENERATOR, report.latency().count(), "the reads of both JVMs");
            assertEquals(2 * RECORDS_PER_GENERATOR, report.endToEnd().count(), "the records of both JVMs");
            assertTrue(report.latency().p50() >= 100, "a read takes the noop database's 100 us: " + report.latency());
            List<String> endpoints = collector.endpoints();
            assertNotEquals(endpoints.get(0), endpoints.get(1), "two workers, two endpoints");
        } finally {
            workers.forEach(Process::destroyForcibly);
        }
    }

    /** A worker JVM whose runner is gone (its collector closed) ends itself, as it would on a cluster. */
    @Test
    void aWorkerEndsItsJvmWhenTheRunnerIsGone(@TempDir Path dir) throws Exception {
        Process worker = null;
        try {
            try (JobCollector collector = new JobCollector("127.0.0.1", "127.0.0.1")) {
                worker = launchWorker(dir, writeSpec(dir, collector, 0), 0);
                await(() -> collector.endpoints().size() == 1, "the worker registered");
                collector.control(JobProtocol.START_PATH);
                await(() -> records(collector) > 0, "the worker processes records");
            }
            assertTrue(worker.waitFor(30, TimeUnit.SECONDS), "the worker went on without its runner");
            assertEquals(3, worker.exitValue());
            assertTrue(
                    Files.readString(dir.resolve("worker-0.log")).contains("the runner is gone"),
                    "the worker's log says why it ended");
        } finally {
            if (worker != null) {
                worker.destroyForcibly();
            }
        }
    }

    /**
     * A worker JVM told to end mid-run (SIGTERM, as Apex's application master ends the container of
     * an operator that failed) tells the collector before it ends; under a guarantee on a cluster the
     * collector then takes its silence for the engine's recovery and sends it nothing more.
     */
    @Test
    void aWorkerJvmToldToEndMidRunSaysSoBeforeItEnds(@TempDir Path dir) throws Exception {
        Process worker = null;
        try (JobCollector collector = new JobCollector("127.0.0.1", "127.0.0.1")) {
            collector.engineReplacesWorkers();
            worker = launchWorker(dir, writeSpec(dir, collector, 0), 0);
            await(() -> collector.endpoints().size() == 1, "the worker registered");
            collector.control(JobProtocol.START_PATH);
            await(() -> records(collector) > 0, "the worker processes records");
            worker.destroy();
            assertTrue(worker.waitFor(15, TimeUnit.SECONDS), "the worker ended on SIGTERM");
            assertEquals(List.of(), collector.endpoints(), "the worker said it was ended; logs in " + dir);
            assertEquals(1, collector.workers().size(), "the run's record keeps it");
        } finally {
            if (worker != null) {
                worker.destroyForcibly();
            }
        }
    }

    private static double records(JobCollector collector) {
        try {
            return collector.scrape().records();
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /** The spec of a job on the noop database (100 us per call), 2 generators at 2,000 records/s; 0 records = unbounded. */
    private static Path writeSpec(Path dir, JobCollector collector, long recordsPerGenerator) throws IOException {
        ExperimentSpec spec = ExperimentSpec.builder("test", "noop", Pattern.UPDATE)
                .durationSeconds(30)
                .rate(2000)
                .keys(100)
                .parallelism(2)
                .generatorParallelism(2)
                .seed(7)
                .runToken(3)
                .recordsPerGenerator(recordsPerGenerator)
                .collector(collector.url())
                .databaseSettings(Map.of("callMicros", "100"))
                .build();
        Path specFile = dir.resolve("spec.properties");
        spec.write(specFile);
        return specFile;
    }

    private static Process launchWorker(Path dir, Path specFile, int instance) throws IOException {
        return new ProcessBuilder(
                        Home.javaExecutable(),
                        "-cp",
                        System.getProperty("java.class.path"),
                        WorkersAcrossJvmsTest.class.getName(),
                        specFile.toString(),
                        Integer.toString(instance))
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("worker-" + instance + ".log").toFile())
                .start();
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 30 s: " + what);
            }
            Thread.sleep(20);
        }
    }

    /**
     * One worker JVM of the job: generator instance {@code args[1]} feeding a processing operator
     * of its own, then waiting, as an engine's worker would, until the whole job is done.
     */
    public static void main(String[] args) throws Exception {
        ExperimentSpec spec = ExperimentSpec.read(Path.of(args[0]));
        GeneratorInstance generator = GeneratorInstance.of(spec, Integer.parseInt(args[1]));
        try (ProcessingOperator operator = ProcessingOperator.open(spec)) {
            TimedRecord record;
            while ((record = generator.next()) != null) {
                operator.process(record);
            }
        }
        JobRuntime worker = JobRuntime.of(spec);
        if (!worker.awaitAllFinal(30_000)) {
            System.err.println("the job was not complete within 30 s");
            System.exit(1);
        }
        worker.close();
    }
}
