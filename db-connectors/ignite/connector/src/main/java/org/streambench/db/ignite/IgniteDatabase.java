package org.streambench.db.ignite;

import java.net.URI;
import java.net.URISyntaxException;
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
import javax.cache.Cache;
import org.apache.ignite.Ignition;
import org.apache.ignite.cache.CachePeekMode;
import org.apache.ignite.cache.query.QueryCursor;
import org.apache.ignite.cache.query.ScanQuery;
import org.apache.ignite.client.ClientCache;
import org.apache.ignite.client.ClientCacheConfiguration;
import org.apache.ignite.client.ClientException;
import org.apache.ignite.client.IgniteClient;
import org.apache.ignite.cluster.ClusterNode;
import org.apache.ignite.configuration.ClientConfiguration;
import org.apache.ignite.lang.IgniteProductVersion;
import org.streambench.db.Database;
import org.streambench.db.DatabaseException;
import org.streambench.db.DatabaseProvider;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.RecordBytes;
import org.streambench.db.StoredRecord;
import org.streambench.generator.SensorRecord;

/**
 * Apache Ignite through its thin client, one client per operator instance, a cache of {@code
 * String} to {@code byte[]}: the value is {@link RecordBytes}, so no class of the suite's is needed
 * on the nodes. Writes are
 * {@code put}s, upserts (see {@link Database#writesAreUpserts}). Batches are one {@code getAll} or
 * {@code putAll}; asynchronous calls are the client's own ({@code getAsync}, {@code putAsync}).
 * Settings: {@code url} ({@code ignite://host:port}, a node's thin-client port), {@code user} and
 * {@code password} (for a cluster with authentication on), {@code table} (the cache, sensor_records).
 */
public final class IgniteDatabase implements Database {

    private static final long BATCH_BYTES = 8L << 20;

    private IgniteClient client;
    private ClientCache<String, byte[]> cache;

    @Override
    public void open(DatabaseSettings settings) {
        String url = settings.require("url", "ignite");
        URI uri = uri(url);
        ClientConfiguration config = new ClientConfiguration()
                .setAddresses(uri.getHost() + ":" + (uri.getPort() < 0 ? 10800 : uri.getPort()))
                .setTimeout(30_000);
        String user = settings.get("user", "");
        if (!user.isEmpty()) {
            config.setUserName(user).setUserPassword(settings.get("password", ""));
        }
        try {
            client = Ignition.startClient(config);
            cache = client.getOrCreateCache(table(settings));
        } catch (ClientException e) {
            close();
            throw new DatabaseException(
                    "cannot connect to ignite at " + url + ": " + DatabaseException.firstLine(e), e);
        }
    }

