package org.streambench.operators;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.streambench.db.Database;
import org.streambench.db.Databases;
import org.streambench.db.StoredRecord;
import org.streambench.generator.Keys;
import org.streambench.generator.Pattern;
import org.streambench.generator.SensorRecord;
import org.streambench.generator.TimedRecord;

/**
 * The processing operator, identical on every engine. For each record:
 * <ul>
 * <li>read: read the entry (it must exist);</li>
 * <li>insert: insert it, no prior read;</li>
 * <li>update: read the entry, add the new values field by field, write the sum back;</li>
 * <li>mixed: read; an existing key found: add and update; a new key: insert (also when a replay after a
 *     recovery finds the row its first attempt inserted: the insert is then an upsert).</li>
 * </ul>
 * Each read is timed here, never inside a connector, and so is each record's end-to-end latency. Without
 * a guarantee a failed call is counted and reported, and it ends the run ({@link JobRuntime#fail}):
 * the run has failed anyway, and a database that stopped answering must not be hammered with calls
 * that cannot succeed. Under a guarantee it fails the engine's task, and the engine recovers.
 */
public final class ProcessingOperator implements AutoCloseable {

    private final Pattern pattern;
    private final Database database;
    private final Blob.Pool blobs;
    private final OperatorMetrics metrics;
    private final Consumer<String> failRun;
    private final AccessMode access;
    /** batch mode: the records waiting for their batch, in arrival order, with the time each arrived. */
    private final List<TimedRecord> pending = new ArrayList<>();

    private final List<Long> pendingSince = new ArrayList<>();
    /** async mode: the calls in flight, the last one of each key (a key's next call waits for it). */
    private final Map<String, CompletableFuture<Void>> lastByKey = new ConcurrentHashMap<>();

    private final Semaphore inFlight;
    /** async mode on a connector without asynchronous calls: connections of its own, one call in flight on each. */
    private final AsyncSessions sessions;
    /** Throws the spec's injected fail-task fault when it is due ({@link JobRuntime#faultDue}); does nothing without one. */
    private final Runnable faultCheck;
    /** The same for a fail-checkpoint fault, at {@link #snapshotTaken}. */
    private final Runnable checkpointFaultCheck;
    /** exactly-once: where the writes wait for their checkpoint to complete; null otherwise. */
    private final CommitOnCheckpoint commits;
    /**
     * Under a guarantee, what hears of a failed call before it fails the engine's task, which the
     * engine restarts from its last checkpoint; null without one (a failed call fails the run).
     */
    private final Consumer<String> taskFailed;

    private final boolean engineRecovers;
    /** Whether a call completed since the last {@link #snapshotTaken} (async calls complete on the client's threads). */
    private final AtomicBoolean processedSinceSnapshot = new AtomicBoolean();

    /** Under a guarantee, the first asynchronous call that failed: the engine's task fails with it. */
    private final AtomicReference<RuntimeException> asyncFailure = new AtomicReference<>();

    /** How long a restarted operator waits for its database to answer again, under a guarantee. */
    private static final long DATABASE_RETURN_MILLIS = 60_000;

    /**
     * The first wait before asking a gone database again, doubled after each refusal up to
     * {@link #DATABASE_RETRY_MAX_MILLIS}: each attempt builds a client (a CQL session: a core's
     * tenth of a second), and asked every 200 ms the job took a core from the server it waited for
     * (a killed durable Cassandra took 29 s to answer again, 10-13 s on a machine left to it).
     */
    private static final long DATABASE_RETRY_MILLIS = 200;

    /** At most this long between attempts: a server that answers again waits for the job this long at most. */
    private static final long DATABASE_RETRY_MAX_MILLIS = 800;

    ProcessingOperator(
            Pattern pattern, Database database, Blob.Pool blobs, OperatorMetrics metrics, Consumer<String> failRun) {
        this(pattern, database, blobs, metrics, failRun, AccessMode.SYNC, null, () -> {}, () -> {}, null, null);
    }

