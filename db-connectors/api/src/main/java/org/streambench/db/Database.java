package org.streambench.db;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;
import org.streambench.generator.SensorRecord;

/**
 * A database under test, seen from its client: the whole contract a connector fulfils.
 * Like YCSB's {@code DB}, a connector never times or counts its own calls; the processing
 * operator does that in one place. One instance is used by one thread at a time; the calls of an
 * access mode beyond one synchronous call per record (batches, asynchronous calls) have defaults
 * that fall back to the single calls, so a new connector works in every mode before it is optimised.
 */
public interface Database extends AutoCloseable {

    /** Connects; throws {@link DatabaseException} with a message that says how to fix it. */
    void open(DatabaseSettings settings);

    /** Drops whatever the suite stored and creates an empty schema. */
    void resetSchema();

    /**
     * Stores {@code count} records, {@code recordAt.apply(i)} for i in [0, count), each with
     * {@code blobAt.apply(i)} (BLOBs of one length), by the fastest path the database offers. Not measured.
     */
    void prefill(long count, LongFunction<SensorRecord> recordAt, LongFunction<byte[]> blobAt);

    /**
     * Makes the server write out what the reset and prefill left in memory and logs (a checkpoint,
     * a flush), so every measured window starts from the same state and is not charged for that
     * background work. Returns what was done, for the result file. Not measured.
     */
    default String settle() {
        return "nothing to settle";
    }

    /**
     * Prepares what the read, insert and update calls use (prepared statements), so the first
     * timed call of a run does not pay for it. The processing operator calls it once the schema
     * exists, before its first call; a connector that prepares nothing keeps the default.
     */
    default void prepareStatements() {}

    Optional<StoredRecord> read(String id);

    /**
     * Stores a record whose key does not exist yet. A duplicate key is an error (a
     * {@link DatabaseException}) unless {@link #writesAreUpserts()}: then the record overwrites the one stored.
     */
    void insert(SensorRecord record, byte[] blob);

    /**
     * Overwrites the record stored under {@code record.id()}. A missing key is an error (a
     * {@link DatabaseException}) unless {@link #writesAreUpserts()}: then the record is stored.
     */
    void update(SensorRecord record, byte[] blob);

    /**
     * True where every write is an upsert (Cassandra, HBase): checking a key's state before writing
     * would add a read to every write, so such a connector does not check. The benchmark never
     * inserts a key twice nor updates a key it has not read, and verification counts the rows, so
     * results are the same either way; a connector says which it is, and a test holds it to that.
     */
    default boolean writesAreUpserts() {
        return false;
    }

    /**
     * Makes this session's inserts upserts: at-least-once replays, after a recovery, inserts whose
     * first attempt reached the database, and such a replay must overwrite its own row with the same
     * values instead of failing on a duplicate key (an upsert sink, the idiom Flink's JDBC connector
     * offers for at-least-once). May be called before {@link #open}, and is before
     * {@link #prepareStatements()}. Returns false, changing nothing, where the connector cannot; a
     * connector whose writes are upserts already has nothing to change.
     */
    default boolean upsertInserts() {
        return writesAreUpserts();
    }

    /** One write of a batch: an insert of a key not stored yet, or an update of a stored one. */
    @SuppressWarnings("ArrayRecordComponent")
    record Write(SensorRecord record, byte[] blob, boolean insert) {}

    /**
     * Reads the records stored under {@code ids} in as few round trips as the database allows (one
     * query for the batch); the map holds the ids found. The default reads one id after the other,
     * so a connector works in batch mode before it is optimised.
     */
    default Map<String, StoredRecord> readAll(Collection<String> ids) {
        Map<String, StoredRecord> found = new HashMap<>();
        for (String id : ids) {
            read(id).ifPresent(stored -> found.put(id, stored));
        }
        return found;
    }

    /**
     * Stores {@code writes} (each key at most once) as one batch: one round trip, one transaction,
     * where the database has them; acknowledged when this returns. The default writes one after the other.
     */
    default void writeAll(List<Write> writes) {
        for (Write write : writes) {
            if (write.insert()) {
                insert(write.record(), write.blob());
            } else {
                update(write.record(), write.blob());
            }
        }
    }

    /**
     * Whether {@link #commitEpoch} is built: the database has transactions that can hold a batch of
     * writes together with the epoch they belong to, or upserts of whole values that a mark of the
     * epoch can follow ({@link MarkedEpochCommit}). An engine needs it for exactly-once.
     */
    default boolean commitsEpochs() {
        return false;
    }

    /**
     * Exactly-once's commit: stores {@code writes} (as {@link #writeAll}) and records that
     * {@code sink} committed {@code epoch}, in one transaction (or as {@link MarkedEpochCommit}
     * does). If the sink already committed this epoch or a later one, it stores nothing and returns
     * false, so a commit repeated after a recovery is not applied twice. {@link #resetSchema}
     * forgets every sink's epoch. Only where
     * {@link #commitsEpochs}.
     */
    default boolean commitEpoch(String sink, long epoch, List<Write> writes) {
        throw new UnsupportedOperationException("this connector has no transactions to commit an epoch in");
    }

    /**
     * Whether {@link #readAsync} and {@link #writeAsync} overlap calls on this one connection (the
     * driver has asynchronous calls). When false, the default, the operator runs async:K on K
     * connections of its own, one call in flight on each.
     */
    default boolean asynchronous() {
        return false;
    }

    /** A read that completes when the database answers; the default reads now, on the caller's thread. */
    default CompletableFuture<Optional<StoredRecord>> readAsync(String id) {
        try {
            return CompletableFuture.completedFuture(read(id));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** A write that completes when the database acknowledged it; the default writes now, on the caller's thread. */
    default CompletableFuture<Void> writeAsync(Write write) {
        try {
            writeAll(List.of(write));
            return CompletableFuture.completedFuture(null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    long countRows();

    /** How many stored records carry a BLOB whose length is not {@code length}. */
    long countBlobsNotOfLength(int length);

    /** Product and version of the server, as the server reports them. */
    String serverVersion();

    /**
     * The settings that decide when a write is durable, as they are in force: read from the server
     * where it tells them (fsync, commit-log sync, WAL durability), and the connector's own choices
     * (consistency level, write concern). Recorded with every result, so runs are compared knowing
     * what each database promised when it acknowledged a write.
     */
    default Map<String, String> durabilitySettings() {
        return Map.of();
    }

    /**
     * The server's own cumulative counters of the work it did (WAL bytes written, commits, pages
     * read), by the server's names, as it reports them now; the runner records how much each grew
     * over a run's measured window. Empty where the connector reads none.
     */
    default Map<String, Long> serverCounters() {
        return Map.of();
    }

    /**
     * A warning that belongs next to every number measured against this server (e.g. it only
     * emulates the database), or null.
     */
    default String serverCaveat() {
        return null;
    }

    @Override
    void close();
}
