package org.streambench.db.hazelcast;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastException;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongFunction;
import org.streambench.db.Database;
import org.streambench.db.DatabaseException;
import org.streambench.db.DatabaseProvider;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.RecordBytes;
import org.streambench.db.StoredRecord;
import org.streambench.generator.SensorRecord;

/**
 * Hazelcast through its Java client, one client per operator instance, an {@code IMap<String,
 * byte[]>}: the key is the record id, the value {@link RecordBytes} (no class of the suite's is
 * needed on the members, so the connector works against any cluster). Writes are {@code set}s, which are upserts (no
 * previous value comes back, and checking a key first would add a round trip to every write, see
 * {@link Database#writesAreUpserts}). Batches are one {@code getAll} or {@code setAll}; asynchronous
 * calls are the client's own ({@code getAsync}, {@code setAsync}), many in flight on one connection.
 * Settings: {@code url} ({@code hazelcast://host:port}), {@code password} (the cluster's name: the
 * open-source edition has no users), {@code table} (the map, sensor_records).
 */
public final class HazelcastDatabase implements Database {

    private static final long BATCH_BYTES = 8L << 20;

    private HazelcastInstance client;
    private IMap<String, byte[]> map;

    @Override
    public void open(DatabaseSettings settings) {
        String url = settings.require("url", "hazelcast");
        URI uri = uri(url);
        String table = table(settings);
        ClientConfig config = new ClientConfig();
        config.setClusterName(settings.get("password", "dev"));
        config.setInstanceName("streambench-" + System.identityHashCode(this));
        config.setProperty("hazelcast.logging.type", "none");
        config.getMetricsConfig().setEnabled(false);
        config.getNetworkConfig().addAddress(uri.getHost() + ":" + (uri.getPort() < 0 ? 5701 : uri.getPort()));
        // the client retries forever by default; a wrong address or cluster name must fail the run
        config.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(5_000);
        try {
            client = HazelcastClient.newHazelcastClient(config);
            map = client.getMap(table);
        } catch (HazelcastException | IllegalStateException e) {
            close();
            throw new DatabaseException(
                    "cannot connect to hazelcast at " + url + " (is the cluster's name, the password setting, right?): "
                            + DatabaseException.firstLine(e),
                    e);
        }
    }

