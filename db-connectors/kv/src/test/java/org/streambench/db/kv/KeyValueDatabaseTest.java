package org.streambench.db.kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.streambench.db.Database;
import org.streambench.db.DatabaseException;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.StoredRecord;
import org.streambench.generator.SensorRecord;

/**
 * What the base does for every key-value store, on a map in memory: batches sized by bytes, BLOB
 * lengths checked across batches, a client's failure as one line naming the store and the call,
 * anything else as it was thrown.
 */
class KeyValueDatabaseTest {

    @Test
    void aPrefillPutsBatchesOfAboutEightMegabytes() {
        InMemory store = new InMemory();
        store.prefill(200, KeyValueDatabaseTest::record, i -> new byte[100_000]);
        assertEquals(200, store.countRows());
        assertEquals(List.of(83, 83, 34), store.putAllSizes, "8 MiB / 100,000 B = 83 values a batch");
    }

    @Test
    void everyValueIsCheckedForItsBlobLengthAcrossBatches() {
        InMemory store = new InMemory();
        store.prefill(25_000, KeyValueDatabaseTest::record, i -> new byte[i % 1000 == 0 ? 2 : 1]);
        assertEquals(25, store.countBlobsNotOfLength(1));
        assertEquals(List.of(10_000, 10_000, 5_000), store.batchesScanned, "at most 10,000 values a batch");
    }

    @Test
    void writesReadsAndBatchesGoThroughTheStoresCalls() throws Exception {
        InMemory store = new InMemory();
        SensorRecord a = record(1);
        store.insert(a, new byte[] {7});
        store.writeAsync(new Database.Write(record(2), new byte[] {8}, true)).get();
        assertEquals(a, store.read(a.id()).orElseThrow().record());
        assertEquals(
                Set.of(a.id(), record(2).id()),
                store.readAll(List.of(a.id(), record(2).id(), "e99999999999")).keySet());
        Optional<StoredRecord> missing = store.readAsync("e99999999999").get();
        assertTrue(missing.isEmpty());
        assertTrue(store.writesAreUpserts());
    }

    @Test
    void aClientFailureIsOneLineNamingTheStoreAndTheCall() {
        InMemory store = new InMemory();
        store.failure = new IllegalStateException("connection reset\n\tat somewhere");
        DatabaseException e = assertThrows(DatabaseException.class, () -> store.read("e00000000001"));
        assertEquals("memory: could not read e00000000001: connection reset", e.getMessage());
        assertSame(store.failure, e.getCause());
        assertEquals(
                "memory: could not prefill 3 keys: connection reset",
                assertThrows(
                                DatabaseException.class,
                                () -> store.prefill(3, KeyValueDatabaseTest::record, i -> new byte[1]))
                        .getMessage());
    }

    @Test
    void anythingButAClientFailureIsThrownAsItIs() {
        InMemory store = new InMemory();
        store.failure = new UnsupportedOperationException("a bug");
        assertSame(store.failure, assertThrows(UnsupportedOperationException.class, store::countRows));
    }

    @Test
    void aUrlOfAnotherSchemeOrATableWithOtherCharactersIsRefusedInOneLine() {
        assertEquals(
                "memory: url 'redis://h:1' must be memory://host:port",
                assertThrows(DatabaseException.class, () -> KeyValueDatabase.uri("memory", "redis://h:1"))
                        .getMessage());
        assertEquals(5701, KeyValueDatabase.uri("memory", "memory://h:5701").getPort());
        assertEquals(
                "memory: table 'a b' is the map's name: letters, digits, '_', '.', '-' only",
                assertThrows(
                                DatabaseException.class,
                                () -> KeyValueDatabase.table(
                                        "memory", "map", new DatabaseSettings(Map.of("table", "a b"))))
                        .getMessage());
    }

    private static SensorRecord record(long i) {
        return new SensorRecord(String.format("e%011d", i), 1, 2, 3, 0.5, 0.25, 0.125);
    }

    /** A store in a HashMap whose calls fail with {@link #failure} when it is set (IllegalStateException: the client's). */
    private static final class InMemory extends KeyValueDatabase {
        final Map<String, byte[]> entries = new HashMap<>();
        final List<Integer> putAllSizes = new ArrayList<>();
        final List<Integer> batchesScanned = new ArrayList<>();
        RuntimeException failure;

        InMemory() {
            super("memory");
        }

        private void maybeFail() {
            if (failure != null) {
                throw failure;
            }
        }

        @Override
        protected boolean isClientFailure(RuntimeException e) {
            return e instanceof IllegalStateException;
        }

        @Override
        protected void clear() {
            maybeFail();
            entries.clear();
        }

        @Override
        protected byte[] get(String id) {
            maybeFail();
            return entries.get(id);
        }

        @Override
        protected Map<String, byte[]> getAll(Set<String> ids) {
            maybeFail();
            Map<String, byte[]> found = new HashMap<>();
            ids.stream().filter(entries::containsKey).forEach(id -> found.put(id, entries.get(id)));
            return found;
        }

        @Override
        protected void put(String id, byte[] value) {
            maybeFail();
            entries.put(id, value);
        }

        @Override
        protected void putAll(Map<String, byte[]> batch) {
            maybeFail();
            putAllSizes.add(batch.size());
            entries.putAll(batch);
        }

        @Override
        protected CompletionStage<byte[]> getAsync(String id) {
            return CompletableFuture.completedFuture(get(id));
        }

        @Override
        protected CompletionStage<Void> putAsync(String id, byte[] value) {
            put(id, value);
            return CompletableFuture.completedFuture(null);
        }

        @Override
        protected long size() {
            maybeFail();
            return entries.size();
        }

        @Override
        protected void forEachValue(int valuesPerBatch, Consumer<byte[]> action) {
            List<byte[]> values = new ArrayList<>(entries.values());
            for (int from = 0; from < values.size(); from += valuesPerBatch) {
                List<byte[]> batch = values.subList(from, Math.min(values.size(), from + valuesPerBatch));
                batchesScanned.add(batch.size());
                batch.forEach(action);
            }
        }

        @Override
        public void open(DatabaseSettings settings) {}

        @Override
        public String serverVersion() {
            return "memory";
        }

        @Override
        public void close() {}
    }
}
