package org.streambench.db.mariadb;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.streambench.db.Database;
import org.streambench.generator.Keys;
import org.streambench.generator.SensorRecord;
import org.streambench.servers.TestServers;

/** The connector's calls travel as server-side prepared statements with binary values, as pgjdbc's do. */
@Tag("integration")
class MariaDbServerPreparedStatementsTest {

    private static final int RECORDS = 50;

    @Test
    void everyCallIsAServerSidePreparedStatementExecution() throws SQLException {
        Map<String, String> settings = TestServers.start("mariadb").settings();
        try (Database db = TestServers.open("mariadb");
                Connection observer = DriverManager.getConnection(
                        settings.get("url"), settings.get("user"), settings.get("password"))) {
            db.resetSchema();
            db.prepareStatements();
            long before = executions(observer);
            for (int i = 0; i < RECORDS; i++) {
                SensorRecord record = new SensorRecord(Keys.fresh(7, 0, i), i, i, i, i, i, i);
                db.insert(record, new byte[10_000]);
                db.read(record.id());
            }
            long executed = executions(observer) - before;
            assertTrue(executed >= 2 * RECORDS, executed + " server-side executions for " + 2 * RECORDS + " calls");
        }
    }

    private static long executions(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet status = statement.executeQuery("SHOW GLOBAL STATUS LIKE 'Com_stmt_execute'")) {
            status.next();
            return status.getLong(2);
        }
    }
}
