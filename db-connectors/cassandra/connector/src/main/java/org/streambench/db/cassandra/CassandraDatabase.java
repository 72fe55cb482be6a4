package org.streambench.db.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongFunction;
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
 * Cassandra through the DataStax Java driver 4. Settings: {@code url} = contact points
 * ({@code host:port[,host:port]}), {@code localDatacenter} (datacenter1), {@code keyspace}
 * (streambench), {@code table} (sensor_records), {@code replicationStrategy} (SimpleStrategy),
 * {@code replicationFactor} (1), {@code readConsistency} / {@code writeConsistency} (ONE).
 */
public final class CassandraDatabase implements MarkedEpochCommit {

    private static final String NAME = "cassandra";
    private static final String LANGUAGE = "CQL";
    private static final Set<String> RESERVED =
            DatabaseSettings.reservedWords(CassandraDatabase.class, "reserved-words.txt");
    private static final int DEFAULT_PORT = 9042;
    /** The thread pools whose completed tasks {@link #serverCounters} reports, by their names as Cassandra 5 gives them. */
    private static final List<String> COUNTED_POOLS = List.of(
            "Native-Transport-Requests", "MutationStage", "ReadStage", "MemtableFlushWriter", "CompactionExecutor");

    /** The table's columns and their CQL types; id is the partition key. */
    private static final List<String> COLUMNS = List.of(
            "id text",
            "int_1 int",
            "int_2 int",
            "int_3 int",
            "double_1 double",
            "double_2 double",
            "double_3 double",
            "payload blob");

    private static final int PREFILL_IN_FLIGHT = 64;
    /**
     * A sink's epoch is written and read at QUORUM whatever the records' consistency: a mark read
     * from a replica that missed it would commit an epoch again and count its records twice.
     */
    private static final ConsistencyLevel MARK_CONSISTENCY = DefaultConsistencyLevel.QUORUM;

    private static final Duration SCAN_TIMEOUT = Duration.ofMinutes(5);
    /** Small pages: a page of 100 KB BLOBs must fit comfortably in the server's and the client's heap. */
    private static final int SCAN_PAGE_ROWS = 200;

    private CqlSession session;
    private String table;
    private String keyspace;
    /** The keyspace's replication as the settings ask for it, a CQL map, and the entries it stores. */
    private String replication;

    private Map<String, String> replicationEntries;
    private ConsistencyLevel readConsistency;
    private ConsistencyLevel writeConsistency;
    private PreparedStatement readStatement;
    private PreparedStatement writeStatement;
    /** Requests in flight per session before the driver queues further ones (batch and async modes). */
    private static final int MAX_CONCURRENT_REQUESTS = 1024;

