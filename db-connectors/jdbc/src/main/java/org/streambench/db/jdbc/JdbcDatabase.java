package org.streambench.db.jdbc;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongFunction;
import org.streambench.db.Database;
import org.streambench.db.DatabaseException;
import org.streambench.db.DatabaseProvider;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.StoredRecord;
import org.streambench.generator.SensorRecord;

/**
 * One table, primary key on the 12-character id, the six values as columns and the BLOB in one
 * binary column. Settings: {@code url} (any JDBC URL of the driver), {@code user},
 * {@code password}, {@code table} (default {@value #DEFAULT_TABLE}).
 */
public abstract class JdbcDatabase implements Database {

    public static final String DEFAULT_TABLE = "sensor_records";
    private static final String COLUMNS = "id, int_1, int_2, int_3, double_1, double_2, double_3, payload";
    private static final List<String> VALUE_COLUMNS =
            List.of("int_1", "int_2", "int_3", "double_1", "double_2", "double_3", "payload");
    /** Prefill batches are cut at this many BLOB bytes, so 100 KB BLOBs do not build huge batches. */
    private static final long PREFILL_BATCH_BYTES = 8L << 20;

    private static final int PREFILL_BATCH_ROWS = 1000;

    private Connection connection;
    private String table;
    private PreparedStatement readStatement;
    private PreparedStatement insertStatement;
    private boolean upsertInserts;
    private PreparedStatement updateStatement;
    /** The exactly-once sinks whose row in the commits table exists (it is created once, before their first commit). */
    private final Set<String> sinksWithARow = new HashSet<>();
    /** A sink's epoch before its first commit: every epoch is at least 0. */
    private static final long NO_EPOCH = -1;
    /** readAll's statements, by the number of ids they take. */
    private final Map<Integer, PreparedStatement> readAllStatements = new HashMap<>();

    /** Name used in messages and on the command line. */
    protected abstract String name();

    /** Column type for the 12-character id. */
    protected abstract String idType();

    /** Column type that holds BLOBs of at least 100,000 bytes. */
    protected abstract String blobType();

    /** The words the database's SQL reserves: no table may be named so. */
    protected abstract Set<String> reservedWords();

    /** The driver properties the connector sets (statement protocol, batching, timeouts); the user and password are added. */
    protected abstract Properties driverProperties();

    @Override
    public void open(DatabaseSettings settings) {
        String url = settings.require("url", name());
        table = settings.identifier("table", DEFAULT_TABLE, name(), "SQL", reservedWords());
        Properties properties = driverProperties();
        properties.setProperty("user", settings.get("user", ""));
        properties.setProperty("password", settings.get("password", ""));
        try {
            DriverManager.setLoginTimeout(10);
            connection = DriverManager.getConnection(url, properties);
            connection.setAutoCommit(true);
        } catch (SQLException e) {
            throw new DatabaseException(
                    "cannot connect to " + name() + " at " + url + ": " + DatabaseException.firstLine(e), e);
        }
    }

    /** What every JDBC connector's provider shares: the settings it reads and their checks. */
    public abstract static class Provider implements DatabaseProvider {

        @Override
        public List<String> settingNames() {
            return List.of("url", "user", "password", "table");
        }

        /** Checks what needs no connection: the table name. */
        @Override
        public void checkSettings(DatabaseSettings settings) {
            JdbcDatabase database = (JdbcDatabase) create();
            settings.identifier("table", DEFAULT_TABLE, name(), "SQL", database.reservedWords());
        }
    }

    @Override
    public void resetSchema() {
        try (Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
            statement.execute("DROP TABLE IF EXISTS " + commitsTable());
            statement.execute("CREATE TABLE " + table + " (id " + idType() + " PRIMARY KEY,"
                    + " int_1 INTEGER NOT NULL, int_2 INTEGER NOT NULL, int_3 INTEGER NOT NULL,"
                    + " double_1 DOUBLE PRECISION NOT NULL, double_2 DOUBLE PRECISION NOT NULL, double_3 DOUBLE PRECISION NOT NULL,"
                    + " payload " + blobType() + " NOT NULL)");
            statement.execute(
                    "CREATE TABLE " + commitsTable() + " (sink VARCHAR(64) PRIMARY KEY, epoch BIGINT NOT NULL)");
            sinksWithARow.clear();
        } catch (SQLException e) {
            throw failure("reset the schema", e);
        }
        closeStatements();
    }