    private ProcessingOperator(
            Pattern pattern,
            Database database,
            Blob.Pool blobs,
            OperatorMetrics metrics,
            Consumer<String> failRun,
            AccessMode access,
            AsyncSessions sessions,
            Runnable faultCheck,
            Runnable checkpointFaultCheck,
            CommitOnCheckpoint commits,
            Consumer<String> taskFailed) {
        this.pattern = pattern;
        this.taskFailed = taskFailed;
        this.engineRecovers = taskFailed != null;
        this.database = commits != null ? commits : database;
        this.commits = commits;
        this.blobs = blobs;
        this.metrics = metrics;
        this.failRun = failRun;
        this.access = access;
        this.inFlight = new Semaphore(access.kind() == AccessMode.Kind.ASYNC ? access.size() : 1);
        this.sessions = sessions;
        this.faultCheck = faultCheck;
        this.checkpointFaultCheck = checkpointFaultCheck;
    }

    /** Opens this instance's own database session, as the engine calls it once per parallel instance. */
    public static ProcessingOperator open(ExperimentSpec spec) {
        return open(JobRuntime.of(spec), null);
    }

    /**
     * Opens instance {@code instance} (a name the engine gives the same instance again after a
     * restart): with exactly-once its writes wait for the engine's checkpoints, {@link #sealEpoch}
     * and {@link #commitUpTo}, and the database knows what each instance committed by this name.
     */
    public static ProcessingOperator open(ExperimentSpec spec, String instance) {
        return open(JobRuntime.of(spec), instance);
    }

    static ProcessingOperator open(JobRuntime runtime, String instance) {
        ExperimentSpec spec = runtime.spec();
        Database database = whenTheDatabaseAnswers(
                runtime,
                () -> openSession(spec),
                "the processing operator could not open the " + spec.database() + " connector");
        AsyncSessions sessions = null;
        if (spec.access().kind() == AccessMode.Kind.ASYNC && !database.asynchronous()) {
            sessions = whenTheDatabaseAnswers(
                    runtime,
                    () -> AsyncSessions.open(spec, spec.access().size()),
                    "the processing operator could not open its "
                            + spec.access().size() + " " + spec.database() + " connections for async:"
                            + spec.access().size());
        }
        Fault fault = spec.fault();
        Runnable faultCheck = fault == null
                ? () -> {}
                : () -> {
                    if (runtime.faultDue()) {
                        Fault.Injected injected = new Fault.Injected(fault);
                        if (!spec.guarantee().recovers()) {
                            // the cause, before an engine's own handling of the failure reports a consequence
                            runtime.fail(injected.getMessage());
                        }
                        if (fault.kind() == Fault.Kind.KILL_WORKER) {
                            runtime.killThisWorker();
                        }
                        throw injected;
                    }
                };
        Runnable noFault = () -> {};
        Blob.Pool blobs = Blob.pool(spec);
        CommitOnCheckpoint commits = null;
        if (spec.guarantee() == Guarantee.EXACTLY_ONCE) {
            if (instance == null) {
                throw new IllegalStateException("exactly-once needs the engine to name each processing instance");
            }
            commits = new CommitOnCheckpoint(database, instance, blobs, runtime.metrics());
        }
        return new ProcessingOperator(
                spec.pattern(),
                database,
                blobs,
                runtime.metrics(),
                runtime::fail,
                spec.access(),
                sessions,
                fault != null && (fault.kind() == Fault.Kind.FAIL_TASK || fault.kind() == Fault.Kind.KILL_WORKER)
                        ? faultCheck
                        : noFault,
                fault != null && fault.kind() == Fault.Kind.FAIL_CHECKPOINT ? faultCheck : noFault,
                commits,
                spec.guarantee().recovers() ? runtime::instanceFailed : null);
    }

    /**
     * A session of the run's database, its statements prepared. Under at-least-once its inserts are
     * upserts: an engine replays, after a recovery, inserts whose first attempt got in, and each must
     * overwrite its own row with the same values.
     */
    static Database openSession(ExperimentSpec spec) {
        Database database = Databases.open(spec.database(), spec.settings());
        if (spec.guarantee() == Guarantee.AT_LEAST_ONCE && !database.upsertInserts()) {
            database.close();
            throw new IllegalStateException(spec.database() + " cannot make its inserts upserts for at-least-once");
        }
        database.prepareStatements();
        return database;
    }

