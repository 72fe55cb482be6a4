package org.streambench.db.kv;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import org.streambench.db.Database;
import org.streambench.db.DatabaseException;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.RecordBytes;
import org.streambench.db.StoredRecord;
import org.streambench.generator.SensorRecord;

/**
 * A store of {@code String} keys and {@code byte[]} values reached through a client with get, put,
 * their batch and asynchronous forms: the key is the record id, the value {@link RecordBytes}, so no
 * class of the suite's is needed on the servers. Writes are puts, upserts (see {@link
 * Database#writesAreUpserts}); a batch is one getAll or putAll. A subclass opens its client and
 * maps these calls onto it; this class does the rest of {@link Database}, the same for every such store.
 */
public abstract class KeyValueDatabase implements Database {

    /** About how many bytes of values one batch of a prefill or a scan carries. */
    protected static final long BATCH_BYTES = 8L << 20;

    private final String name;

    /** {@code name}: the database's, as errors name it. */
    protected KeyValueDatabase(String name) {
        this.name = name;
    }

    /** Removes every entry. */
    protected abstract void clear();

    /** The value of {@code id}, or null. */
    protected abstract byte[] get(String id);

    /** The values of those of {@code ids} that exist. */
    protected abstract Map<String, byte[]> getAll(Set<String> ids);

    protected abstract void put(String id, byte[] value);

    protected abstract void putAll(Map<String, byte[]> entries);

    /** The value of {@code id}, or null, when it comes. */
    protected abstract CompletionStage<byte[]> getAsync(String id);

    protected abstract CompletionStage<Void> putAsync(String id, byte[] value);

    /** The number of entries. */
    protected abstract long size();

    /** Hands every stored value to {@code action}, fetching about {@code valuesPerBatch} at a time. */
    protected abstract void forEachValue(int valuesPerBatch, Consumer<byte[]> action);

    /** Whether {@code e} is a failure of the store's client (a {@link DatabaseException} then), not a bug. */
    protected abstract boolean isClientFailure(RuntimeException e);

    @Override
    public void resetSchema() {
        call("reset the schema", this::clear);
    }

    @Override
    public void prefill(long count, LongFunction<SensorRecord> recordAt, LongFunction<byte[]> blobAt) {
        long perBatch = Math.max(1, BATCH_BYTES / Math.max(1, blobAt.apply(0).length));
        Map<String, byte[]> batch = new HashMap<>();
        call("prefill " + count + " keys", () -> {
            for (long i = 0; i < count; i++) {
                SensorRecord record = recordAt.apply(i);
                batch.put(record.id(), RecordBytes.encode(record, blobAt.apply(i)));
                if (batch.size() == perBatch || i == count - 1) {
                    putAll(batch);
                    batch.clear();
                }
            }
        });
    }

    @Override
    public Optional<StoredRecord> read(String id) {
        return call("read " + id, () -> Optional.ofNullable(get(id)).map(value -> RecordBytes.decode(id, value)));
    }

    @Override
    public Map<String, StoredRecord> readAll(Collection<String> ids) {
        return call("read a batch of " + ids.size() + " keys", () -> {
            Map<String, StoredRecord> found = new HashMap<>();
            getAll(new HashSet<>(ids)).forEach((id, value) -> found.put(id, RecordBytes.decode(id, value)));
            return found;
        });
    }

    @Override
    public void insert(SensorRecord record, byte[] blob) {
        write(record, blob, "insert");
    }

    @Override
    public void update(SensorRecord record, byte[] blob) {
        write(record, blob, "update");
    }

    private void write(SensorRecord record, byte[] blob, String what) {
        call(what + " " + record.id(), () -> put(record.id(), RecordBytes.encode(record, blob)));
    }

    @Override
    public boolean writesAreUpserts() {
        return true;
    }

    /** One putAll: the entries go to their owners together (not one transaction). */
    @Override
    public void writeAll(List<Write> writes) {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        for (Write write : writes) {
            entries.put(write.record().id(), RecordBytes.encode(write.record(), write.blob()));
        }
        call("write a batch of " + writes.size() + " records", () -> putAll(entries));
    }

    @Override
    public boolean asynchronous() {
        return true;
    }

    @Override
    public CompletableFuture<Optional<StoredRecord>> readAsync(String id) {
        return getAsync(id)
                .thenApply(value -> Optional.ofNullable(value).map(found -> RecordBytes.decode(id, found)))
                .toCompletableFuture();
    }

    @Override
    public CompletableFuture<Void> writeAsync(Write write) {
        return putAsync(write.record().id(), RecordBytes.encode(write.record(), write.blob()))
                .toCompletableFuture();
    }

    @Override
    public long countRows() {
        return call("count entries", this::size);
    }

    /** Reads every value, a few MB at a time (a length check on the servers would need the suite's classes there). */
    @Override
    public long countBlobsNotOfLength(int length) {
        int perBatch = (int) Math.max(1, Math.min(10_000, BATCH_BYTES / Math.max(1, length)));
        long[] wrong = {0};
        call("check the BLOB lengths", () -> {
            forEachValue(perBatch, value -> {
                if (RecordBytes.blobLength(value) != length) {
                    wrong[0]++;
                }
            });
        });
        return wrong[0];
    }

    /** Runs {@code call}; a failure of the client as a one-line {@link DatabaseException} saying what failed. */
    protected final void call(String what, Runnable call) {
        call(what, () -> {
            call.run();
            return null;
        });
    }

    /** {@code call}'s result; a failure of the client as a one-line {@link DatabaseException} saying what failed. */
    protected final <T> T call(String what, Supplier<T> call) {
        try {
            return call.get();
        } catch (RuntimeException e) {
            if (e instanceof DatabaseException || !isClientFailure(e)) {
                throw e;
            }
            throw new DatabaseException(name + ": could not " + what + ": " + DatabaseException.firstLine(e), e);
        }
    }

    /** {@code url} as a URI of scheme {@code scheme} with a host, or a one-line error saying the form. */
    public static URI uri(String scheme, String url) {
        String form = scheme + ": url '" + url + "' must be " + scheme + "://host:port";
        try {
            URI uri = new URI(url);
            if (!scheme.equals(uri.getScheme()) || uri.getHost() == null) {
                throw new DatabaseException(form);
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new DatabaseException(form, e);
        }
    }

    /** The {@code table} setting (default sensor_records), which names the store's {@code what} (map, cache). */
    public static String table(String name, String what, DatabaseSettings settings) {
        String table = settings.get("table", "sensor_records");
        if (!table.matches("[A-Za-z0-9_.-]+")) {
            throw new DatabaseException(
                    name + ": table '" + table + "' is the " + what + "'s name: letters, digits, '_', '.', '-' only");
        }
        return table;
    }
}