    @Override
    public void open(DatabaseSettings settings) {
        String url = settings.require("url", NAME);
        checkSettings(settings);
        String datacenter = settings.get("localDatacenter", "datacenter1");
        List<HostPort> contactPoints = HostPort.parseList(url, DEFAULT_PORT, "url", NAME);
        keyspace = settings.identifier("keyspace", "streambench", NAME, LANGUAGE, RESERVED);
        table = qualifiedTable(settings);
        readConsistency = DefaultConsistencyLevel.valueOf(settings.get("readConsistency", "ONE"));
        writeConsistency = DefaultConsistencyLevel.valueOf(settings.get("writeConsistency", "ONE"));
        CqlSessionBuilder builder = CqlSession.builder()
                .withLocalDatacenter(datacenter)
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(10))
                        .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT, Duration.ofSeconds(5))
                        .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(5))
                        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(30))
                        // Netty's default quiet period made every close take 2 s (a run closes several sessions)
                        .withInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_QUIET_PERIOD, 0)
                        .withInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_QUIET_PERIOD, 0)
                        // batch and async modes keep many requests in flight: the driver queues what is beyond
                        // its limit instead of overwhelming the node
                        .withString(DefaultDriverOption.REQUEST_THROTTLER_CLASS, "ConcurrencyLimitingRequestThrottler")
                        .withInt(DefaultDriverOption.REQUEST_THROTTLER_MAX_CONCURRENT_REQUESTS, MAX_CONCURRENT_REQUESTS)
                        .withInt(DefaultDriverOption.REQUEST_THROTTLER_MAX_QUEUE_SIZE, Integer.MAX_VALUE)
                        .build());
        String user = settings.get("user", "");
        if (!user.isEmpty()) {
            String password = settings.get("password", "");
            if (password.isEmpty()) {
                throw new DatabaseException("cassandra: user '" + user + "' needs a password (the password setting)");
            }
            builder.withAuthCredentials(user, password);
        }
        for (HostPort contactPoint : contactPoints) {
            builder.addContactPoint(contactPoint.address());
        }
        try {
            session = builder.build();
            String strategy = settings.get("replicationStrategy", "SimpleStrategy");
            String factor = settings.get("replicationFactor", "1");
            int replicas = Integer.parseInt(factor);
            if (strategy.equals("NetworkTopologyStrategy")) {
                replication = "{'class': 'NetworkTopologyStrategy', '" + datacenter + "': " + replicas + "}";
                replicationEntries = Map.of(
                        "class",
                        "org.apache.cassandra.locator.NetworkTopologyStrategy",
                        datacenter,
                        Integer.toString(replicas));
            } else {
                String simpleName = settings.identifier("replicationStrategy", "SimpleStrategy", NAME, LANGUAGE);
                replication = "{'class': '" + simpleName + "', 'replication_factor': " + replicas + "}";
                replicationEntries = Map.of(
                        "class",
                        "org.apache.cassandra.locator." + simpleName,
                        "replication_factor",
                        Integer.toString(replicas));
            }
            session.execute("CREATE KEYSPACE IF NOT EXISTS " + keyspace + " WITH replication = " + replication);
        } catch (DriverException e) {
            close();
            throw new DatabaseException(
                    "cannot connect to cassandra at " + url + " (datacenter " + datacenter + "): " + e.getMessage(), e);
        }
    }

    @Override
    public void resetSchema() {
        try {
            // a keyspace an earlier run created keeps its replication until this run's is set
            if (!replicationEntries.equals(keyspaceReplication())) {
                session.execute("ALTER KEYSPACE " + keyspace + " WITH replication = " + replication);
            }
            // a schema change takes about a second each on a single node (2026-11-30: DROP 1.2 s, CREATE 1.1 s),
            // TRUNCATE 0.05-0.1 s; it needs every replica up, so a table it cannot empty is made anew
            if (!tableHasTheColumns() || !truncated(table)) {
                session.execute("DROP TABLE IF EXISTS " + table);
                session.execute("CREATE TABLE " + table + " (" + String.join(", ", COLUMNS) + ", PRIMARY KEY (id))");
            }
            // made here, where one client resets, not by the sinks' first commits at once
            String commits = "CREATE TABLE IF NOT EXISTS " + commitsTable() + " (sink text PRIMARY KEY, epoch bigint)";
            session.execute(commits);
            if (!truncated(commitsTable())) {
                session.execute("DROP TABLE " + commitsTable());
                session.execute(commits);
            }
        } catch (DriverException e) {
            throw failure("reset the schema", e);
        }
        readStatement = null;
        writeStatement = null;
    }

    @Override
    public void prefill(long count, LongFunction<SensorRecord> recordAt, LongFunction<byte[]> blobAt) {
        Semaphore inFlight = new Semaphore(PREFILL_IN_FLIGHT);
        AtomicReference<Throwable> firstError = new AtomicReference<>();
        try {
            for (long i = 0; i < count && firstError.get() == null; i++) {
                inFlight.acquire();
                CompletionStage<AsyncResultSet> write =
                        session.executeAsync(bindWrite(recordAt.apply(i), blobAt.apply(i)));
                write.whenComplete((result, error) -> {
                    if (error != null) {
                        firstError.compareAndSet(null, error);
                    }
                    inFlight.release();
                });
            }
            inFlight.acquire(PREFILL_IN_FLIGHT);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DatabaseException("cassandra: prefill interrupted");
        }
        if (firstError.get() != null) {
            throw new DatabaseException(
                    "cassandra: could not prefill " + count + " keys: "
                            + firstError.get().getMessage(),
                    firstError.get());
        }
    }

    @Override
    public void prepareStatements() {
        try {
            if (readStatement == null) {
                readStatement =
                        session.prepare("SELECT int_1, int_2, int_3, double_1, double_2, double_3, payload FROM "
                                + table + " WHERE id = ?");
            }
            if (writeStatement == null) {
                writeStatement = session.prepare(
                        "INSERT INTO " + table
                                + " (id, int_1, int_2, int_3, double_1, double_2, double_3, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
            }
        } catch (DriverException e) {
            throw failure("prepare the statements", e);
        }
    }

    @Override
    public Optional<StoredRecord> read(String id) {
        try {
            return decode(id, session.execute(bindRead(id)).one());
        } catch (DriverException e) {
            throw failure("read " + id, e);
        }
    }

    private BoundStatement bindRead(String id) {
        if (readStatement == null) {
            prepareStatements();
        }
        return readStatement.bind(id).setConsistencyLevel(readConsistency);
    }

    private static Optional<StoredRecord> decode(String id, Row row) {
        if (row == null) {
            return Optional.empty();
        }
        ByteBuffer payload = row.getByteBuffer(6);
        byte[] blob = new byte[payload == null ? 0 : payload.remaining()];
        if (payload != null) {
            payload.duplicate().get(blob);
        }
        return Optional.of(new StoredRecord(
                new SensorRecord(
                        id,
                        row.getInt(0),
                        row.getInt(1),
                        row.getInt(2),
                        row.getDouble(3),
                        row.getDouble(4),
                        row.getDouble(5)),
                blob));
    }

    /** The driver's asynchronous requests on the one session, which is safe to share between threads. */
    @Override
    public boolean asynchronous() {
        return true;
    }

    @Override
    public CompletableFuture<Optional<StoredRecord>> readAsync(String id) {
        return session.executeAsync(bindRead(id))
                .thenApply(rows -> decode(id, rows.one()))
                .toCompletableFuture();
    }

    @Override
    public CompletableFuture<Void> writeAsync(Write write) {
        return session.executeAsync(bindWrite(write.record(), write.blob()))
                .thenApply(done -> (Void) null)
                .toCompletableFuture();
    }

    /**
     * Every key is its own partition, so a batch is its reads issued together, each a request of its
     * own, not a multi-partition query (or a CQL BATCH, which Cassandra warns about at 5 KiB and
     * refuses at 50 KiB).
     */
    @Override
    public Map<String, StoredRecord> readAll(Collection<String> ids) {
        Map<String, CompletableFuture<Optional<StoredRecord>>> reads = new LinkedHashMap<>();
        ids.forEach(id -> reads.put(id, readAsync(id)));
        Map<String, StoredRecord> found = new HashMap<>();
        reads.forEach((id, read) -> await(read, "read " + id).ifPresent(stored -> found.put(id, stored)));
        return found;
    }

    /** The batch's writes issued together, each a request of its own (not a CQL BATCH: see readAll). */
    @Override
    public void writeAll(List<Write> writes) {
        List<CompletableFuture<Void>> pending = new ArrayList<>();
        writes.forEach(write -> pending.add(writeAsync(write)));
        for (int i = 0; i < pending.size(); i++) {
            await(
                    pending.get(i),
                    (writes.get(i).insert() ? "insert " : "update ")
                            + writes.get(i).record().id());
        }
    }

    private <T> T await(CompletableFuture<T> call, String what) {
        try {
            return call.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof DriverException driver) {
                throw failure(what, driver);
            }
            throw e;
        }
    }

    /**
     * No transaction holds writes to many partitions together with an epoch (a logged batch is
     * atomic, but refused past 50 KiB: a few records of 10,000 B), so each sink's epoch is marked in
     * a table of its own after the epoch's writes ({@link MarkedEpochCommit}).
     */
    @Override
    public OptionalLong markedEpoch(String sink) {
        try {
            Row row = session.execute(
                            SimpleStatement.newInstance("SELECT epoch FROM " + commitsTable() + " WHERE sink = ?", sink)
                                    .setConsistencyLevel(MARK_CONSISTENCY))
                    .one();
            return row == null ? OptionalLong.empty() : OptionalLong.of(row.getLong(0));
        } catch (DriverException e) {
            throw failure("read the committed epoch of " + sink, e);
        }
    }

    @Override
    public void markEpoch(String sink, long epoch) {
        try {
            session.execute(SimpleStatement.newInstance(
                            "UPDATE " + commitsTable() + " SET epoch = ? WHERE sink = ?", epoch, sink)
                    .setConsistencyLevel(MARK_CONSISTENCY));
        } catch (DriverException e) {
            throw failure("mark epoch " + epoch + " of " + sink + " committed", e);
        }
    }

    /** Each exactly-once sink's last committed epoch, beside the records' table. */
    private String commitsTable() {
        return table + "_commits";
    }

    @Override
    public boolean writesAreUpserts() {
        return true;
    }

    /** A plain INSERT: Cassandra writes are upserts; new keys are unique by construction and verification counts rows. */
    @Override
    public void insert(SensorRecord record, byte[] blob) {
        write("insert", record, blob);
    }

    /** Same statement as insert: an UPDATE in CQL is an upsert too; the operator read the row just before. */
    @Override
    public void update(SensorRecord record, byte[] blob) {
        write("update", record, blob);
    }

    private void write(String what, SensorRecord record, byte[] blob) {
        try {
            session.execute(bindWrite(record, blob));
        } catch (DriverException e) {
            throw failure(what + " " + record.id(), e);
        }
    }

    private BoundStatement bindWrite(SensorRecord r, byte[] blob) {
        if (writeStatement == null) {
            prepareStatements();
        }
        return writeStatement
                .bind(
                        r.id(),
                        r.int1(),
                        r.int2(),
                        r.int3(),
                        r.double1(),
                        r.double2(),
                        r.double3(),
                        ByteBuffer.wrap(blob))
                .setConsistencyLevel(writeConsistency);
    }

    /**
     * Counted here over a paged scan of the key column: a server-side {@code COUNT(*)} materialises
     * whole rows, and with 100 KB BLOBs it ran a 1 GB-heap node out of memory.
     */
    @Override
    public long countRows() {
        try {
            long rows = 0;
            for (Row ignored : scan("SELECT id FROM " + table)) {
                rows++;
            }
            return rows;
        } catch (DriverException e) {
            throw failure("count rows", e);
        }
    }

    @Override
    public long countBlobsNotOfLength(int length) {
        ResultSet rows;
        boolean serverSideLength = true;
        try {
            rows = scan("SELECT octet_length(payload) FROM " + table);
        } catch (InvalidQueryException noLengthFunction) {
            // octet_length arrived after Cassandra 5.0; read the BLOBs themselves instead
            rows = scan("SELECT payload FROM " + table);
            serverSideLength = false;
        }
        long wrong = 0;
        for (Row row : rows) {
            int stored = serverSideLength ? row.getInt(0) : row.getByteBuffer(0).remaining();
            if (stored != length) {
                wrong++;
            }
        }
        return wrong;
    }

    private ResultSet scan(String cql) {
        return session.execute(
                SimpleStatement.newInstance(cql).setTimeout(SCAN_TIMEOUT).setPageSize(SCAN_PAGE_ROWS));
    }

    /** CQL has no flush; the suite flushes its own local server over JMX, a cluster needs {@code nodetool flush}. */
    @Override
    public String settle() {
        return "no flush from the client (CQL has none)";
    }

    /** Whether the table exists with exactly the columns (name, type) that {@link #COLUMNS} gives and id as its key. */
    private boolean tableHasTheColumns() {
        List<String> found = new ArrayList<>();
        boolean idIsTheKey = false;
        for (Row row : session.execute(
                "SELECT column_name, type, kind FROM system_schema.columns WHERE keyspace_name = ? AND table_name = ?",
                keyspace.toLowerCase(Locale.ROOT),
                table.substring(keyspace.length() + 1).toLowerCase(Locale.ROOT))) {
            found.add(row.getString("column_name") + " " + row.getString("type"));
            idIsTheKey |= row.getString("column_name").equals("id")
                    && row.getString("kind").equals("partition_key");
        }
        return idIsTheKey && found.size() == COLUMNS.size() && found.containsAll(COLUMNS);
    }

    private boolean truncated(String qualifiedName) {
        try {
            session.execute("TRUNCATE " + qualifiedName);
            return true;
        } catch (DriverException e) {
            return false;
        }
    }

    /** The keyspace's replication as the cluster stores it (the strategy's full class name), empty before it exists. */
    private Map<String, String> keyspaceReplication() {
        Row row = session.execute("SELECT replication FROM system_schema.keyspaces WHERE keyspace_name = ?", keyspace)
                .one();
        return row == null ? Map.of() : row.getMap("replication", String.class, String.class);
    }

    /** The commit log's sync mode from the server's settings table (Cassandra 4.0+), and this connector's consistency levels. */
    @Override
    public Map<String, String> durabilitySettings() {
        Map<String, String> settings = new TreeMap<>();
        settings.put("readConsistency", readConsistency.name());
        settings.put("writeConsistency", writeConsistency.name());
        try {
            settings.put("replication", new TreeMap<>(keyspaceReplication()).toString());
        } catch (DriverException e) {
            settings.put("replication", "unknown (" + e.getMessage() + ")");
        }
        try {
            for (Row row : session.execute("SELECT name, value FROM system_views.settings")) {
                String name = row.getString("name");
                if (name.startsWith("commitlog_sync")) {
                    settings.put(name, row.getString("value"));
                }
            }
        } catch (DriverException e) {
            settings.put("commitlog_sync", "unknown (" + e.getMessage() + ")");
        }
        return settings;
    }

    /**
     * The tasks some of the server's stages completed, from its virtual table
     * {@code system_views.thread_pools} (Cassandra 4.0 on), so an external server's work is seen
     * too: requests from clients, mutations and reads applied, memtables flushed, compactions. A
     * pool starts when it is first used, so one not listed yet has completed nothing.
     */
    @Override
    public Map<String, Long> serverCounters() {
        Map<String, String> byKey = new HashMap<>();
        Map<String, Long> counters = new TreeMap<>();
        for (String pool : COUNTED_POOLS) {
            byKey.put(poolKey(pool), pool);
            counters.put(pool + ".completed_tasks", 0L);
        }
        try {
            for (Row row : session.execute("SELECT name, completed_tasks FROM system_views.thread_pools")) {
                String pool = row.getString("name") == null ? null : byKey.get(poolKey(row.getString("name")));
                if (pool != null && row.getObject("completed_tasks") instanceof Number completed) {
                    counters.put(pool + ".completed_tasks", completed.longValue());
                }
            }
        } catch (DriverException e) {
            throw new DatabaseException(
                    "cassandra: could not read system_views.thread_pools: " + DatabaseException.firstLine(e), e);
        }
        return counters;
    }

    /** A pool's name without case and separators, so it matches however a server version spells it (CamelCase, snake_case, hyphens). */
    private static String poolKey(String name) {
        return name.replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ROOT);
    }

    @Override
    public String serverVersion() {
        return "Apache Cassandra "
                + session.execute("SELECT release_version FROM system.local")
                        .one()
                        .getString(0);
    }

    @Override
    public void close() {
        if (session != null) {
            session.close();
            session = null;
        }
    }

    /** keyspace.table as the settings name them. */
    static String qualifiedTable(DatabaseSettings settings) {
        return settings.identifier("keyspace", "streambench", NAME, LANGUAGE, RESERVED) + "."
                + settings.identifier("table", "sensor_records", NAME, LANGUAGE, RESERVED);
    }

    /** Checks what needs no connection: identifiers, consistency levels, the replication factor. */
    static void checkSettings(DatabaseSettings settings) {
        String url = settings.get("url", "");
        if (!url.isEmpty()) {
            HostPort.parseList(url, DEFAULT_PORT, "url", NAME);
        }
        settings.identifier("keyspace", "streambench", NAME, LANGUAGE, RESERVED);
        settings.identifier("table", "sensor_records", NAME, LANGUAGE, RESERVED);
        settings.identifier("replicationStrategy", "SimpleStrategy", NAME, LANGUAGE);
        for (String key : List.of("readConsistency", "writeConsistency")) {
            String level = settings.get(key, "ONE");
            try {
                DefaultConsistencyLevel.valueOf(level);
            } catch (IllegalArgumentException e) {
                throw new DatabaseException("cassandra: " + key + " '" + level
                        + "' is no consistency level; use e.g. ONE, QUORUM, ALL, LOCAL_QUORUM");
            }
        }
        String factor = settings.get("replicationFactor", "1");
        if (!factor.matches("[1-9][0-9]{0,2}")) {
            throw new DatabaseException(
                    "cassandra: replicationFactor '" + factor + "' must be a whole number from 1 to 999");
        }
    }

    private static DatabaseException failure(String what, DriverException e) {
        return new DatabaseException("cassandra: could not " + what + ": " + e.getMessage(), e);
    }

    public static final class Provider implements DatabaseProvider {
        @Override
        public String name() {
            return "cassandra";
        }

        @Override
        public int order() {
            return 10;
        }

        @Override
        public boolean inStudy() {
            return true;
        }

        @Override
        public Database create() {
            return new CassandraDatabase();
        }

        @Override
        public List<String> settingNames() {
            return List.of(
                    "url",
                    "user",
                    "password",
                    "localDatacenter",
                    "keyspace",
                    "table",
                    "readConsistency",
                    "writeConsistency",
                    "replicationStrategy",
                    "replicationFactor");
        }

        @Override
        public Optional<CeilingTool> ceilingTool() {
            return Optional.of(new LatteCeiling());
        }

        @Override
        public void checkSettings(DatabaseSettings settings) {
            CassandraDatabase.checkSettings(settings);
        }
    }
}
