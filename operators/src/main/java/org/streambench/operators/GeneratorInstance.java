package org.streambench.operators;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.streambench.generator.EpochClock;
import org.streambench.generator.RateLimiter;
import org.streambench.generator.RecordGenerator;
import org.streambench.generator.TimedRecord;

/**
 * One parallel instance of the generator operator, as every engine's source wraps it: emits
 * records at its share of the configured rate until the runner asks the job to stop, and counts
 * what it emitted so the run can be replayed for verification. On a throttled run every record
 * carries the time the rate schedule intended it for, and how late it was actually emitted is
 * recorded as the generator's delay; on an unthrottled run, one record in
 * {@value #UNTHROTTLED_TIMED_EVERY} carries the time it was emitted.
 */
public final class GeneratorInstance {

    /** The in-flight count costs a few sums, so it is checked every 64 records. */
    private static final long CREDIT_CHECK_MASK = 63;

    private static final long CREDIT_WAIT_NANOS = 100_000;
    /**
     * With a {@code maxInFlight}, the records in flight are also held to about this many seconds
     * of processing (at least {@link #MIN_IN_FLIGHT}): a fixed count alone lets a slow database
     * (100 KB BLOBs: a few hundred records/s) queue a minute of records, which the end-to-end
     * latency then mostly measures and which every run has to drain before it can end.
     */
    private static final double IN_FLIGHT_SECONDS = 1.0;

    private static final long MIN_IN_FLIGHT = 500;
    /** How long a non-blocking source waits before asking again whether the start gate opened. */
    private static final long START_WAIT_NANOS = 20_000_000;
    /** On an unthrottled run, one record in this many carries its emit time for the end-to-end latency. */
    static final int UNTHROTTLED_TIMED_EVERY = 16;

    private final JobRuntime runtime;
    private final int instance;
    private final RecordGenerator generator;
    private final double rate;
    /** Created when the job's start gate opens, so the rate schedule begins then and not at engine start. */
    private RateLimiter limiter;

    private final OperatorMetrics metrics;
    private final AtomicLong emitted;
    private final long limit;
    private final long maxInFlight;
    /** Until {@code heldRounds} rounds are processed: the job emits this many records, then waits until they are processed. */
    private long heldRecords;

    private int heldRounds;
    /** The rounds of held records the job has processed. */
    private int processedRounds;

    private long sequence;
    /** The highest sequence emitted so far by this instance in this JVM, also before a restart from a checkpoint. */
    private long emittedMark;

    /** Generator instance {@code instance} of the spec's run, in this JVM's worker. */
    public static GeneratorInstance of(ExperimentSpec spec, int instance) {
        return of(spec, instance, 0);
    }

    /**
     * Generator instance {@code instance} of the spec's run, in this JVM's worker, for an engine
     * whose backpressure learns the processing speed only from finished work (Spark's rate
     * estimator, from its second completed micro-batch with records): on an unthrottled run the job
     * emits {@code records} records and waits until they are processed, {@code rounds} times, so the
     * engine's first guess of the speed cannot queue more than that before it has learned. Without
     * the hold, a database of 25 records/s met Spark's first batches at 1,000 records/s: 40 s per
     * batch while the receiver queued 40,000 more, which the stop then had to drain.
     */
    public static GeneratorInstance heldUntilProcessed(ExperimentSpec spec, int instance, long records, int rounds) {
        GeneratorInstance generator = new GeneratorInstance(JobRuntime.of(spec), instance, 0);
        if (spec.rate() <= 0) {
            generator.heldRecords = records;
            generator.heldRounds = rounds;
        }
        return generator;
    }

    /**
     * Generator instance {@code instance} of the spec's run, in this JVM's worker, for an engine
     * that needs its generators to hold back.
     *
     * @param maxInFlight for engines without backpressure from the processing operator to the
     *                    generator (Apex spools to disk instead) or whose buffers hold many small
     *                    records (Flink's network buffers): at most this many records of the
     *                    whole job, and about {@value #IN_FLIGHT_SECONDS} s of processing, are
     *                    emitted but not yet processed; 0 = no limit
     */
    public static GeneratorInstance of(ExperimentSpec spec, int instance, long maxInFlight) {
        return new GeneratorInstance(JobRuntime.of(spec), instance, maxInFlight);
    }

    /**
     * As {@link #of(ExperimentSpec, int, long)}, restored from an engine's checkpoint: emits again from
     * record {@code position} on (the records are a function of seed, instance and sequence, so the
     * replay is exact); what the instance emitted before still counts as emitted.
     */
    public static GeneratorInstance restored(ExperimentSpec spec, int instance, long maxInFlight, long position) {
        GeneratorInstance generator = new GeneratorInstance(JobRuntime.of(spec), instance, maxInFlight);
        generator.sequence = position;
        return generator;
    }

    /** The sequence of the next record this instance emits: its position, as an engine's checkpoint stores it. */
    public long position() {
        return sequence;
    }

    GeneratorInstance(JobRuntime runtime, int instance, long maxInFlight) {
        this.runtime = runtime;
        this.instance = instance;
        ExperimentSpec spec = runtime.spec();
        this.generator = spec.recordGenerator(instance);
        this.rate = spec.rate() / spec.generatorParallelism();
        this.metrics = runtime.metrics();
        this.emitted = runtime.emittedCounter(instance);
        this.sequence = emitted.get();
        this.emittedMark = sequence;
        this.limit = spec.bounded() ? spec.recordsPerGenerator() : Long.MAX_VALUE;
        this.maxInFlight = maxInFlight;
    }

