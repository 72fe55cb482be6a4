package org.streambench.operators;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.LongFunction;
import org.streambench.db.Database;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.StoredRecord;
import org.streambench.generator.SensorRecord;
import org.streambench.generator.TimedRecord;

/**
 * Exactly-once on a database with transactions ({@link Database#commitsEpochs}): the processing
 * operator's writes reach the database only when the engine's checkpoint that holds them has
 * completed, in one transaction together with that checkpoint's id. Until then they wait here, a
 * read sees them before the database (the operator reads before it writes), and the checkpoint
 * holds them ({@link #seal}, {@link #state}). After a failure the engine restores the last
 * completed checkpoint and replays what came after it; what that checkpoint held is committed on
 * restore ({@link #restore}), and the database skips it if its commit got in before the failure.
 *
 * <p>A record counts as processed when its epoch is committed: that is when its effect becomes
 * visible, and a replayed record is counted once.
 */
final class CommitOnCheckpoint implements Database {

    private final Database database;
    private final String sink;
    private final Blob.Pool blobs;
    private final OperatorMetrics metrics;
    /** The writes since the last checkpoint. */
    private Epoch open = new Epoch();
    /** The writes of checkpoints taken but not known to be complete, by checkpoint id. */
    private final NavigableMap<Long, Epoch> sealed = new TreeMap<>();

    /** One checkpoint's writes (a key's latest), and each of its records' operation and intended time. */
    private static final class Epoch {
        final Map<String, Write> writes = new LinkedHashMap<>();
        final List<Operation> operations = new ArrayList<>();
        final List<Long> intendedEpochNanos = new ArrayList<>();
    }

    CommitOnCheckpoint(Database database, String sink, Blob.Pool blobs, OperatorMetrics metrics) {
        this.database = database;
        this.sink = sink;
        this.blobs = blobs;
        this.metrics = metrics;
    }

    /** Counts the record as processed when its epoch is committed. */
    void processed(Operation op, long intendedEpochNanos) {
        open.operations.add(op);
        open.intendedEpochNanos.add(intendedEpochNanos);
        metrics.awaitingCommit(1);
    }

    /** Drops every write not committed: the engine processes their records again. */
    void dropUncommitted() {
        metrics.awaitingCommit(-open.operations.size());
        sealed.values().forEach(epoch -> metrics.awaitingCommit(-epoch.operations.size()));
        open = new Epoch();
        sealed.clear();
    }

    /** The engine takes checkpoint {@code checkpointId}: what came since the last one belongs to it. */
    void seal(long checkpointId) {
        if (!open.operations.isEmpty()) {
            sealed.put(checkpointId, open);
            open = new Epoch();
        }
    }

    /**
     * Checkpoint {@code checkpointId} completed: every sealed epoch up to it goes to the database,
     * each in a transaction of its own with its checkpoint's id, oldest first. A restored checkpoint
     * can hold an epoch whose commit got in before the failure (the checkpoint was taken before the
     * earlier one's notification): the database skips that one alone. Returns the records it
     * counted as processed.
     */
    int commitUpTo(long checkpointId) {
        int counted = 0;
        for (Iterator<Map.Entry<Long, Epoch>> complete =
                        sealed.headMap(checkpointId, true).entrySet().iterator();
                complete.hasNext(); ) {
            Map.Entry<Long, Epoch> entry = complete.next();
            Epoch epoch = entry.getValue();
            long start = System.nanoTime();
            boolean committed = database.commitEpoch(sink, entry.getKey(), List.copyOf(epoch.writes.values()));
            metrics.recordWriteCall(System.nanoTime() - start);
            if (committed) {
                for (int i = 0; i < epoch.operations.size(); i++) {
                    metrics.processed(epoch.operations.get(i), epoch.intendedEpochNanos.get(i));
                }
                counted += epoch.operations.size();
            }
            metrics.awaitingCommit(-epoch.operations.size());
            complete.remove();
        }
        return counted;
    }

