package org.streambench.operators;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.streambench.generator.RateLimiter;
import org.streambench.generator.RecordGenerator;
import org.streambench.generator.SensorRecord;

/**
 * One parallel instance of the generator operator, as every engine's source wraps it: emits
 * records at its share of the configured rate until the runner asks the job to stop, and counts
 * what it emitted so the run can be replayed for verification.
 */
public final class GeneratorInstance {

    /** The in-flight count costs a few sums, so it is checked every 64 records. */
    private static final long CREDIT_CHECK_MASK = 63;
    private static final long CREDIT_WAIT_NANOS = 100_000;

    private final JobRuntime runtime;
    private final RecordGenerator generator;
    private final RateLimiter limiter;
    private final AtomicLong emitted;
    private final long limit;
    private final long maxInFlight;
    private long sequence;

    public GeneratorInstance(int instance) {
        this(instance, 0);
    }

    /**
     * @param maxInFlight for engines without backpressure from the processing operator to the
     *                    generator (Apex spools to disk instead): at most this many records of the
     *                    whole job are emitted but not yet processed; 0 = no limit
     */
    public GeneratorInstance(int instance, long maxInFlight) {
        this.runtime = JobRuntime.get();
        ExperimentSpec spec = runtime.spec();
        this.generator = new RecordGenerator(spec.seed(), spec.pattern(), spec.keys(), spec.runToken(), instance);
        this.limiter = new RateLimiter(spec.rate() / spec.generatorParallelism());
        this.emitted = runtime.emittedCounter(instance);
        this.sequence = emitted.get();
        this.limit = spec.bounded() ? spec.recordsPerGenerator() : Long.MAX_VALUE;
        this.maxInFlight = maxInFlight;
    }

    /** The next record, paced by the configured rate; {@code null} once the job is stopping or a bounded run is complete. */
    public SensorRecord next() {
        if (runtime.stopRequested() || sequence >= limit) {
            return null;
        }
        if (maxInFlight > 0 && (sequence & CREDIT_CHECK_MASK) == 0) {
            while (runtime.inFlight() >= maxInFlight) {
                if (runtime.stopRequested()) {
                    return null;
                }
                LockSupport.parkNanos(CREDIT_WAIT_NANOS);
            }
        }
        limiter.acquire();
        SensorRecord record = generator.record(sequence++);
        emitted.set(sequence);
        return record;
    }
}