    private static URI uri(String url) {
        try {
            URI uri = new URI(url);
            if (!"ignite".equals(uri.getScheme()) || uri.getHost() == null) {
                throw new DatabaseException("ignite: url '" + url + "' must be ignite://host:port");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new DatabaseException("ignite: url '" + url + "' must be ignite://host:port", e);
        }
    }

    private static String table(DatabaseSettings settings) {
        String table = settings.get("table", "sensor_records");
        if (!table.matches("[A-Za-z0-9_.-]+")) {
            throw new DatabaseException(
                    "ignite: table '" + table + "' is the cache's name: letters, digits, '_', '.', '-' only");
        }
        return table;
    }

    @Override
    public void resetSchema() {
        try {
            cache.clear();
        } catch (ClientException e) {
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
                    cache.putAll(batch);
                    batch.clear();
                }
            }
        } catch (ClientException e) {
            throw failure("prefill " + count + " keys", e);
        }
    }

    @Override
    public Optional<StoredRecord> read(String id) {
        try {
            return Optional.ofNullable(cache.get(id)).map(value -> RecordBytes.decode(id, value));
        } catch (ClientException e) {
            throw failure("read " + id, e);
        }
    }

    @Override
    public Map<String, StoredRecord> readAll(Collection<String> ids) {
        try {
            Map<String, StoredRecord> found = new HashMap<>();
            cache.getAll(new HashSet<>(ids)).forEach((id, value) -> found.put(id, RecordBytes.decode(id, value)));
            return found;
        } catch (ClientException e) {
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
            cache.put(record.id(), RecordBytes.encode(record, blob));
        } catch (ClientException e) {
            throw failure(what + " " + record.id(), e);
        }
    }

    @Override
    public boolean writesAreUpserts() {
        return true;
    }

    /** One putAll: the entries go to their primary nodes together (not one transaction: the cache is atomic). */
    @Override
    public void writeAll(List<Write> writes) {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        for (Write write : writes) {
            entries.put(write.record().id(), RecordBytes.encode(write.record(), write.blob()));
        }
        try {
            cache.putAll(entries);
        } catch (ClientException e) {
            throw failure("write a batch of " + writes.size() + " records", e);
        }
    }

    @Override
    public boolean asynchronous() {
        return true;
    }

    @Override
    public CompletableFuture<Optional<StoredRecord>> readAsync(String id) {
        return cache.getAsync(id)
                .thenApply(value -> Optional.ofNullable(value).map(found -> RecordBytes.decode(id, found)))
                .toCompletableFuture();
    }

    @Override
    public CompletableFuture<Void> writeAsync(Write write) {
        return cache.putAsync(write.record().id(), RecordBytes.encode(write.record(), write.blob()))
                .toCompletableFuture();
    }

    @Override
    public long countRows() {
        try {
            return cache.size(CachePeekMode.PRIMARY);
        } catch (ClientException e) {
            throw failure("count entries", e);
        }
    }

    /** A scan of the cache, a few MB a page (a length check on the nodes would need the suite's classes there). */
    @Override
    public long countBlobsNotOfLength(int length) {
        ScanQuery<String, byte[]> scan = new ScanQuery<String, byte[]>()
                .setPageSize((int) Math.max(1, Math.min(1024, BATCH_BYTES / Math.max(1, length))));
        long wrong = 0;
        try (QueryCursor<Cache.Entry<String, byte[]>> cursor = cache.query(scan)) {
            for (Cache.Entry<String, byte[]> entry : cursor) {
                if (RecordBytes.blobLength(entry.getValue()) != length) {
                    wrong++;
                }
            }
            return wrong;
        } catch (ClientException e) {
            throw failure("check the BLOB lengths", e);
        }
    }

    @Override
    public String settle() {
        return "nothing to settle: the cache is in memory only unless the nodes persist it";
    }

    /** The cache's backups and write synchronisation, as the cluster reports them, and its server nodes. */
    @Override
    public Map<String, String> durabilitySettings() {
        Map<String, String> settings = new TreeMap<>();
        try {
            ClientCacheConfiguration configuration = cache.getConfiguration();
            settings.put("backups", Integer.toString(configuration.getBackups()));
            settings.put("writeSynchronizationMode", String.valueOf(configuration.getWriteSynchronizationMode()));
            settings.put("atomicityMode", String.valueOf(configuration.getAtomicityMode()));
            settings.put("serverNodes", Integer.toString(serverNodes().size()));
            settings.put(
                    "storage",
                    "the data region's, which a thin client cannot read (the suite's local node: in memory only)");
        } catch (ClientException e) {
            settings.put("unknown", DatabaseException.firstLine(e));
        }
        return settings;
    }

    private Collection<ClusterNode> serverNodes() {
        return client.cluster().forServers().nodes();
    }

    @Override
    public String serverVersion() {
        try {
            IgniteProductVersion version = serverNodes().iterator().next().version();
            return "Apache Ignite " + version.major() + "." + version.minor() + "." + version.maintenance();
        } catch (ClientException e) {
            throw failure("read the server version", e);
        }
    }

    @Override
    public void close() {
        if (client != null) {
            try {
                client.close();
            } catch (ClientException e) {
                // the client is gone either way
            }
            client = null;
            cache = null;
        }
    }

    private static DatabaseException failure(String what, RuntimeException e) {
        return new DatabaseException("ignite: could not " + what + ": " + DatabaseException.firstLine(e), e);
    }

    public static final class Provider implements DatabaseProvider {
        @Override
        public String name() {
            return "ignite";
        }

        @Override
        public int order() {
            return 105;
        }

        @Override
        public Database create() {
            return new IgniteDatabase();
        }

        @Override
        public List<String> settingNames() {
            return List.of("url", "user", "password", "table");
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
