package org.streambench.operators;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.streambench.db.Database;
import org.streambench.db.DatabaseException;
import org.streambench.db.DatabaseProvider;
import org.streambench.db.NoopDatabase;
import org.streambench.generator.Pattern;

/**
 * Under a guarantee, an operator that the engine restarts while its database server is away (killed
 * and starting again) waits for it to answer: also when the run's window ended meanwhile, as the
 * stop drains what was emitted and needs the database for it.
 */
class DatabaseReturnsTest {

    /** Opens refused before the server answers again; each test sets it. */
    static final AtomicInteger REFUSALS = new AtomicInteger();

    /** When each open was tried ({@link System#nanoTime}). */
    static final List<Long> ATTEMPTS = new CopyOnWriteArrayList<>();

    /** A server starting again: it refuses {@link #REFUSALS} opens, then answers as noop. */
    public static final class Provider implements DatabaseProvider {
        @Override
        public String name() {
            return "returning";
        }

        @Override
        public Database create() {
            ATTEMPTS.add(System.nanoTime());
            if (REFUSALS.getAndDecrement() > 0) {
                throw new DatabaseException("FATAL: the database system is not yet accepting connections");
            }
            return new NoopDatabase();
        }

        @Override
        public List<String> settingNames() {
            return List.of();
        }
    }

    private static ExperimentSpec spec(Guarantee guarantee) {
        return ExperimentSpec.builder("test", "returning", Pattern.UPDATE)
                .guarantee(guarantee)
                .keys(10)
                .runToken(12)
                .metricsHost("127.0.0.1")
                .build();
    }

    @Test
    void aRestartedOperatorWaitsForItsDatabaseAlsoWhenTheStopCameMeanwhile() throws Exception {
        try (JobRuntime runtime = JobRuntime.start(spec(Guarantee.AT_LEAST_ONCE))) {
            runtime.onFailure(reason -> {});
            runtime.requestStop();
            REFUSALS.set(3);
            ProcessingOperator.open(runtime, "flink-0").close();
            assertEquals(-1, REFUSALS.get(), "three opens refused, the fourth answered");
            assertEquals(null, runtime.failure());
        }
    }

    /** Each attempt builds a client, which costs CPU the restarting server needs: the waits double. */
    @Test
    void aRestartedOperatorAsksLessOftenTheLongerItsDatabaseStaysAway() throws Exception {
        try (JobRuntime runtime = JobRuntime.start(spec(Guarantee.AT_LEAST_ONCE))) {
            runtime.onFailure(reason -> {});
            runtime.requestStop();
            ATTEMPTS.clear();
            REFUSALS.set(3);
            ProcessingOperator.open(runtime, "flink-0").close();
            assertEquals(4, ATTEMPTS.size(), "three opens refused, the fourth answered");
            for (int i = 1; i < ATTEMPTS.size(); i++) {
                long waitedMillis = TimeUnit.NANOSECONDS.toMillis(ATTEMPTS.get(i) - ATTEMPTS.get(i - 1));
                long atLeast = 200L << (i - 1);
                assertTrue(waitedMillis >= atLeast, "wait " + i + ": " + waitedMillis + " ms, not " + atLeast);
            }
        }
    }

    @Test
    void withoutAGuaranteeTheFirstRefusalFailsTheRun() throws Exception {
        try (JobRuntime runtime = JobRuntime.start(spec(Guarantee.NONE))) {
            runtime.onFailure(reason -> {});
            REFUSALS.set(1);
            assertThrows(DatabaseException.class, () -> ProcessingOperator.open(runtime, "flink-0"));
            assertEquals(
                    "the processing operator could not open the returning connector: FATAL: the database system is"
                            + " not yet accepting connections",
                    runtime.failure());
        }
    }
}
