package org.streambench.db.hbase;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.AsyncTable;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Durability;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.streambench.db.CeilingTool;
import org.streambench.db.Database;
import org.streambench.db.DatabaseException;
import org.streambench.db.DatabaseProvider;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.HostPort;
import org.streambench.db.MarkedEpochCommit;
import org.streambench.db.StoredRecord;
import org.streambench.generator.SensorRecord;

/**
 * HBase through the official client. One table, one column family {@code d}; row key = record id;
 * each value and the BLOB are cells. Settings: {@code url} = ZooKeeper quorum
 * ({@code host:port[,host:port]}), {@code table} (sensor_records); any setting whose name starts
 * with {@code hbase.} or {@code zookeeper.} is passed to the client configuration.
 */
public final class HBaseDatabase implements MarkedEpochCommit {

    private static final byte[] FAMILY = Bytes.toBytes("d");
    private static final byte[][] VALUE_COLUMNS = {
        Bytes.toBytes("int_1"), Bytes.toBytes("int_2"), Bytes.toBytes("int_3"),
        Bytes.toBytes("double_1"), Bytes.toBytes("double_2"), Bytes.toBytes("double_3")
    };
    private static final byte[] PAYLOAD = Bytes.toBytes("payload");
    /** Each exactly-once sink's last committed epoch: a row of its own in this family, apart from the records'. */
    private static final byte[] COMMITS = Bytes.toBytes("c");
    /** The table's column families, the records' and the sinks' epochs (HBase's load tool checks their count). */
    static final List<byte[]> FAMILIES = List.of(FAMILY, COMMITS);

    private static final byte[] EPOCH = Bytes.toBytes("epoch");
    private static final long PREFILL_BUFFER_BYTES = 8L << 20;

    private Connection connection;
    private TableName tableName;
    private Table table;
    private Durability durability;
    /** batch mode's writer, and async mode's client: opened on first use. */
    private BufferedMutator mutator;

    private AsyncConnection asyncConnection;
    private AsyncTable<?> asyncTable;

    @Override
    public void open(DatabaseSettings settings) {
        String quorum = settings.require("url", "hbase");
        tableName = tableName(settings);
        durability = durability(settings);
        Configuration conf = HBaseConfiguration.create();
        conf.set(
                "hbase.tmp.dir",
                Path.of(System.getProperty("java.io.tmpdir"), "streambench-hbase-client")
                        .toString());
        clientConfiguration(settings).forEach(conf::set);
        requireReachable(quorum);
        try {
            connection = ConnectionFactory.createConnection(conf);
            try (Admin admin = connection.getAdmin()) {
                admin.listNamespaceDescriptors(); // served only once the master has finished initialising
            }
            table = connection.getTable(tableName);
        } catch (IOException | RuntimeException e) {
            close();
            throw new DatabaseException(
                    "cannot connect to hbase at " + quorum + " (ZooKeeper quorum): " + DatabaseException.firstLine(e),
                    e);
        }
    }

    /** The client retries an absent ZooKeeper for minutes; a plain TCP connect says in milliseconds. */
    private static void requireReachable(String quorum) {
        IOException last = null;
        for (HostPort member : quorumMembers(quorum)) {
            try (Socket socket = new Socket()) {
                socket.connect(member.address(), 2000);
                return;
            } catch (IOException e) {
                last = e;
            }
        }
        throw new DatabaseException(
                "cannot connect to hbase at " + quorum + " (ZooKeeper quorum): " + last.getMessage(), last);
    }

    @Override
    public void resetSchema() {
        try (Admin admin = connection.getAdmin()) {
            if (admin.tableExists(tableName)) {
                if (admin.isTableEnabled(tableName)) {
                    admin.disableTable(tableName);
                }
                admin.deleteTable(tableName);
            }
            admin.createTable(TableDescriptorBuilder.newBuilder(tableName)
                    .setDurability(durability)
                    .setColumnFamilies(FAMILIES.stream()
                            .map(family -> ColumnFamilyDescriptorBuilder.newBuilder(family)
                                    .setMobEnabled(false)
                                    .build())
                            .toList())
                    .build());
        } catch (IOException e) {
            throw failure("reset the schema", e);
        }
    }

