package org.streambench.operators;

import java.util.Optional;
import java.util.function.Consumer;
import org.streambench.db.Database;
import org.streambench.db.Databases;
import org.streambench.db.StoredRecord;
import org.streambench.generator.Pattern;
import org.streambench.generator.SensorRecord;
import org.streambench.generator.TimedRecord;

/**
 * The processing operator, identical on every engine. For each record:
 * <ul>
 * <li>read: read the entry (it must exist);</li>
 * <li>insert: insert it, no prior read;</li>
 * <li>update: read the entry, add the new values field by field, write the sum back;</li>
 * <li>mixed: read; if found add and update, else insert.</li>
 * </ul>
 * Each read is timed here, never inside a connector, and so is each record's end-to-end latency. A failed call is counted and reported, and
 * it ends the run ({@link JobRuntime#fail}): the run has failed anyway, and a database that stopped
 * answering must not be hammered with calls that cannot succeed.
 */
public final class ProcessingOperator implements AutoCloseable {

    private final Pattern pattern;
    private final Database database;
    private final Blob.Pool blobs;
    private final OperatorMetrics metrics;
    private final Consumer<String> failRun;

    ProcessingOperator(
            Pattern pattern, Database database, Blob.Pool blobs, OperatorMetrics metrics, Consumer<String> failRun) {
        this.pattern = pattern;
        this.database = database;
        this.blobs = blobs;
        this.metrics = metrics;
        this.failRun = failRun;
    }

    /** Opens this instance's own database session, as the engine calls it once per parallel instance. */
    public static ProcessingOperator open(ExperimentSpec spec) {
        return open(JobRuntime.of(spec));
    }

    static ProcessingOperator open(JobRuntime runtime) {
        ExperimentSpec spec = runtime.spec();
        Database database;
        try {
            database = Databases.open(spec.database(), spec.settings());
            database.prepareStatements();
        } catch (RuntimeException e) {
            // a setup failure ends the job at once, instead of an engine restarting the operator forever
            runtime.fail(
                    "the processing operator could not open the " + spec.database() + " connector: " + e.getMessage());
            throw e;
        }
        return new ProcessingOperator(spec.pattern(), database, Blob.pool(spec), runtime.metrics(), runtime::fail);
    }

    public void process(TimedRecord timed) {
        SensorRecord record = timed.record();
        long intended = timed.intendedEpochNanos();
        Operation op = pattern == Pattern.INSERT ? Operation.INSERT : Operation.READ;
        try {
            if (op == Operation.INSERT) {
                database.insert(record, blobs.forKey(record.id()));
                metrics.processed(op, intended);
                return;
            }
            Optional<StoredRecord> previous = timedRead(record.id());
            if (pattern == Pattern.READ) {
                require(previous, record);
                metrics.processed(op, intended);
            } else if (previous.isPresent()) {
                op = Operation.UPDATE;
                database.update(previous.get().record().plus(record), blobs.forKey(record.id()));
                metrics.processed(op, intended);
            } else if (pattern == Pattern.MIXED) {
                op = Operation.INSERT;
                database.insert(record, blobs.forKey(record.id()));
                metrics.processed(op, intended);
            } else {
                require(previous, record);
            }
        } catch (RuntimeException e) {
            metrics.error(op, e);
            failRun.accept("a database call failed (" + op.label() + " of key " + record.id() + "): " + e);
        }
    }

    private Optional<StoredRecord> timedRead(String id) {
        long start = System.nanoTime();
        Optional<StoredRecord> found;
        try {
            found = database.read(id);
        } catch (RuntimeException e) {
            metrics.recordRead(System.nanoTime() - start, OperatorMetrics.ReadResult.FAILED);
            throw e;
        }
        metrics.recordRead(
                System.nanoTime() - start,
                found.isPresent() ? OperatorMetrics.ReadResult.HIT : OperatorMetrics.ReadResult.MISS);
        return found;
    }

    private void require(Optional<StoredRecord> previous, SensorRecord record) {
        if (previous.isEmpty()) {
            throw new IllegalStateException("key " + record.id() + " should exist (prefilled) but was not found");
        }
    }

    @Override
    public void close() {
        database.close();
    }
}
