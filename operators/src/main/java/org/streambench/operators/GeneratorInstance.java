package org.streambench.operators;

import java.util.concurrent.atomic.AtomicLong;
import org.streambench.generator.RateLimiter;
import org.streambench.generator.RecordGenerator;
import org.streambench.generator.SensorRecord;

/**
 * One parallel instance of the generator operator, as every engine's source wraps it: emits
 * records at its share of the configured rate until the runner asks the job to stop, and counts
 * what it emitted so the run can be replayed for verification.
 */
public final class GeneratorInstance {

    private final JobRuntime runtime;
    private final RecordGenerator generator;
    private final RateLimiter limiter;
    private final AtomicLong emitted;
    private long sequence;

    public GeneratorInstance(int instance) {
        this.runtime = JobRuntime.get();
        ExperimentSpec spec = runtime.spec();
        this.generator = new RecordGenerator(spec.seed(), spec.pattern(), spec.keys(), spec.runToken(), instance);
        this.limiter = new RateLimiter(spec.rate() / spec.generatorParallelism());
        this.emitted = runtime.emittedCounter(instance);
        this.sequence = emitted.get();
    }

    /** The next record, paced by the configured rate; {@code null} once the job is stopping. */
    public SensorRecord next() {
        if (runtime.stopRequested()) {
            return null;
        }
        limiter.acquire();
        SensorRecord record = generator.record(sequence++);
        emitted.set(sequence);
        return record;
    }
}
