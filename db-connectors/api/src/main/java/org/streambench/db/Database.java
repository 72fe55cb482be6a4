package org.streambench.db;

import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;
import org.streambench.generator.SensorRecord;

/**
 * A database under test, seen from its client: the whole contract a connector fulfils.
 * Like YCSB's {@code DB}, a connector never times or counts its own calls; the processing
 * operator does that in one place. One instance is used by one thread at a time.
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
     * A warning that belongs next to every number measured against this server (e.g. it only
     * emulates the database), or null.
     */
    default String serverCaveat() {
        return null;
    }

    @Override
    void close();
}