    @Override
    public void prefill(long count, LongFunction<SensorRecord> recordAt, LongFunction<byte[]> blobAt) {
        try (BufferedMutator mutator = connection.getBufferedMutator(
                new BufferedMutatorParams(tableName).writeBufferSize(PREFILL_BUFFER_BYTES))) {
            for (long i = 0; i < count; i++) {
                mutator.mutate(put(recordAt.apply(i), blobAt.apply(i)));
            }
            mutator.flush();
        } catch (IOException e) {
            throw failure("prefill " + count + " keys", e);
        }
    }

    @Override
    public Optional<StoredRecord> read(String id) {
        try {
            return decode(id, table.get(get(id)));
        } catch (IOException e) {
            throw failure("read " + id, e);
        }
    }

    private static Get get(String id) {
        return new Get(Bytes.toBytes(id)).addFamily(FAMILY);
    }

    private static Optional<StoredRecord> decode(String id, Result result) {
        if (result.isEmpty()) {
            return Optional.empty();
        }
        SensorRecord record = new SensorRecord(
                id,
                Bytes.toInt(result.getValue(FAMILY, VALUE_COLUMNS[0])),
                Bytes.toInt(result.getValue(FAMILY, VALUE_COLUMNS[1])),
                Bytes.toInt(result.getValue(FAMILY, VALUE_COLUMNS[2])),
                Bytes.toDouble(result.getValue(FAMILY, VALUE_COLUMNS[3])),
                Bytes.toDouble(result.getValue(FAMILY, VALUE_COLUMNS[4])),
                Bytes.toDouble(result.getValue(FAMILY, VALUE_COLUMNS[5])));
        return Optional.of(new StoredRecord(record, result.getValue(FAMILY, PAYLOAD)));
    }

    /** One multi-get for the batch. */
    @Override
    public Map<String, StoredRecord> readAll(Collection<String> ids) {
        List<String> keys = List.copyOf(ids);
        try {
            Result[] results = table.get(keys.stream().map(HBaseDatabase::get).toList());
            Map<String, StoredRecord> found = new HashMap<>();
            for (int i = 0; i < results.length; i++) {
                String id = keys.get(i);
                decode(id, results[i]).ifPresent(stored -> found.put(id, stored));
            }
            return found;
        } catch (IOException e) {
            throw failure("read a batch of " + keys.size() + " keys", e);
        }
    }

    /** The batch's puts through a BufferedMutator, flushed before this returns: acknowledged. */
    @Override
    public void writeAll(List<Write> writes) {
        try {
            if (mutator == null) {
                mutator = connection.getBufferedMutator(tableName);
            }
            mutator.mutate(writes.stream().map(w -> put(w.record(), w.blob())).toList());
            mutator.flush();
        } catch (IOException e) {
            throw failure("write a batch of " + writes.size() + " records", e);
        }
    }

    /** HBase's own asynchronous client (AsyncTable), opened on first use; safe to share between threads. */
    @Override
    public boolean asynchronous() {
        return true;
    }

    @Override
    public CompletableFuture<Optional<StoredRecord>> readAsync(String id) {
        return asyncTable().get(get(id)).thenApply(result -> decode(id, result));
    }

    @Override
    public CompletableFuture<Void> writeAsync(Write write) {
        return asyncTable().put(put(write.record(), write.blob()));
    }

