package org.streambench.db.postgresql;

import java.util.List;
import java.util.Properties;
import org.streambench.db.Database;
import org.streambench.db.DatabaseProvider;
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

    @Override
    protected String blobType() {
        return "BYTEA";
    }

    @Override
    protected String durabilityQuery() {
        return "SELECT name, setting FROM pg_settings WHERE name IN ('fsync', 'synchronous_commit', 'full_page_writes', 'wal_sync_method')";
    }

    @Override
    protected Properties batchProperties() {
        Properties properties = new Properties();
        properties.setProperty("reWriteBatchedInserts", "true");
        properties.setProperty("socketTimeout", "60"); // seconds: a vanished server fails the call instead of hanging it
        return properties;
    }

    public static final class Provider implements DatabaseProvider {
        @Override
        public String name() {
            return "postgresql";
        }

        @Override
        public Database create() {
            return new PostgresDatabase();
        }

        @Override
        public List<String> settingNames() {
            return JdbcDatabase.SETTINGS;
        }

        @Override
        public void checkSettings(DatabaseSettings settings) {
            JdbcDatabase.checkSettings(name(), settings);
        }
    }
}
