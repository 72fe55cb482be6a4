package org.streambench.db.hazelcast;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastException;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.transaction.TransactionContext;
import com.hazelcast.transaction.TransactionOptions;
import com.hazelcast.transaction.TransactionalMap;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import org.streambench.db.Database;
import org.streambench.db.DatabaseException;
import org.streambench.db.DatabaseProvider;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.RecordBytes;
import org.streambench.db.kv.KeyValueDatabase;

/**
 * Hazelcast through its Java client, one client per operator instance, an {@code IMap<String,
 * byte[]>} (see {@link KeyValueDatabase}; no class of the suite's is needed on the members, so the
 * connector works against any cluster). Writes are {@code set}s (no previous value comes back, and
 * checking a key first would add a round trip to every write). Batches are one {@code getAll} or
 * {@code setAll}, {@code setAll} not one transaction; asynchronous calls are the client's own
 * ({@code getAsync}, {@code setAsync}), many in flight on one connection. Exactly-once commits
 * each epoch in one of Hazelcast's two-phase transactions, with the sink's epoch in a second map.
 * Settings: {@code url} ({@code hazelcast://host:port}), {@code password} (the cluster's name: the
 * open-source edition has no users), {@code table} (the map, sensor_records).
 */
public final class HazelcastDatabase extends KeyValueDatabase {

    private static final String NAME = "hazelcast";

    private HazelcastInstance client;
    private IMap<String, byte[]> map;
    /** exactly-once: the last epoch each sink committed, a map beside the records'. */
    private IMap<String, Long> commits;

    public HazelcastDatabase() {
        super(NAME);
    }

    @Override
    public void open(DatabaseSettings settings) {
        String url = settings.require("url", "hazelcast");
        URI uri = uri(NAME, url);
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
            commits = client.getMap(commitsMap(table));
        } catch (HazelcastException | IllegalStateException e) {
            close();
            throw new DatabaseException(
                    "cannot connect to hazelcast at " + url + " (is the cluster's name, the password setting, right?): "
                            + DatabaseException.firstLine(e),
                    e);
        }
    }

    @Override
    protected boolean isClientFailure(RuntimeException e) {
        return e instanceof HazelcastException;
    }

    @Override
    protected void clear() {
        map.clear();
        commits.clear();
    }

    @Override
    public boolean commitsEpochs() {
        return true;
    }

    /**
     * One two-phase transaction: the sink's epoch read with a lock ({@code getForUpdate}); if this
     * epoch is later, the writes' {@code set}s and the new epoch, committed together, else nothing.
     * A failure rolls all of it back.
     */
    @Override
    public boolean commitEpoch(String sink, long epoch, List<Write> writes) {
        return call("commit epoch " + epoch + " of " + sink + " (" + writes.size() + " records)", () -> {
            TransactionContext transaction = client.newTransactionContext(
                    new TransactionOptions().setTransactionType(TransactionOptions.TransactionType.TWO_PHASE));
            transaction.beginTransaction();
            try {
                TransactionalMap<String, Long> epochs = transaction.getMap(commits.getName());
                Long committed = epochs.getForUpdate(sink);
                if (committed != null && committed >= epoch) {
                    transaction.rollbackTransaction();
                    return false;
                }
                TransactionalMap<String, byte[]> records = transaction.getMap(map.getName());
                for (Write write : writes) {
                    records.set(write.record().id(), RecordBytes.encode(write.record(), write.blob()));
                }
                epochs.set(sink, epoch);
                transaction.commitTransaction();
                return true;
            } catch (RuntimeException e) {
                rollBack(transaction);
                throw e;
            }
        });
    }

    private static void rollBack(TransactionContext transaction) {
        try {
            transaction.rollbackTransaction();
        } catch (HazelcastException | IllegalStateException e) {
            // a transaction that failed in its commit may be rolled back already
        }
    }

    private static String commitsMap(String table) {
        return table + "#commits";
    }

    @Override
    protected byte[] get(String id) {
        return map.get(id);
    }

    @Override
    protected Map<String, byte[]> getAll(Set<String> ids) {
        return map.getAll(ids);
    }

    @Override
    protected void put(String id, byte[] value) {
        map.set(id, value);
    }

    @Override
    protected void putAll(Map<String, byte[]> entries) {
        map.setAll(entries);
    }

    @Override
    protected CompletionStage<byte[]> getAsync(String id) {
        return map.getAsync(id);
    }

    @Override
    protected CompletionStage<Void> putAsync(String id, byte[] value) {
        return map.setAsync(id, value);
    }

    @Override
    protected long size() {
        return map.size();
    }

    /** The map's keys, then their values a batch at a time. */
    @Override
    protected void forEachValue(int valuesPerBatch, Consumer<byte[]> action) {
        List<String> keys = new ArrayList<>(map.keySet());
        for (int from = 0; from < keys.size(); from += valuesPerBatch) {
            map.getAll(new HashSet<>(keys.subList(from, Math.min(keys.size(), from + valuesPerBatch))))
                    .values()
                    .forEach(action);
        }
    }

    private static String table(DatabaseSettings settings) {
        return table(NAME, "map", settings);
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
        return call(
                "read the server version",
                () -> "Hazelcast "
                        + client.getCluster().getMembers().iterator().next().getVersion());
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
            commits = null;
        }
    }

    public static final class Provider implements DatabaseProvider {
        @Override
        public String name() {
            return NAME;
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
                uri(NAME, url);
            }
            table(settings);
        }
    }
}