    private static URI uri(String url) {
        try {
            URI uri = new URI(url);
            if (!"hazelcast".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new DatabaseException("hazelcast: url '" + url + "' must be hazelcast://host:port");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new DatabaseException("hazelcast: url '" + url + "' must be hazelcast://host:port", e);
        }
    }

    private static String table(DatabaseSettings settings) {
        String table = settings.get("table", "sensor_records");
        if (!table.matches("[A-Za-z0-9_.-]+")) {
            throw new DatabaseException(
                    "hazelcast: table '" + table + "' is the map's name: letters, digits, '_', '.', '-' only");
        }
        return table;
    }

    @Override
    public void resetSchema() {
        try {
            map.clear();
        } catch (HazelcastException e) {
            throw failure("reset the schema", e);
        }
    }

    @Override
    public void prefill(long count, LongFunction<SensorRecord> recordAt, LongFunction<byte[]> blobAt) {
        long perBatch = Math.max(1, BATCH_BYTES / Math.max(1, blobAt.apply(0).length));
        Map<String, byte[]> batch = new HashMap<>();
        try {
            for (long i = 0; i < count; i++) {
                SensorRecord record = recordAt.apply(i);
                batch.put(record.id(), RecordBytes.encode(record, blobAt.apply(i)));
                if (batch.size() == perBatch || i == count - 1) {
                    map.setAll(batch);
                    batch.clear();
                }
            }
        } catch (HazelcastException e) {
            throw failure("prefill " + count + " keys", e);
        }
    }

    @Override
    public Optional<StoredRecord> read(String id) {
        try {
            return Optional.ofNullable(map.get(id)).map(value -> RecordBytes.decode(id, value));
        } catch (HazelcastException e) {
            throw failure("read " + id, e);
        }
    }

    @Override
    public Map<String, StoredRecord> readAll(Collection<String> ids) {
        try {
            Map<String, StoredRecord> found = new HashMap<>();
            map.getAll(new HashSet<>(ids)).forEach((id, value) -> found.put(id, RecordBytes.decode(id, value)));
            return found;
        } catch (HazelcastException e) {
            throw failure("read a batch of " + ids.size() + " keys", e);
        }
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
        try {
            map.set(record.id(), RecordBytes.encode(record, blob));
        } catch (HazelcastException e) {
            throw failure(what + " " + record.id(), e);
        }
    }

    @Override
    public boolean writesAreUpserts() {
        return true;
    }

    /** One setAll: the entries go to their partitions' owners together (not one transaction). */
    @Override
    public void writeAll(List<Write> writes) {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        for (Write write : writes) {
            entries.put(write.record().id(), RecordBytes.encode(write.record(), write.blob()));
        }
        try {
            map.setAll(entries);
        } catch (HazelcastException e) {
            throw failure("write a batch of " + writes.size() + " records", e);
        }
    }

    @Override
    public boolean asynchronous() {
        return true;
    }

    @Override
    public CompletableFuture<Optional<StoredRecord>> readAsync(String id) {
        return map.getAsync(id)
                .thenApply(value -> Optional.ofNullable(value).map(found -> RecordBytes.decode(id, found)))
                .toCompletableFuture();
    }

    @Override
    public CompletableFuture<Void> writeAsync(Write write) {
        return map.setAsync(write.record().id(), RecordBytes.encode(write.record(), write.blob()))
                .toCompletableFuture();
    }

    @Override
    public long countRows() {
        try {
            return map.size();
        } catch (HazelcastException e) {
            throw failure("count entries", e);
        }
    }

    /** Reads every value, a few MB at a time (a length check on the member would need the suite's classes there). */
    @Override
    public long countBlobsNotOfLength(int length) {
        try {
            List<String> keys = new ArrayList<>(map.keySet());
            int perBatch = (int) Math.max(1, Math.min(10_000, BATCH_BYTES / Math.max(1, length)));
            long wrong = 0;
            for (int from = 0; from < keys.size(); from += perBatch) {
                Collection<byte[]> values = map.getAll(
                                new HashSet<>(keys.subList(from, Math.min(keys.size(), from + perBatch))))
                        .values();
                wrong += values.stream()
                        .filter(value -> RecordBytes.blobLength(value) != length)
                        .count();
            }
            return wrong;
        } catch (HazelcastException e) {
            throw failure("check the BLOB lengths", e);
        }
    }

    @Override
    public String settle() {
        return "nothing to settle: Hazelcast keeps the map in memory only";
    }

    /** What a write's acknowledgement means here: the member's memory, plus its backups where there are other members. */
    @Override
    public Map<String, String> durabilitySettings() {
        Map<String, String> settings = new TreeMap<>();
        settings.put("storage", "in memory only (no persistence in the open-source edition)");
        settings.put(
                "members", Integer.toString(client.getCluster().getMembers().size()));
        settings.put(
                "backups",
                "the map's backup-count as the members configure it (vendor default: 1, synchronous),"
                        + " held by other members; a member alone holds none");
        return settings;
    }

    @Override
    public String serverVersion() {
        try {
            return "Hazelcast "
                    + client.getCluster().getMembers().iterator().next().getVersion();
        } catch (HazelcastException e) {
            throw failure("read the server version", e);
        }
    }

    @Override
    public void close() {
        if (client != null) {
            try {
                client.shutdown();
            } catch (HazelcastException e) {
                // the client is gone either way
            }
            client = null;
            map = null;
        }
    }

    private static DatabaseException failure(String what, RuntimeException e) {
        return new DatabaseException("hazelcast: could not " + what + ": " + DatabaseException.firstLine(e), e);
    }

    public static final class Provider implements DatabaseProvider {
        @Override
        public String name() {
            return "hazelcast";
        }

        @Override
        public int order() {
            return 100;
        }

        @Override
        public Database create() {
            return new HazelcastDatabase();
        }

        @Override
        public List<String> settingNames() {
            return List.of("url", "password", "table");
        }

        @Override
        public void checkSettings(DatabaseSettings settings) {
            String url = settings.get("url", null);
            if (url != null) {
                uri(url);
            }
            table(settings);
        }
    }
}
