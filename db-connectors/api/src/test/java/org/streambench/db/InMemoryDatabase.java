package org.streambench.db;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;
import org.streambench.generator.SensorRecord;

/**
 * A database in a map, for unit tests of what calls a connector: rows by id, the calls as
 * {@link DatabaseContract} holds a connector to them (a duplicate insert or an update of a missing
 * key fails), and epoch commits. Not a connector, and never a stand-in for a database under test:
 * connectors are held to the contract on their real servers, and the runs that use these calls
 * (GuaranteesTest) run against real servers too.
 */
public class InMemoryDatabase implements Database {

    private final Map<String, StoredRecord> rows = new HashMap<>();
    private final Map<String, Long> epochs = new HashMap<>();
    private final List<Long> commits = new ArrayList<>();

    /** The stored records by id, for a test to look at or change directly. */
    public Map<String, StoredRecord> rows() {
        return rows;
    }

    /** The epochs committed, in order, of every sink. */
    public List<Long> commits() {
        return commits;
    }

    @Override
    public Optional<StoredRecord> read(String id) {
        return Optional.ofNullable(rows.get(id));
    }

    @Override
    public void insert(SensorRecord record, byte[] blob) {
        if (rows.containsKey(record.id())) {
            throw new DatabaseException("in memory: duplicate key " + record.id());
        }
        rows.put(record.id(), new StoredRecord(record, blob));
    }

    @Override
    public void update(SensorRecord record, byte[] blob) {
        if (!rows.containsKey(record.id())) {
            throw new DatabaseException("in memory: no key " + record.id() + " to update");
        }
        rows.put(record.id(), new StoredRecord(record, blob));
    }

    @Override
    public boolean commitsEpochs() {
        return true;
    }

    /** All or nothing, as a transaction: every write is checked before any is stored. */
    @Override
    public boolean commitEpoch(String sink, long epoch, List<Write> writes) {
        if (epochs.getOrDefault(sink, -1L) >= epoch) {
            return false;
        }
        for (Write write : writes) {
            if (write.insert() == rows.containsKey(write.record().id())) {
                throw new DatabaseException("in memory: " + (write.insert() ? "duplicate key " : "no key ")
                        + write.record().id());
            }
        }
        writes.forEach(write -> rows.put(write.record().id(), new StoredRecord(write.record(), write.blob())));
        epochs.put(sink, epoch);
        commits.add(epoch);
        return true;
    }

    @Override
    public void open(DatabaseSettings settings) {}

    @Override
    public void resetSchema() {
        rows.clear();
        epochs.clear();
        commits.clear();
    }

    @Override
    public void prefill(long count, LongFunction<SensorRecord> recordAt, LongFunction<byte[]> blobAt) {
        for (long i = 0; i < count; i++) {
            SensorRecord record = recordAt.apply(i);
            rows.put(record.id(), new StoredRecord(record, blobAt.apply(i)));
        }
    }

    @Override
    public long countRows() {
        return rows.size();
    }

    @Override
    public long countBlobsNotOfLength(int length) {
        return rows.values().stream().filter(row -> row.blob().length != length).count();
    }

    @Override
    public String serverVersion() {
        return "in memory";
    }

    @Override
    public void close() {}
}
