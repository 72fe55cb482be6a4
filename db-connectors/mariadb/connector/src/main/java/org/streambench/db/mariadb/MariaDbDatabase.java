package org.streambench.db.mariadb;

import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import org.streambench.db.CeilingTool;
import org.streambench.db.Database;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.jdbc.JdbcDatabase;

/** MariaDB through the official JDBC driver; MEDIUMBLOB because BLOB stops at 64 KB. */
public final class MariaDbDatabase extends JdbcDatabase {

    @Override
    protected String name() {
        return "mariadb";
    }

    @Override
    protected String idType() {
        // ASCII with binary collation: keys compare byte-wise and the index stays compact
        return "CHAR(12) CHARACTER SET ascii COLLATE ascii_bin";
    }

    private static final Set<String> RESERVED =
            DatabaseSettings.reservedWords(MariaDbDatabase.class, "reserved-words.txt");

    @Override
    protected Set<String> reservedWords() {
        return RESERVED;
    }

    @Override
    protected String blobType() {
        return "MEDIUMBLOB";
    }

    /**
     * FOR EXPORT makes InnoDB write the table's dirty pages to disk; the user needs RELOAD for it (a
     * user without it gets "Access denied; you need ... the RELOAD privilege", and the run goes on unsettled).
     */
    @Override
    protected List<String> settleStatements(String table) {
        return List.of("FLUSH TABLES " + table + " FOR EXPORT", "UNLOCK TABLES");
    }

    @Override
    protected String upsertClause(List<String> columns) {
        return " ON DUPLICATE KEY UPDATE "
                + columns.stream().map(c -> c + " = VALUES(" + c + ")").collect(Collectors.joining(", "));
    }

    @Override
    protected String durabilityQuery() {
        return "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('innodb_flush_log_at_trx_commit', 'sync_binlog', 'log_bin',"
                + " 'innodb_doublewrite', 'innodb_flush_method')";
    }

    /** InnoDB's redo log and data bytes written, its fsyncs, buffer pool reads from disk and requests, and commits. */
    @Override
    protected String countersQuery() {
        return "SHOW GLOBAL STATUS WHERE Variable_name IN ('Innodb_os_log_written', 'Innodb_data_written',"
                + " 'Innodb_data_fsyncs', 'Innodb_buffer_pool_reads', 'Innodb_buffer_pool_read_requests', 'Com_commit')";
    }

    @Override
    protected Properties driverProperties() {
        Properties properties = new Properties();
        // Connector/J 3 otherwise prepares on the client and sends the BLOB escaped inside the SQL text;
        // pgjdbc and sysbench use server-side statements with binary values (58 % more updates of
        // 10,000 B here: docs/measurements/2026-11-25-ceiling.md)
        properties.setProperty("useServerPrepStmts", "true");
        properties.setProperty("useBulkStmts", "true");
        // the driver's cache would hand a statement prepared on a table the reset dropped to the next
        // prefill, whose bulk insert then fails with an empty error; the connector keeps its own statements
        properties.setProperty("cachePrepStmts", "false");
        properties.setProperty("socketTimeout", "60000"); // ms: a vanished server fails the call instead of hanging it
        return properties;
    }

    public static final class Provider extends JdbcDatabase.Provider {
        @Override
        public String name() {
            return "mariadb";
        }

        @Override
        public int order() {
            return 50;
        }

        @Override
        public boolean inStudy() {
            return true;
        }

        @Override
        public Database create() {
            return new MariaDbDatabase();
        }

        @Override
        public Optional<CeilingTool> ceilingTool() {
            return Optional.of(new SysbenchCeiling());
        }
    }
}
