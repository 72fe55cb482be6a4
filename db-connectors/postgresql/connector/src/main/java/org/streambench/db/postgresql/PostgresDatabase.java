package org.streambench.db.postgresql;

import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Collectors;
import org.streambench.db.CeilingTool;
import org.streambench.db.Database;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.jdbc.JdbcDatabase;

/** PostgreSQL through the official JDBC driver; the BLOB is a BYTEA (TOASTed above ~2 KB). */
public final class PostgresDatabase extends JdbcDatabase {

    @Override
    protected String name() {
        return "postgresql";
    }

    @Override
    protected String idType() {
        return "CHAR(12)";
    }

    private static final Set<String> RESERVED =
            DatabaseSettings.reservedWords(PostgresDatabase.class, "reserved-words.txt");

    @Override
    protected Set<String> reservedWords() {
        return RESERVED;
    }

    @Override
    protected String blobType() {
        return "BYTEA";
    }

    /** CHECKPOINT needs a superuser or (PostgreSQL 15+) the pg_checkpoint role. */
    @Override
    protected List<String> settleStatements(String table) {
        return List.of("CHECKPOINT");
    }

    @Override
    protected String upsertClause(List<String> columns) {
        return " ON CONFLICT (id) DO UPDATE SET "
                + columns.stream().map(c -> c + " = EXCLUDED." + c).collect(Collectors.joining(", "));
    }

    @Override
    protected String durabilityQuery() {
        return "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes', 'wal_sync_method')";
    }

    /** pg_stat_wal's WAL records, full-page images and bytes; pg_stat_database's commits, blocks read and found in shared buffers. */
    @Override
    protected String countersQuery() {
        return "SELECT 'wal_records', wal_records FROM pg_stat_wal"
                + " UNION ALL SELECT 'wal_fpi', wal_fpi FROM pg_stat_wal"
                + " UNION ALL SELECT 'wal_bytes', wal_bytes::bigint FROM pg_stat_wal"
                + " UNION ALL SELECT 'xact_commit', xact_commit FROM pg_stat_database WHERE datname = current_database()"
                + " UNION ALL SELECT 'blks_read', blks_read FROM pg_stat_database WHERE datname = current_database()"
                + " UNION ALL SELECT 'blks_hit', blks_hit FROM pg_stat_database WHERE datname = current_database()";
    }

    @Override
    protected Properties driverProperties() {
        Properties properties = new Properties();
        properties.setProperty("reWriteBatchedInserts", "true");
        properties.setProperty(
                "socketTimeout", "60"); // seconds: a vanished server fails the call instead of hanging it
        return properties;
    }

    public static final class Provider extends JdbcDatabase.Provider {
        @Override
        public String name() {
            return "postgresql";
        }

        @Override
        public int order() {
            return 40;
        }

        @Override
        public boolean inStudy() {
            return true;
        }

        @Override
        public Database create() {
            return new PostgresDatabase();
        }

        @Override
        public Optional<CeilingTool> ceilingTool() {
            return Optional.of(new PgbenchCeiling());
        }
    }
}