    /**
     * How long until the next record is due by the rate schedule, or until the records in flight
     * may have gone below their bound; 0 or less when it is due now. Sources that must not block
     * (Flink's) wait this long before calling {@link #next()}.
     */
    public long nanosUntilDue() {
        if (awaitingStart()) {
            return START_WAIT_NANOS;
        }
        if (awaitingCredit()) {
            return CREDIT_WAIT_NANOS;
        }
        return limiter().nanosUntilDue();
    }

    /**
     * Whether {@link #next()} would wait for the job rather than for the clock: for its start gate,
     * or for the records in flight to go below their bound. An Apex input operator must return
     * instead: its window cannot end while {@code emitTuples} runs, and Apex may hold back records
     * until it does, so the credit never comes back (a bounded parity run stalled in 2 of 7 trials,
     * both generators parked in {@code next()}). False once the job is stopping: {@link #next()}
     * then ends the instance at once.
     */
    public boolean heldBack() {
        return awaitingStart() || (awaitingCredit() && !runtime.stopRequested());
    }

    private boolean awaitingCredit() {
        return heldInFlight() && runtime.queued() >= inFlightBound();
    }

    /**
     * Whether the job's start gate is still closed (and the job not stopping): {@link #next()}
     * would block until it opens.
     */
    public boolean awaitingStart() {
        return limiter == null && !runtime.started() && !runtime.stopRequested();
    }

    private RateLimiter limiter() {
        if (limiter == null) {
            limiter = new RateLimiter(rate);
            runtime.generatorEmitting();
        }
        return limiter;
    }

    /**
     * Whether this record waits for the records in flight to go below their bound. Not while
     * replaying after a restart from a checkpoint, in this JVM or another: the records in flight
     * at the failure were lost and count as in flight until the replay processes them again.
     */
    private boolean heldInFlight() {
        return maxInFlight > 0 && (sequence & CREDIT_CHECK_MASK) == 0 && sequence >= runtime.highestEmitted(instance);
    }

    private long inFlightBound() {
        long bySpeed = Math.max(MIN_IN_FLIGHT, (long) (runtime.handledPerSecond() * IN_FLIGHT_SECONDS));
        return Math.min(maxInFlight, bySpeed);
    }

    /** The next record, paced by the configured rate (blocks until it is due); {@code null} once the job is stopping or a bounded run is complete. */
    public TimedRecord next() {
        if (sequence >= limit) {
            return ended();
        }
        if (runtime.stopRequested()) {
            return sequence < runtime.highestEmitted(instance) ? replayedAfterTheStop() : ended();
        }
        if (limiter == null) {
            try {
                if (!runtime.awaitStart()) {
                    return ended();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ended(); // the engine is shutting this source down
            }
        }
        RateLimiter schedule = limiter();
        while (awaitingCredit()) {
            if (runtime.stopRequested()) {
                return ended();
            }
            LockSupport.parkNanos(CREDIT_WAIT_NANOS);
        }
        if (processedRounds < heldRounds && (sequence & CREDIT_CHECK_MASK) == 0 && !awaitHeldRecordsProcessed()) {
            return ended();
        }
        long intended;
        if (schedule.throttled()) {
            intended = schedule.acquire();
            if (runtime.stopRequested()) {
                return ended(); // the stop came while this record waited for its time: it was never emitted
            }
            metrics.recordGeneratorDelay(EpochClock.nowNanos() - intended);
        } else {
            // unthrottled, a record is intended for the moment it is emitted; reading the clock for
            // every record would cost a noticeable share of the harness's own ceiling, so every
            // UNTHROTTLED_TIMED_EVERY-th record is timed end to end
            intended = (sequence % UNTHROTTLED_TIMED_EVERY) == 0 ? EpochClock.nowNanos() : TimedRecord.UNTIMED;
        }
        return counted(generator.timed(sequence++, intended));
    }

    /**
     * A record of a replay after a restart from a checkpoint that the stop caught before it came
     * back to where the instance had come before the failure (in this JVM or, as the collector
     * says, another one's): those records count as emitted, so the job must process them again.
     * At once, without an intended time: the measured window has closed.
     */
    private TimedRecord replayedAfterTheStop() {
        return counted(generator.timed(sequence++, TimedRecord.UNTIMED));
    }

    private TimedRecord counted(TimedRecord record) {
        if (sequence > emittedMark) { // below it: a replay after a restart from a checkpoint
            emittedMark = sequence;
            emitted.lazySet(sequence); // read only by scrapes and the in-flight check, which need no fence per record
        }
        return record;
    }

    /** Waits while a round of held records is emitted but not all processed; false if the job stops meanwhile. */
    private boolean awaitHeldRecordsProcessed() {
        while (processedRounds < heldRounds) {
            long roundEnd = (processedRounds + 1) * heldRecords;
            if (runtime.jobHandled() >= roundEnd) {
                processedRounds++;
            } else if (runtime.jobEmitted() < roundEnd) {
                return true;
            } else if (runtime.stopRequested()) {
                return false;
            } else {
                LockSupport.parkNanos(CREDIT_WAIT_NANOS);
            }
        }
        return true;
    }

    /** This instance will not emit again: the job learns it, so it knows when every generator is done. */
    private TimedRecord ended() {
        runtime.generatorEnded(instance);
        return null;
    }
}