    @Override
    public void prefill(long count, LongFunction<SensorRecord> recordAt, LongFunction<byte[]> blobAt) {
        try (PreparedStatement insert = connection.prepareStatement(insertSql())) {
            connection.setAutoCommit(false);
            long batchBytes = 0;
            int batchRows = 0;
            for (long i = 0; i < count; i++) {
                byte[] blob = blobAt.apply(i);
                bindAll(insert, recordAt.apply(i), blob);
                insert.addBatch();
                batchBytes += blob.length;
                if (++batchRows == PREFILL_BATCH_ROWS || batchBytes >= PREFILL_BATCH_BYTES) {
                    insert.executeBatch();
                    connection.commit();
                    batchBytes = 0;
                    batchRows = 0;
                }
            }
            insert.executeBatch();
            connection.commit();
        } catch (SQLException e) {
            throw failure("prefill " + count + " keys", e);
        } finally {
            try {
                connection.setAutoCommit(true);
            } catch (SQLException ignored) {
                // the connection is broken; the failure above says why
            }
        }
    }

    @Override
    public void prepareStatements() {
        try {
            if (readStatement == null) {
                readStatement = connection.prepareStatement(
                        "SELECT int_1, int_2, int_3, double_1, double_2, double_3, payload FROM " + table
                                + " WHERE id = ?");
            }
            if (insertStatement == null) {
                insertStatement = connection.prepareStatement(
                        upsertInserts ? insertSql() + upsertClause(VALUE_COLUMNS) : insertSql());
            }
            if (updateStatement == null) {
                updateStatement = connection.prepareStatement(
                        "UPDATE " + table
                                + " SET int_1 = ?, int_2 = ?, int_3 = ?, double_1 = ?, double_2 = ?, double_3 = ?, payload = ? WHERE id = ?");
            }
        } catch (SQLException e) {
            throw failure("prepare the statements", e);
        }
    }

    @Override
    public Optional<StoredRecord> read(String id) {
        if (readStatement == null) {
            prepareStatements();
        }
        try {
            readStatement.setString(1, id);
            try (ResultSet rs = readStatement.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                SensorRecord record = new SensorRecord(
                        id,
                        rs.getInt(1),
                        rs.getInt(2),
                        rs.getInt(3),
                        rs.getDouble(4),
                        rs.getDouble(5),
                        rs.getDouble(6));
                return Optional.of(new StoredRecord(record, rs.getBytes(7)));
            }
        } catch (SQLException e) {
            throw failure("read " + id, e);
        }
    }

    @Override
    public void insert(SensorRecord record, byte[] blob) {
        if (insertStatement == null) {
            prepareStatements();
        }
        try {
            bindAll(insertStatement, record, blob);
            insertStatement.executeUpdate();
        } catch (SQLException e) {
            throw failure("insert " + record.id(), e);
        }
    }

    @Override
    public void update(SensorRecord record, byte[] blob) {
        if (updateStatement == null) {
            prepareStatements();
        }
        int changed;
        try {
            bindValues(updateStatement, 1, record);
            updateStatement.setBytes(7, blob);
            updateStatement.setString(8, record.id());
            changed = updateStatement.executeUpdate();
        } catch (SQLException e) {
            throw failure("update " + record.id(), e);
        }
        if (changed != 1) {
            throw new DatabaseException(
                    name() + ": update of " + record.id() + " changed " + changed + " rows, expected 1");
        }
    }

