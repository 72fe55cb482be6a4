package org.streambench.operators;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.streambench.generator.Pattern;
import org.streambench.generator.TimedRecord;

/**
 * A generator with a {@code maxInFlight} (Apex's) holds the unprocessed records to about one
 * second of processing, not just to the fixed count: a slow database must not queue a minute.
 */
class InFlightBoundTest {

    private static final long MAX_IN_FLIGHT = 10_000;
    /** The in-flight count is checked every 64 records. */
    private static final long CHECK_EVERY = 64;

    @Test
    void withNothingProcessedTheGeneratorStopsAtTheMinimumFarBelowTheFixedCount() throws Exception {
        long inFlight = inFlightAfter(300, 0);
        assertTrue(inFlight > 0, "the generator emitted nothing");
        assertTrue(inFlight <= 500 + CHECK_EVERY, inFlight + " records in flight while none was processed");
    }

    @Test
    void theBoundFollowsTheProcessingSpeed() throws Exception {
        // at most 4,000 records/s processed (4 per millisecond at best): about a second of that is in flight
        long inFlight = inFlightAfter(1500, 4);
        assertTrue(inFlight > 500 + CHECK_EVERY, "the bound stayed at its minimum: " + inFlight + " in flight");
        assertTrue(inFlight <= 4_000 + 2 * CHECK_EVERY, inFlight + " in flight: more than a second of processing");
    }

    @Test
    @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // blocking in next() would hang here
    void aSourceThatMustNotBlockIsToldToWaitAtTheBoundInsteadOfBlocking() throws Exception {
        ExperimentSpec spec = spec();
        try (JobRuntime runtime = JobRuntime.start(spec)) {
            GeneratorInstance generator = GeneratorInstance.of(spec, 0, MAX_IN_FLIGHT);
            long emitted = 0;
            while (generator.nanosUntilDue() <= 0) {
                assertNotNull(generator.next());
                emitted++;
                assertTrue(emitted <= 500 + CHECK_EVERY, emitted + " emitted while none was processed");
            }
            assertTrue(emitted >= 500, "told to wait after " + emitted);
            for (long i = 0; i < emitted; i++) {
                runtime.metrics().processed(Operation.INSERT, TimedRecord.UNTIMED);
            }
            assertTrue(generator.nanosUntilDue() <= 0, "still told to wait with nothing in flight");
        }
    }

    @Test
    @Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // blocking in next() would hang here
    void anApexInputOperatorIsToldItIsHeldBackAtTheBoundAndNoLongerOnceTheJobStops() throws Exception {
        ExperimentSpec spec = spec();
        try (JobRuntime runtime = JobRuntime.start(spec)) {
            GeneratorInstance generator = GeneratorInstance.of(spec, 0, MAX_IN_FLIGHT);
            long emitted = 0;
            while (!generator.heldBack()) {
                assertNotNull(generator.next());
                emitted++;
                assertTrue(emitted <= 500 + CHECK_EVERY, emitted + " emitted while none was processed");
            }
            assertTrue(emitted >= 500, "held back after " + emitted);
            runtime.metrics().processed(Operation.INSERT, TimedRecord.UNTIMED);
            assertTrue(generator.heldBack(), "one record processed: still at the bound");
            runtime.requestStop();
            assertFalse(generator.heldBack(), "a stopping job must reach next(), which ends the instance");
            assertNull(generator.next());
        }
    }

    /** Records in flight after {@code millis} of emitting while {@code perMilli} are processed every millisecond. */
    private static long inFlightAfter(long millis, int perMilli) throws Exception {
        ExperimentSpec spec = spec();
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try (JobRuntime runtime = JobRuntime.start(spec)) {
            GeneratorInstance generator = GeneratorInstance.of(spec, 0, MAX_IN_FLIGHT);
            threads.submit(() -> {
                while (generator.next() != null) {
                    // emit as fast as the bound lets it
                }
            });
            threads.submit(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    for (int i = 0; i < perMilli && runtime.inFlight() > 0; i++) {
                        runtime.metrics().processed(Operation.INSERT, TimedRecord.UNTIMED);
                    }
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
            Thread.sleep(millis);
            runtime.requestStop();
            threads.shutdownNow();
            assertTrue(threads.awaitTermination(5, TimeUnit.SECONDS));
            return runtime.inFlight();
        } finally {
            threads.shutdownNow();
        }
    }

    private static ExperimentSpec spec() {
        return ExperimentSpec.builder("test", "noop", Pattern.INSERT)
                .durationSeconds(2)
                .keys(10)
                .seed(7)
                .runToken(3)
                .build();
    }
}
