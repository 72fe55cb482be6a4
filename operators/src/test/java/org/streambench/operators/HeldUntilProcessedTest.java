package org.streambench.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.streambench.generator.Pattern;
import org.streambench.generator.TimedRecord;

/**
 * A generator held until processed (Spark's): an unthrottled job emits a round of records, then
 * nothing more until those are processed, as many rounds as asked, then runs free; a throttled one
 * keeps its schedule.
 */
class HeldUntilProcessedTest {

    private static final long FIRST = 500;
    private static final int ROUNDS = 2;
    /** The hold is checked every 64 records. */
    private static final long CHECK_EVERY = 64;

    @Test
    void anUnthrottledJobEmitsARoundThenWaitsUntilItIsProcessedTwiceThenRunsFree() throws Exception {
        ExperimentSpec spec = spec(0);
        ExecutorService threads = Executors.newSingleThreadExecutor();
        try (JobRuntime runtime = JobRuntime.start(spec)) {
            GeneratorInstance generator = GeneratorInstance.heldUntilProcessed(spec, 0, FIRST, ROUNDS);
            AtomicLong emitted = new AtomicLong();
            emitUntilEnded(threads, generator, emitted);
            for (int round = 1; round <= ROUNDS; round++) {
                Thread.sleep(300);
                long held = emitted.get();
                assertTrue(
                        held >= round * FIRST && held <= round * FIRST + CHECK_EVERY,
                        held + " emitted in round " + round + " while " + (round - 1) * FIRST + " were processed");
                for (int i = 0; i < FIRST - 1; i++) {
                    runtime.metrics().processed(Operation.INSERT, TimedRecord.UNTIMED);
                }
                Thread.sleep(200);
                assertEquals(
                        held, emitted.get(), "round " + round + " went on before all of its records were processed");
                runtime.metrics().processed(Operation.INSERT, TimedRecord.UNTIMED);
            }
            Thread.sleep(300);
            assertTrue(
                    emitted.get() > 10 * FIRST,
                    "still held after " + ROUNDS + " rounds were processed: " + emitted.get());
            runtime.requestStop();
            threads.shutdown();
            assertTrue(threads.awaitTermination(5, TimeUnit.SECONDS), "the generator did not end on the stop");
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aHeldGeneratorEndsWhenTheJobStopsWhileItWaits() throws Exception {
        ExperimentSpec spec = spec(0);
        ExecutorService threads = Executors.newSingleThreadExecutor();
        try (JobRuntime runtime = JobRuntime.start(spec)) {
            GeneratorInstance generator = GeneratorInstance.heldUntilProcessed(spec, 0, FIRST, ROUNDS);
            AtomicLong emitted = new AtomicLong();
            Future<Long> ended = emitUntilEnded(threads, generator, emitted);
            Thread.sleep(300);
            runtime.requestStop();
            long count = ended.get(5, TimeUnit.SECONDS);
            assertTrue(count <= FIRST + CHECK_EVERY, count + " emitted");
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aThrottledJobIsNotHeld() throws Exception {
        ExperimentSpec spec = spec(20_000);
        ExecutorService threads = Executors.newSingleThreadExecutor();
        try (JobRuntime runtime = JobRuntime.start(spec)) {
            GeneratorInstance generator = GeneratorInstance.heldUntilProcessed(spec, 0, FIRST, ROUNDS);
            AtomicLong emitted = new AtomicLong();
            emitUntilEnded(threads, generator, emitted);
            Thread.sleep(500);
            assertTrue(
                    emitted.get() > 4 * FIRST,
                    "a throttled job was held: " + emitted.get() + " emitted, none processed");
            runtime.requestStop();
        } finally {
            threads.shutdownNow();
        }
    }

    /** Emits on one of {@code threads} until the generator ends, counting into {@code emitted}; the count at the end. */
    private static Future<Long> emitUntilEnded(
            ExecutorService threads, GeneratorInstance generator, AtomicLong emitted) {
        return threads.submit(() -> {
            while (generator.next() != null) {
                emitted.incrementAndGet();
            }
            return emitted.get();
        });
    }

    private static ExperimentSpec spec(double rate) {
        return ExperimentSpec.builder("test", "noop", Pattern.INSERT)
                .durationSeconds(2)
                .rate(rate)
                .keys(10)
                .seed(7)
                .runToken(3)
                .build();
    }
}