    /** One SELECT ... WHERE id IN (...) for the batch (statements kept by the number of ids). */
    @Override
    public Map<String, StoredRecord> readAll(Collection<String> ids) {
        Map<String, StoredRecord> found = new HashMap<>();
        if (ids.isEmpty()) {
            return found;
        }
        try {
            PreparedStatement statement = readAllStatements.get(ids.size());
            if (statement == null) {
                statement = connection.prepareStatement(
                        "SELECT id, int_1, int_2, int_3, double_1, double_2, double_3, payload FROM " + table
                                + " WHERE id IN (" + String.join(", ", Collections.nCopies(ids.size(), "?")) + ")");
                readAllStatements.put(ids.size(), statement);
            }
            int index = 1;
            for (String id : ids) {
                statement.setString(index++, id);
            }
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    String id = rs.getString(1);
                    SensorRecord record = new SensorRecord(
                            id,
                            rs.getInt(2),
                            rs.getInt(3),
                            rs.getInt(4),
                            rs.getDouble(5),
                            rs.getDouble(6),
                            rs.getDouble(7));
                    found.put(id, new StoredRecord(record, rs.getBytes(8)));
                }
            }
            return found;
        } catch (SQLException e) {
            throw failure("read a batch of " + ids.size() + " keys", e);
        }
    }

    /**
     * The batch's inserts and updates as JDBC batches (the driver rewrites them into multi-row
     * statements where it can), in one transaction: one commit per batch. An update that changed no
     * row fails the batch, as a single update would.
     */
    @Override
    public void writeAll(List<Write> writes) {
        if (!writes.isEmpty()) {
            inTransaction("write a batch of " + writes.size() + " records", () -> {
                addBatches(writes);
                return true;
            });
        }
    }

    @Override
    public boolean commitsEpochs() {
        return true;
    }

    /**
     * The sink's row of the commits table is read with a lock ({@code FOR UPDATE}), so the epoch
     * check and the writes are one transaction: a commit either stores the writes and the epoch, or
     * neither. The row is created before, on its own: a locking read of a missing row locks a gap
     * on MariaDB, and two sinks' first commits would then deadlock on their inserts.
     */
    @Override
    public boolean commitEpoch(String sink, long epoch, List<Write> writes) {
        String what = "commit epoch " + epoch + " of " + sink + " (" + writes.size() + " records)";
        if (!sinksWithARow.contains(sink)) {
            try (PreparedStatement count =
                            connection.prepareStatement("SELECT COUNT(*) FROM " + commitsTable() + " WHERE sink = ?");
                    PreparedStatement insert = connection.prepareStatement(
                            "INSERT INTO " + commitsTable() + " (sink, epoch) VALUES (?, " + NO_EPOCH + ")")) {
                count.setString(1, sink);
                long rows;
                try (ResultSet result = count.executeQuery()) {
                    result.next();
                    rows = result.getLong(1);
                }
                if (rows == 0) {
                    insert.setString(1, sink);
                    insert.executeUpdate();
                }
            } catch (SQLException e) {
                throw failure(what, e);
            }
            sinksWithARow.add(sink);
        }
        return inTransaction(what, () -> {
            long committed;
            try (PreparedStatement select =
                    connection.prepareStatement("SELECT epoch FROM " + commitsTable() + " WHERE sink = ? FOR UPDATE")) {
                select.setString(1, sink);
                try (ResultSet row = select.executeQuery()) {
                    row.next();
                    committed = row.getLong(1);
                }
            }
            if (committed >= epoch) {
                return false;
            }
            addBatches(writes);
            try (PreparedStatement mark =
                    connection.prepareStatement("UPDATE " + commitsTable() + " SET epoch = ? WHERE sink = ?")) {
                mark.setLong(1, epoch);
                mark.setString(2, sink);
                mark.executeUpdate();
            }
            return true;
        });
    }

    private interface TransactionBody {
        /** Returns whether to commit; false rolls back. */
        boolean run() throws SQLException;
    }

    private boolean inTransaction(String what, TransactionBody body) {
        if (insertStatement == null) {
            prepareStatements();
        }
        try {
            connection.setAutoCommit(false);
            boolean commit = body.run();
            if (commit) {
                connection.commit();
            } else {
                connection.rollback();
            }
            return commit;
        } catch (SQLException e) {
            rollbackQuietly();
            throw failure(what, e);
        } catch (RuntimeException e) {
            rollbackQuietly();
            throw e;
        } finally {
            try {
                connection.setAutoCommit(true);
            } catch (SQLException ignored) {
                // the connection is broken; the failure says why
            }
        }
    }

    /** Before setAutoCommit(true), which would commit what part of a transaction got in. */
    private void rollbackQuietly() {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // the connection is broken; the failure says why
        }
    }

    private void addBatches(List<Write> writes) throws SQLException {
        int inserts = 0;
        List<String> updated = new ArrayList<>();
        for (Write write : writes) {
            if (write.insert()) {
                bindAll(insertStatement, write.record(), write.blob());
                insertStatement.addBatch();
                inserts++;
            } else {
                bindValues(updateStatement, 1, write.record());
                updateStatement.setBytes(7, write.blob());
                updateStatement.setString(8, write.record().id());
                updateStatement.addBatch();
                updated.add(write.record().id());
            }
        }
        if (inserts > 0) {
            insertStatement.executeBatch();
        }
        if (!updated.isEmpty()) {
            int[] changed = updateStatement.executeBatch();
            for (int i = 0; i < changed.length; i++) {
                if (changed[i] != 1 && changed[i] != Statement.SUCCESS_NO_INFO) {
                    throw new DatabaseException(name() + ": update of " + updated.get(i) + " in a batch changed "
                            + changed[i] + " rows, expected 1");
                }
            }
        }
    }

    /** Each exactly-once sink's last committed epoch ({@link #commitEpoch}), beside the records' table. */
    private String commitsTable() {
        return table + "_commits";
    }

    @Override
    public long countRows() {
        return queryLong("SELECT COUNT(*) FROM " + table, null);
    }

    @Override
    public long countBlobsNotOfLength(int length) {
        return queryLong("SELECT COUNT(*) FROM " + table + " WHERE OCTET_LENGTH(payload) <> ?", length);
    }

    /** The statements that write out the table's pages (run in order on this connection). */
    protected abstract List<String> settleStatements(String table);

    @Override
    public String settle() {
        List<String> statements = settleStatements(table);
        try (Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        } catch (SQLException e) {
            throw failure("settle after the prefill (" + String.join("; ", statements) + ")", e);
        }
        return String.join("; ", statements);
    }

    /** A query of (name, value) rows: the server's durability settings. */
    protected abstract String durabilityQuery();

    @Override
    public Map<String, String> durabilitySettings() {
        Map<String, String> settings = new TreeMap<>();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(durabilityQuery())) {
            while (rows.next()) {
                settings.put(rows.getString(1).toLowerCase(Locale.ROOT), rows.getString(2));
            }
        } catch (SQLException e) {
            throw failure("read the durability settings", e);
        }
        return settings;
    }

    /** A query of (name, value) rows: the server's cumulative counters of its work; null for none. */
    protected String countersQuery() {
        return null;
    }

    @Override
    public Map<String, Long> serverCounters() {
        String query = countersQuery();
        if (query == null) {
            return Map.of();
        }
        Map<String, Long> counters = new TreeMap<>();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(query)) {
            while (rows.next()) {
                counters.put(
                        rows.getString(1).toLowerCase(Locale.ROOT),
                        Long.parseLong(rows.getString(2).trim()));
            }
        } catch (SQLException e) {
            throw failure("read the server's counters", e);
        }
        return counters;
    }

    @Override
    public String serverVersion() {
        try {
            return connection.getMetaData().getDatabaseProductName() + " "
                    + connection.getMetaData().getDatabaseProductVersion();
        } catch (SQLException e) {
            throw failure("read the server version", e);
        }
    }

    @Override
    public void close() {
        closeStatements();
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // closing a broken connection has nothing left to report
            }
            connection = null;
        }
    }

    /**
     * What turns the insert statement into this dialect's upsert: a key already stored gets
     * {@code columns} from the inserted row (PostgreSQL's {@code ON CONFLICT ... DO UPDATE},
     * MariaDB's {@code ON DUPLICATE KEY UPDATE}).
     */
    protected abstract String upsertClause(List<String> columns);

    @Override
    public boolean upsertInserts() {
        upsertInserts = true;
        if (insertStatement != null) {
            closeStatements();
        }
        return true;
    }

    private String insertSql() {
        return "INSERT INTO " + table + " (" + COLUMNS + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    }

    private static void bindAll(PreparedStatement statement, SensorRecord record, byte[] blob) throws SQLException {
        statement.setString(1, record.id());
        bindValues(statement, 2, record);
        statement.setBytes(8, blob);
    }

    private static void bindValues(PreparedStatement statement, int first, SensorRecord record) throws SQLException {
        statement.setInt(first, record.int1());
        statement.setInt(first + 1, record.int2());
        statement.setInt(first + 2, record.int3());
        statement.setDouble(first + 3, record.double1());
        statement.setDouble(first + 4, record.double2());
        statement.setDouble(first + 5, record.double3());
    }

    private long queryLong(String sql, Integer parameter) {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            if (parameter != null) {
                statement.setInt(1, parameter);
            }
            try (ResultSet rs = statement.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw failure("run " + sql, e);
        }
    }

    private void closeStatements() {
        for (PreparedStatement statement : new PreparedStatement[] {readStatement, insertStatement, updateStatement}) {
            if (statement != null) {
                try {
                    statement.close();
                } catch (SQLException ignored) {
                    // a statement of a broken connection; nothing to recover
                }
            }
        }
        readStatement = null;
        insertStatement = null;
        updateStatement = null;
        for (PreparedStatement statement : readAllStatements.values()) {
            try {
                statement.close();
            } catch (SQLException ignored) {
                // a statement of a broken connection; nothing to recover
            }
        }
        readAllStatements.clear();
    }

    /**
     * PostgreSQL's failed batch says the whole rewritten statement, every value and BLOB of the
     * batch in one message, and the reason in its next exception: the reason is what a run says.
     */
    private DatabaseException failure(String what, SQLException e) {
        SQLException reason =
                e instanceof BatchUpdateException && e.getNextException() != null ? e.getNextException() : e;
        return new DatabaseException(name() + ": could not " + what + ": " + DatabaseException.firstLine(reason), e);
    }
}