    /**
     * The sealed epochs, for the engine's checkpoint: each key's write and the epoch's records per
     * operation. A BLOB is not kept (it is a function of the key), nor the records' intended times:
     * the few epochs a restore commits count their records without a latency.
     */
    byte[] state() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(sealed.size());
            for (Map.Entry<Long, Epoch> entry : sealed.entrySet()) {
                Epoch epoch = entry.getValue();
                out.writeLong(entry.getKey());
                out.writeInt(epoch.writes.size());
                for (Write write : epoch.writes.values()) {
                    TimedRecord.of(write.record(), TimedRecord.UNTIMED).writeTo(out);
                    out.writeBoolean(write.insert());
                }
                Map<Operation, Integer> counts = new EnumMap<>(Operation.class);
                epoch.operations.forEach(op -> counts.merge(op, 1, Integer::sum));
                out.writeInt(counts.size());
                for (Map.Entry<Operation, Integer> count : counts.entrySet()) {
                    out.writeUTF(count.getKey().name());
                    out.writeInt(count.getValue());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * The engine restored checkpoint {@code checkpointId}, which held {@code state}: it completed,
     * so its epochs are committed now (the database skips them if they were before the failure).
     */
    int restore(long checkpointId, byte[] state) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(state))) {
            int epochs = in.readInt();
            for (int e = 0; e < epochs; e++) {
                Epoch epoch = new Epoch();
                long id = in.readLong();
                int writes = in.readInt();
                for (int w = 0; w < writes; w++) {
                    SensorRecord record = TimedRecord.readFrom(in).record();
                    epoch.writes.put(record.id(), new Write(record, blobs.forKey(record.id()), in.readBoolean()));
                }
                int operations = in.readInt();
                for (int o = 0; o < operations; o++) {
                    Operation op = Operation.valueOf(in.readUTF());
                    int records = in.readInt();
                    for (int r = 0; r < records; r++) {
                        epoch.operations.add(op);
                        epoch.intendedEpochNanos.add(TimedRecord.UNTIMED);
                    }
                    metrics.awaitingCommit(records);
                }
                sealed.put(id, epoch);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return commitUpTo(checkpointId);
    }

    /** The latest write of {@code id} not committed yet, or null. */
    private Write pending(String id) {
        Write write = open.writes.get(id);
        if (write != null) {
            return write;
        }
        for (Epoch epoch : sealed.descendingMap().values()) {
            write = epoch.writes.get(id);
            if (write != null) {
                return write;
            }
        }
        return null;
    }

    /** The latest write of {@code id} not committed yet, as a read would return it; empty if there is none. */
    Optional<StoredRecord> ownWrite(String id) {
        Write write = pending(id);
        return write != null ? Optional.of(new StoredRecord(write.record(), write.blob())) : Optional.empty();
    }

    @Override
    public Optional<StoredRecord> read(String id) {
        Optional<StoredRecord> own = ownWrite(id);
        return own.isPresent() ? own : database.read(id);
    }

    @Override
    public Map<String, StoredRecord> readAll(Collection<String> ids) {
        Map<String, StoredRecord> found = new HashMap<>();
        List<String> unwritten = new ArrayList<>();
        for (String id : ids) {
            Write write = pending(id);
            if (write != null) {
                found.put(id, new StoredRecord(write.record(), write.blob()));
            } else {
                unwritten.add(id);
            }
        }
        if (!unwritten.isEmpty()) {
            found.putAll(database.readAll(unwritten));
        }
        return found;
    }

    @Override
    public void insert(SensorRecord record, byte[] blob) {
        open.writes.put(record.id(), new Write(record, blob, true));
    }

    /** An update of a key inserted in this epoch stays an insert: the database has not seen the key yet. */
    @Override
    public void update(SensorRecord record, byte[] blob) {
        Write earlier = open.writes.get(record.id());
        open.writes.put(record.id(), new Write(record, blob, earlier != null && earlier.insert()));
    }

    @Override
    public void writeAll(List<Write> writes) {
        for (Write write : writes) {
            if (write.insert()) {
                insert(write.record(), write.blob());
            } else {
                update(write.record(), write.blob());
            }
        }
    }

    @Override
    public void open(DatabaseSettings settings) {
        database.open(settings);
    }

    @Override
    public void resetSchema() {
        database.resetSchema();
    }

    @Override
    public void prefill(long count, LongFunction<SensorRecord> recordAt, LongFunction<byte[]> blobAt) {
        database.prefill(count, recordAt, blobAt);
    }

    @Override
    public void prepareStatements() {
        database.prepareStatements();
    }

    @Override
    public long countRows() {
        return database.countRows();
    }

    @Override
    public long countBlobsNotOfLength(int length) {
        return database.countBlobsNotOfLength(length);
    }

    @Override
    public String serverVersion() {
        return database.serverVersion();
    }

    /** What this instance still held waits for it no longer: a restored instance commits it, or the replay redoes it. */
    @Override
    public void close() {
        dropUncommitted();
        database.close();
    }
}