    /**
     * Opens what {@code open} opens. A failure at the job's start ends the job at once, instead of
     * an engine restarting the operator forever. Under a guarantee, once the job has started, a
     * failure means the database went away (a crash, a restart): the operator that the engine
     * restarts waits for it to answer again, up to {@link #DATABASE_RETURN_MILLIS}, as a connection
     * pool waits for a connection up to its timeout. Also when the runner asked the job to stop
     * meanwhile: the stop drains what the generators emitted, which needs the database (a server
     * killed near the window's end came back after it: 2.6 s of crash recovery on a slow day).
     */
    private static <T> T whenTheDatabaseAnswers(JobRuntime runtime, Supplier<T> open, String failure) {
        boolean waits = runtime.spec().guarantee().recovers() && runtime.started();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(DATABASE_RETURN_MILLIS);
        long retryMillis = DATABASE_RETRY_MILLIS;
        while (true) {
            try {
                return open.get();
            } catch (RuntimeException e) {
                if (!waits || System.nanoTime() > deadline) {
                    runtime.fail(failure + ": " + e.getMessage());
                    throw e;
                }
            }
            try {
                Thread.sleep(retryMillis);
                retryMillis = Math.min(2 * retryMillis, DATABASE_RETRY_MAX_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for the database to answer again", e);
            }
        }
    }

    /**
     * The engine handed this instance's state to a checkpoint that has not completed yet: where a
     * {@code fail-checkpoint} fault fires, once the instance processed records since its last one (a
     * fault in an instance with nothing to replay, a Spark task of an empty partition, shows nothing).
     */
    public void snapshotTaken() {
        if (processedSinceSnapshot.getAndSet(false)) {
            checkpointFaultCheck.run();
        }
    }

    /**
     * exactly-once: the engine takes checkpoint {@code checkpointId} (or ends micro-batch
     * {@code checkpointId}); the records processed since the last one (call {@link #flush} first)
     * belong to it.
     */
    public void sealEpoch(long checkpointId) {
        requireCommits();
        commits.seal(checkpointId);
    }

    /** exactly-once: the sealed writes not committed yet, which the engine's checkpoint must hold ({@link #restoreEpochs}). */
    public byte[] uncommittedState() {
        requireCommits();
        return commits.state();
    }

    /**
     * exactly-once: the engine processes again the records of an attempt that failed before its
     * commit; what that attempt wrote is dropped. Without exactly-once it is in the database already.
     */
    public void dropUncommittedWrites() {
        if (commits != null) {
            commits.dropUncommitted();
        }
    }

    /** exactly-once: checkpoint {@code checkpointId} completed; its writes and those before it are committed. */
    public void commitUpTo(long checkpointId) {
        requireCommits();
        try {
            commits.commitUpTo(checkpointId);
        } catch (RuntimeException e) {
            failedCall(Operation.UPDATE, "the commit of checkpoint " + checkpointId, e);
            throw e;
        }
    }

    /** exactly-once: the engine restored checkpoint {@code checkpointId}, which held {@code state} ({@link #sealEpoch}). */
    public void restoreEpochs(long checkpointId, byte[] state) {
        requireCommits();
        try {
            commits.restore(checkpointId, state);
        } catch (RuntimeException e) {
            failedCall(Operation.UPDATE, "the commit of restored checkpoint " + checkpointId, e);
            throw e;
        }
    }

    private void requireCommits() {
        if (commits == null) {
            throw new IllegalStateException("checkpointed commits are for exactly-once only");
        }
    }

    /** Times a write call; with exactly-once the write only joins its epoch, and the epoch's commit is timed instead. */
    private void writeCall(long nanos) {
        if (commits == null) {
            metrics.recordWriteCall(nanos);
        }
    }

    /** Counts a record processed: now, or with exactly-once when its epoch is committed. */
    private void processed(Operation op, long intendedEpochNanos) {
        processedSinceSnapshot.set(true);
        if (commits != null) {
            commits.processed(op, intendedEpochNanos);
        } else {
            metrics.processed(op, intendedEpochNanos);
        }
    }

    /** How this operator calls the database. */
    public AccessMode access() {
        return access;
    }

    /**
     * Takes one record in the operator's access mode: processes it now (sync), adds it to the
     * pending batch and sends the batch when it is full (batch), or starts its calls and returns
     * while they are in flight (async). Engines that have an idiom of their own for a mode call
     * {@link #process}, {@link #processBatch} or {@link #processAsync} directly instead.
     */
    public void accept(TimedRecord timed) {
        faultCheck.run();
        switch (access.kind()) {
            case SYNC -> process(timed);
            case BATCH -> {
                pending.add(timed);
                pendingSince.add(System.nanoTime());
                if (pending.size() >= access.size()) {
                    flushBatch();
                }
            }
            case ASYNC -> {
                throwAsyncFailure();
                // its outcome reaches the run through failed() and the metrics; flush() waits for it
                CompletableFuture<Void> unused = processAsync(timed);
            }
        }
    }

    /** batch mode: sends the pending batch if its oldest record has waited for its linger; true if it did. */
    public boolean flushIfLingered() {
        if (!pending.isEmpty()
                && System.nanoTime() - pendingSince.get(0) >= TimeUnit.MILLISECONDS.toNanos(access.lingerMillis())) {
            flushBatch();
            return true;
        }
        return false;
    }

    /** Sends what is pending and waits for every call in flight: at the end of a window, a partition, the input. */
    public void flush() {
        flushBatch();
        awaitInFlight();
    }

    private void flushBatch() {
        if (pending.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        for (long since : pendingSince) {
            metrics.recordBatchWait(now - since);
        }
        List<TimedRecord> batch = new ArrayList<>(pending);
        pending.clear();
        pendingSince.clear();
        processBatch(batch);
    }

    /**
     * Processes {@code batch} as {@link #process} would process its records one after the other,
     * in two round trips: one read of every key that reads ({@link Database#readAll}), then one
     * write of every record that writes ({@link Database#writeAll}), a key written twice in the
     * batch written once with its final value. Each record counts as processed when the batch's
     * write was acknowledged; the read round trip is timed once per batch.
     */
    public void processBatch(List<TimedRecord> batch) {
        faultCheck.run();
        if (batch.isEmpty()) {
            return;
        }
        Operation op = pattern == Pattern.INSERT ? Operation.INSERT : Operation.READ;
        String key = batch.get(0).record().id();
        try {
            Map<String, StoredRecord> current = new HashMap<>();
            if (pattern != Pattern.INSERT) {
                Set<String> ids = new LinkedHashSet<>();
                batch.forEach(timed -> ids.add(timed.record().id()));
                current.putAll(timedReadAll(ids));
            }
            Map<String, Database.Write> writes = new LinkedHashMap<>();
            List<Operation> ops = new ArrayList<>(batch.size());
            for (TimedRecord timed : batch) {
                SensorRecord record = timed.record();
                key = record.id();
                StoredRecord previous = current.get(record.id());
                if (pattern == Pattern.INSERT) {
                    op = Operation.INSERT;
                    writes.put(record.id(), new Database.Write(record, blobs.forKey(record.id()), true));
                } else if (pattern == Pattern.READ) {
                    op = Operation.READ;
                    require(Optional.ofNullable(previous), record);
                } else if (previous != null && Keys.isExisting(record.id())) {
                    op = Operation.UPDATE;
                    SensorRecord sum = previous.record().plus(record);
                    byte[] blob = blobs.forKey(record.id());
                    Database.Write earlier = writes.get(record.id());
                    writes.put(record.id(), new Database.Write(sum, blob, earlier != null && earlier.insert()));
                    current.put(record.id(), new StoredRecord(sum, blob));
                } else if (pattern == Pattern.MIXED) {
                    op = Operation.INSERT;
                    byte[] blob = blobs.forKey(record.id());
                    writes.put(record.id(), new Database.Write(record, blob, true));
                    current.put(record.id(), new StoredRecord(record, blob));
                } else {
                    op = Operation.UPDATE;
                    require(Optional.empty(), record);
                }
                ops.add(op);
            }
            if (!writes.isEmpty()) {
                op = pattern == Pattern.INSERT ? Operation.INSERT : Operation.UPDATE;
                long start = System.nanoTime();
                database.writeAll(List.copyOf(writes.values()));
                writeCall(System.nanoTime() - start);
            }
            for (int i = 0; i < batch.size(); i++) {
                processed(ops.get(i), batch.get(i).intendedEpochNanos());
            }
        } catch (RuntimeException e) {
            failedCall(op, op.label() + " of a batch of " + batch.size() + " records, key " + key + " among them", e);
        }
    }

    private Map<String, StoredRecord> timedReadAll(Collection<String> ids) {
        long start = System.nanoTime();
        Map<String, StoredRecord> found;
        try {
            found = database.readAll(ids);
        } catch (RuntimeException e) {
            metrics.recordRead(System.nanoTime() - start, OperatorMetrics.ReadResult.FAILED);
            throw e;
        }
        metrics.recordRead(
                System.nanoTime() - start,
                found.isEmpty() ? OperatorMetrics.ReadResult.MISS : OperatorMetrics.ReadResult.HIT);
        return found;
    }

    /**
     * Starts the calls of one record and returns at once, at most {@code K} records in flight (the
     * caller waits for a place); a record whose key has a call in flight starts when that one is
     * done, so no read overtakes a pending write. The future completes when the record's last call
     * was acknowledged; a failure fails the run as a synchronous call's would.
     */
    public CompletableFuture<Void> processAsync(TimedRecord timed) {
        faultCheck.run();
        String id = timed.record().id();
        try {
            inFlight.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        CompletableFuture<Void> before = lastByKey.put(id, done);
        // the chain's own outcome is passed on to done, which the caller gets
        CompletableFuture<Void> unused = (before == null ? CompletableFuture.<Void>completedFuture(null) : before)
                .handle((ignored, earlierFailure) -> null)
                .thenCompose(ignored -> startAsync(timed))
                .whenComplete((ignored, failure) -> {
                    lastByKey.remove(id, done);
                    inFlight.release();
                    if (failure != null) {
                        done.completeExceptionally(failure);
                    } else {
                        done.complete(null);
                    }
                });
        return done;
    }

    private CompletableFuture<Void> startAsync(TimedRecord timed) {
        SensorRecord record = timed.record();
        long intended = timed.intendedEpochNanos();
        if (pattern == Pattern.INSERT) {
            return timedWrite(new Database.Write(record, blobs.forKey(record.id()), true))
                    .thenRun(() -> processed(Operation.INSERT, intended))
                    .exceptionally(e -> failed(Operation.INSERT, record, e));
        }
        long readStart = System.nanoTime();
        return readAsync(record.id())
                .handle((found, e) -> {
                    metrics.recordRead(
                            System.nanoTime() - readStart,
                            e != null
                                    ? OperatorMetrics.ReadResult.FAILED
                                    : found.isPresent()
                                            ? OperatorMetrics.ReadResult.HIT
                                            : OperatorMetrics.ReadResult.MISS);
                    if (e != null) {
                        throw new CompletionException(e);
                    }
                    return found;
                })
                .thenCompose(previous -> {
                    if (pattern == Pattern.READ) {
                        require(previous, record);
                        processed(Operation.READ, intended);
                        return CompletableFuture.<Void>completedFuture(null);
                    }
                    if (previous.isPresent() && Keys.isExisting(record.id())) {
                        return timedWrite(new Database.Write(
                                        previous.get().record().plus(record), blobs.forKey(record.id()), false))
                                .thenRun(() -> processed(Operation.UPDATE, intended));
                    }
                    if (pattern == Pattern.MIXED) {
                        return timedWrite(new Database.Write(record, blobs.forKey(record.id()), true))
                                .thenRun(() -> processed(Operation.INSERT, intended));
                    }
                    require(previous, record);
                    return CompletableFuture.<Void>completedFuture(null);
                })
                .exceptionally(e -> failed(pattern == Pattern.READ ? Operation.READ : Operation.UPDATE, record, e));
    }

    private CompletableFuture<Optional<StoredRecord>> readAsync(String id) {
        return sessions == null ? database.readAsync(id) : sessions.read(id);
    }

    private CompletableFuture<Void> timedWrite(Database.Write write) {
        long start = System.nanoTime();
        CompletableFuture<Void> written = sessions == null ? database.writeAsync(write) : sessions.write(write);
        return written.thenRun(() -> writeCall(System.nanoTime() - start));
    }

    private Void failed(Operation op, SensorRecord record, Throwable failure) {
        Throwable cause =
                failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        RuntimeException e = cause instanceof RuntimeException runtime ? runtime : new IllegalStateException(cause);
        if (engineRecovers) {
            asyncFailure.compareAndSet(null, e);
        }
        failedCall(op, op.label() + " of key " + record.id(), e);
        return null;
    }

    /** Under a guarantee, an asynchronous call that failed fails the engine's task at its next record or flush. */
    private void throwAsyncFailure() {
        RuntimeException failure = asyncFailure.get();
        if (failure != null) {
            throw failure;
        }
    }

    /** async mode: waits until no call is in flight (the records taken so far are all acknowledged or failed). */
    public void awaitInFlight() {
        for (CompletableFuture<Void> call : List.copyOf(lastByKey.values())) {
            try {
                call.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (ExecutionException failedAndReported) {
                // failed() has reported it and failed the run, or under a guarantee kept it for below
            }
        }
        if (!lastByKey.isEmpty()) {
            awaitInFlight();
        }
        throwAsyncFailure();
    }

    public void process(TimedRecord timed) {
        faultCheck.run();
        SensorRecord record = timed.record();
        long intended = timed.intendedEpochNanos();
        Operation op = pattern == Pattern.INSERT ? Operation.INSERT : Operation.READ;
        try {
            if (op == Operation.INSERT) {
                long start = System.nanoTime();
                database.insert(record, blobs.forKey(record.id()));
                writeCall(System.nanoTime() - start);
                processed(op, intended);
                return;
            }
            Optional<StoredRecord> previous = timedRead(record.id());
            if (pattern == Pattern.READ) {
                require(previous, record);
                processed(op, intended);
            } else if (previous.isPresent() && Keys.isExisting(record.id())) {
                op = Operation.UPDATE;
                long start = System.nanoTime();
                database.update(previous.get().record().plus(record), blobs.forKey(record.id()));
                writeCall(System.nanoTime() - start);
                processed(op, intended);
            } else if (pattern == Pattern.MIXED) {
                op = Operation.INSERT;
                long start = System.nanoTime();
                database.insert(record, blobs.forKey(record.id()));
                writeCall(System.nanoTime() - start);
                processed(op, intended);
            } else {
                require(previous, record);
            }
        } catch (RuntimeException e) {
            failedCall(op, op.label() + " of key " + record.id(), e);
        }
    }

    /**
     * A database call failed ({@code what}). Under a guarantee the engine recovers: the failure is
     * thrown to it, and it restarts the task from its last checkpoint, which processes the record
     * again (also when the engine itself interrupted the call to cancel the task, as a restart does).
     * Without a guarantee the failure is counted and fails the run.
     */
    private void failedCall(Operation op, String what, RuntimeException e) {
        String reason = "a database call failed (" + what + "): " + e;
        if (engineRecovers) {
            taskFailed.accept(reason);
            throw e;
        }
        metrics.error(op, e);
        failRun.accept(reason);
    }

    /** A read of the database, timed; with exactly-once a key's own write not committed yet is read instead, untimed. */
    private Optional<StoredRecord> timedRead(String id) {
        if (commits != null) {
            Optional<StoredRecord> own = commits.ownWrite(id);
            if (own.isPresent()) {
                return own;
            }
        }
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

    /** Closes the connections without sending what is pending: after a failure, which the engine recovers from. */
    public void abandon() {
        pending.clear();
        pendingSince.clear();
        try {
            if (sessions != null) {
                sessions.close();
            }
        } finally {
            try {
                database.close();
            } catch (RuntimeException brokenAlready) {
                // the failure that led here may have broken the connection
            }
        }
    }

    @Override
    public void close() {
        try {
            flush();
        } finally {
            if (sessions != null) {
                sessions.close();
            }
            database.close();
        }
    }
}
