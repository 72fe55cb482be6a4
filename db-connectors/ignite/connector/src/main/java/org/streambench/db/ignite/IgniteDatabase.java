package org.streambench.db.ignite;

import java.net.URI;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
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
import org.streambench.db.kv.KeyValueDatabase;

/**
 * Apache Ignite through its thin client, one client per operator instance, a cache of {@code
 * String} to {@code byte[]} (see {@link KeyValueDatabase}). Writes are {@code put}s. Batches are one
 * {@code getAll} or {@code putAll}, {@code putAll} not one transaction (the cache is atomic);
 * asynchronous calls are the client's own ({@code getAsync}, {@code putAsync}).
 * Settings: {@code url} ({@code ignite://host:port}, a node's thin-client port), {@code user} and
 * {@code password} (for a cluster with authentication on), {@code table} (the cache, sensor_records).
 */
public final class IgniteDatabase extends KeyValueDatabase {

    private static final String NAME = "ignite";

    private IgniteClient client;
    private ClientCache<String, byte[]> cache;

    public IgniteDatabase() {
        super(NAME);
    }

    @Override
    public void open(DatabaseSettings settings) {
        String url = settings.require("url", "ignite");
        URI uri = uri(NAME, url);
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

    private static String table(DatabaseSettings settings) {
        return table(NAME, "cache", settings);
    }

    @Override
    protected boolean isClientFailure(RuntimeException e) {
        return e instanceof ClientException;
    }

    @Override
    protected void clear() {
        cache.clear();
    }

    @Override
    protected byte[] get(String id) {
        return cache.get(id);
    }

    @Override
    protected Map<String, byte[]> getAll(Set<String> ids) {
        return cache.getAll(ids);
    }

    @Override
    protected void put(String id, byte[] value) {
        cache.put(id, value);
    }

    @Override
    protected void putAll(Map<String, byte[]> entries) {
        cache.putAll(entries);
    }

    @Override
    protected CompletionStage<byte[]> getAsync(String id) {
        return cache.getAsync(id);
    }

    @Override
    protected CompletionStage<Void> putAsync(String id, byte[] value) {
        return cache.putAsync(id, value);
    }

    @Override
    protected long size() {
        return cache.size(CachePeekMode.PRIMARY);
    }

    /** A scan of the cache, a page at a time. */
    @Override
    protected void forEachValue(int valuesPerBatch, Consumer<byte[]> action) {
        ScanQuery<String, byte[]> scan = new ScanQuery<String, byte[]>().setPageSize(valuesPerBatch);
        try (QueryCursor<Cache.Entry<String, byte[]>> cursor = cache.query(scan)) {
            cursor.forEach(entry -> action.accept(entry.getValue()));
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
        return call("read the server version", () -> {
            IgniteProductVersion version = serverNodes().iterator().next().version();
            return "Apache Ignite " + version.major() + "." + version.minor() + "." + version.maintenance();
        });
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

    public static final class Provider implements DatabaseProvider {
        @Override
        public String name() {
            return NAME;
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
                uri(NAME, url);
            }
            table(settings);
        }
    }
}
