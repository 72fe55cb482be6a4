package org.streambench.runner.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.streambench.generator.Pattern;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.Fault;
import org.streambench.operators.GeneratorInstance;
import org.streambench.operators.JobRuntime;
import org.streambench.operators.Polling;
import org.streambench.operators.WorkerStatus;
import org.streambench.servers.TestServers;

/**
 * A run fails once, whichever JVMs hold its operators: the fault is due its time after the run's
 * first record, emitted in any JVM, and the collector grants it to the first worker that claims it.
 */
class FaultGrantTest {

    @Test
    void theCollectorGrantsTheFaultToTheFirstClaimantAndTellsEveryoneTheRunsFirstRecord() throws Exception {
        try (JobCollector collector = new JobCollector("127.0.0.1", "127.0.0.1")) {
            WorkerStatus.View first = collector.receive(status("a:1", 2_000, false));
            assertEquals(2_000, first.emittingSinceEpochMillis());
            assertNull(first.faultOwner());

            // a JVM without a generator (Apex's operator containers on YARN) reports no first record
            WorkerStatus.View operatorsOnly = collector.receive(status("b:2", 0, true));
            assertEquals("b:2", operatorsOnly.faultOwner());
            assertEquals(2_000, operatorsOnly.emittingSinceEpochMillis());

            WorkerStatus.View later = collector.receive(status("c:3", 1_500, true));
            assertEquals("b:2", later.faultOwner(), "the fault is granted once");
            assertEquals(1_500, later.emittingSinceEpochMillis(), "the run's first record, in any worker");
            assertEquals("b:2", collector.receive(status("a:1", 2_000, true)).faultOwner());
        }
    }

    @Test
    void aWorkerFiresTheFaultOnceWhenTheCollectorGrantsItToIt() throws Exception {
        try (JobCollector collector = new JobCollector("127.0.0.1", "127.0.0.1");
                JobRuntime runtime = JobRuntime.start(spec(collector, 11))) {
            GeneratorInstance.of(runtime.spec(), 0).next();
            assertTrue(Polling.until(runtime::faultDue, 5_000), "the granted fault never fired");
            assertFalse(runtime.faultDue(), "a fault fires once");
        }
    }

    @Test
    void aWorkerDoesNotFireAFaultGrantedToAnotherWorker() throws Exception {
        try (JobCollector collector = new JobCollector("127.0.0.1", "127.0.0.1")) {
            collector.receive(status("elsewhere:9", 1, true));
            try (JobRuntime runtime = JobRuntime.start(spec(collector, 12))) {
                assertNotNull(GeneratorInstance.of(runtime.spec(), 0).next());
                long deadline = System.nanoTime() + 1_000_000_000L;
                while (System.nanoTime() < deadline) {
                    assertFalse(runtime.faultDue(), "fired a fault the collector granted to another worker");
                    Thread.sleep(20);
                }
            }
        }
    }

    /** Without a collector (a runtime in a test) the worker is the whole job: its own first record counts. */
    @Test
    void aWorkerWithoutACollectorFiresTheFaultOnceAfterItsOwnFirstRecord() throws Exception {
        ExperimentSpec spec = ExperimentSpec.builder("test", "noop", Pattern.INSERT)
                .durationSeconds(2)
                .keys(10)
                .seed(7)
                .runToken(13)
                .metricsPort(TestServers.freePort())
                .fault(Fault.parse("fail-task@100ms"))
                .build();
        try (JobRuntime runtime = JobRuntime.start(spec)) {
            Thread.sleep(200);
            assertFalse(runtime.faultDue(), "due before any record was emitted");
            GeneratorInstance.of(runtime.spec(), 0).next();
            assertTrue(Polling.until(runtime::faultDue, 5_000), "the fault never fired");
            assertFalse(runtime.faultDue(), "a fault fires once");
        }
    }

    private static ExperimentSpec spec(JobCollector collector, int runToken) {
        return ExperimentSpec.builder("test", "noop", Pattern.INSERT)
                .durationSeconds(2)
                .keys(10)
                .seed(7)
                .runToken(runToken)
                .metricsPort(TestServers.freePort())
                .collector(collector.url())
                .fault(Fault.parse("fail-task@100ms"))
                .build();
    }

    private static WorkerStatus status(String worker, long emittingSinceEpochMillis, boolean claimsFault) {
        return WorkerStatuses.of(
                worker,
                emittingSinceEpochMillis == 0 ? Map.of() : Map.of(0, 1L),
                emittingSinceEpochMillis,
                claimsFault);
    }
}