    private synchronized AsyncTable<?> asyncTable() {
        if (asyncTable == null) {
            try {
                asyncConnection = ConnectionFactory.createAsyncConnection(connection.getConfiguration())
                        .get(1, TimeUnit.MINUTES);
            } catch (ExecutionException | TimeoutException e) {
                throw new DatabaseException("hbase: could not open the asynchronous connection: " + e, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new DatabaseException("hbase: interrupted while opening the asynchronous connection");
            }
            asyncTable = asyncConnection.getTable(tableName);
        }
        return asyncTable;
    }

    /**
     * A mutation is atomic within one row only, so each sink's epoch is marked in a row of its own
     * after the epoch's writes ({@link MarkedEpochCommit}).
     */
    @Override
    public OptionalLong markedEpoch(String sink) {
        try {
            byte[] epoch = table.get(new Get(commitsRow(sink)).addColumn(COMMITS, EPOCH))
                    .getValue(COMMITS, EPOCH);
            return epoch == null ? OptionalLong.empty() : OptionalLong.of(Bytes.toLong(epoch));
        } catch (IOException e) {
            throw failure("read the committed epoch of " + sink, e);
        }
    }

    @Override
    public void markEpoch(String sink, long epoch) {
        try {
            table.put(new Put(commitsRow(sink)).addColumn(COMMITS, EPOCH, Bytes.toBytes(epoch)));
        } catch (IOException e) {
            throw failure("mark epoch " + epoch + " of " + sink + " committed", e);
        }
    }

    private static byte[] commitsRow(String sink) {
        return Bytes.toBytes("#commits:" + sink);
    }

    @Override
    public boolean writesAreUpserts() {
        return true;
    }

    /** A Put: HBase writes are upserts; new keys are unique by construction and verification counts rows. */
    @Override
    public void insert(SensorRecord record, byte[] blob) {
        write("insert", record, blob);
    }

    /** A Put over the row the operator read just before. */
    @Override
    public void update(SensorRecord record, byte[] blob) {
        write("update", record, blob);
    }

    private void write(String what, SensorRecord record, byte[] blob) {
        try {
            table.put(put(record, blob));
        } catch (IOException e) {
            throw failure(what + " " + record.id(), e);
        }
    }

    private static Put put(SensorRecord r, byte[] blob) {
        return new Put(Bytes.toBytes(r.id()))
                .addColumn(FAMILY, VALUE_COLUMNS[0], Bytes.toBytes(r.int1()))
                .addColumn(FAMILY, VALUE_COLUMNS[1], Bytes.toBytes(r.int2()))
                .addColumn(FAMILY, VALUE_COLUMNS[2], Bytes.toBytes(r.int3()))
                .addColumn(FAMILY, VALUE_COLUMNS[3], Bytes.toBytes(r.double1()))
                .addColumn(FAMILY, VALUE_COLUMNS[4], Bytes.toBytes(r.double2()))
                .addColumn(FAMILY, VALUE_COLUMNS[5], Bytes.toBytes(r.double3()))
                .addColumn(FAMILY, PAYLOAD, blob);
    }

    /**
     * A scan of the whole table that reads each row from disk but sends back little: it must not
     * fill the block cache, and one call must finish within the client's scanner timeout (60 s)
     * also when the server is busy compacting what a run wrote (100 rows of 100,000 B BLOBs are 10 MB
     * read per call; a call of 1,000 rows once timed out after a 6 GB insert run).
     * The records' family only: the sinks' epochs are rows of their own.
     */
    private static Scan verificationScan() {
        return new Scan().addFamily(FAMILY).setCaching(100).setCacheBlocks(false);
    }

    @Override
    public long countRows() {
        try (ResultScanner rows = table.getScanner(verificationScan().setFilter(new FirstKeyOnlyFilter()))) {
            long count = 0;
            for (Result ignored : rows) {
                count++;
            }
            return count;
        } catch (IOException e) {
            throw failure("count rows", e);
        }
    }

    @Override
    public long countBlobsNotOfLength(int length) {
        // KeyOnlyFilter(true) makes the server send each cell's value length instead of the value
        Scan scan = verificationScan().addColumn(FAMILY, PAYLOAD).setFilter(new KeyOnlyFilter(true));
        try (ResultScanner rows = table.getScanner(scan)) {
            long wrong = 0;
            for (Result row : rows) {
                if (Bytes.toInt(row.getValue(FAMILY, PAYLOAD)) != length) {
                    wrong++;
                }
            }
            return wrong;
        } catch (IOException e) {
            throw failure("check BLOB lengths", e);
        }
    }

    @Override
    public String settle() {
        try (Admin admin = connection.getAdmin()) {
            admin.flush(tableName);
            return "flush of table " + tableName.getNameAsString();
        } catch (IOException e) {
            throw failure("flush the table after the prefill", e);
        }
    }

    /** The table's WAL durability (USE_DEFAULT is SYNC_WAL: every write is synced to the WAL before it is acknowledged). */
    @Override
    public Map<String, String> durabilitySettings() {
        try (Admin admin = connection.getAdmin()) {
            return Map.of(
                    "tableDurability",
                    admin.tableExists(tableName)
                            ? admin.getDescriptor(tableName).getDurability().name()
                            : "no table yet");
        } catch (IOException e) {
            throw failure("read the table's durability", e);
        }
    }

    /**
     * What the region servers report to the master (every few seconds, hbase.regionserver.msginterval):
     * the requests they served, and for the regions of the suite's table the read and write
     * requests and the cells their compactions rewrote. Through the client's Admin, so an external
     * cluster's figures are seen too.
     */
    @Override
    public Map<String, Long> serverCounters() {
        long requests = 0;
        long reads = 0;
        long writes = 0;
        long compactedCells = 0;
        try (Admin admin = connection.getAdmin()) {
            ClusterMetrics cluster = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS));
            for (ServerMetrics server : cluster.getLiveServerMetrics().values()) {
                requests += server.getRequestCount();
                for (RegionMetrics region : server.getRegionMetrics().values()) {
                    if (tableName.equals(RegionInfo.getTable(region.getRegionName()))) {
                        reads += region.getReadRequestCount();
                        writes += region.getWriteRequestCount();
                        compactedCells += region.getCompactedCellCount();
                    }
                }
            }
        } catch (IOException e) {
            throw failure("read the cluster's metrics", e);
        }
        Map<String, Long> counters = new TreeMap<>();
        counters.put("requests", requests);
        counters.put("table.read_requests", reads);
        counters.put("table.write_requests", writes);
        counters.put("table.compacted_cells", compactedCells);
        return counters;
    }

    @Override
    public String serverVersion() {
        try (Admin admin = connection.getAdmin()) {
            return "Apache HBase " + admin.getClusterMetrics().getHBaseVersion();
        } catch (IOException e) {
            throw failure("read the server version", e);
        }
    }

    @Override
    public void close() {
        try {
            if (mutator != null) {
                mutator.close();
            }
            if (asyncConnection != null) {
                asyncConnection.close();
            }
            if (table != null) {
                table.close();
            }
            if (connection != null) {
                connection.close();
            }
        } catch (IOException ignored) {
            // closing a broken connection has nothing left to report
        }
        mutator = null;
        asyncConnection = null;
        asyncTable = null;
        table = null;
        connection = null;
    }

    private static DatabaseException failure(String what, IOException e) {
        return new DatabaseException("hbase: could not " + what + ": " + DatabaseException.firstLine(e), e);
    }

    private static List<HostPort> quorumMembers(String quorum) {
        return HostPort.parseList(quorum, 2181, "url", "hbase");
    }

    /**
     * The client configuration the connector and its ceiling tool share: retries lowered so that an
     * unreachable cluster fails in seconds, then every {@code hbase.*} and {@code zookeeper.*} setting.
     */
    static Map<String, String> clientConfiguration(DatabaseSettings settings) {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("hbase.zookeeper.quorum", settings.require("url", "hbase"));
        conf.put("hbase.client.retries.number", "10");
        conf.put("hbase.client.pause", "100");
        conf.put("hbase.client.operation.timeout", "60000");
        conf.put("zookeeper.recovery.retry", "2");
        settings.asMap().forEach((key, value) -> {
            if (key.startsWith("hbase.") || key.startsWith("zookeeper.")) {
                conf.put(key, value);
            }
        });
        return conf;
    }

    static TableName tableName(DatabaseSettings settings) {
        String name = settings.get("table", "sensor_records");
        try {
            return TableName.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new DatabaseException(
                    "hbase: table name '" + name + "' is not a legal HBase table name (letters, digits, _ - .)");
        }
    }

    private static Durability durability(DatabaseSettings settings) {
        String name = settings.get("durability", Durability.USE_DEFAULT.name());
        try {
            return Durability.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new DatabaseException("hbase: durability '" + name + "' is not one of "
                    + Arrays.stream(Durability.values()).map(Enum::name).collect(Collectors.joining(", ")));
        }
    }

    public static final class Provider implements DatabaseProvider {
        @Override
        public String name() {
            return "hbase";
        }

        @Override
        public int order() {
            return 20;
        }

        @Override
        public boolean inStudy() {
            return true;
        }

        @Override
        public Database create() {
            return new HBaseDatabase();
        }

        /**
         * Besides url, table and the table's WAL durability (USE_DEFAULT, ASYNC_WAL, ...), any HBase or
         * ZooKeeper client property ("hbase.*", "zookeeper.*").
         */
        @Override
        public List<String> settingNames() {
            return List.of("url", "table", "durability", "hbase.*", "zookeeper.*");
        }

        @Override
        public Optional<CeilingTool> ceilingTool() {
            return Optional.of(new PerformanceEvaluationCeiling());
        }

        @Override
        public void checkSettings(DatabaseSettings settings) {
            String quorum = settings.get("url", "");
            if (!quorum.isEmpty()) {
                quorumMembers(quorum);
            }
            tableName(settings);
            durability(settings);
        }
    }
}
