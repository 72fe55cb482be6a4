package org.streambench.db.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.datastax.oss.driver.api.core.CqlSession;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.streambench.db.Database;
import org.streambench.db.DatabaseContract;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.Databases;
import org.streambench.db.HostPort;
import org.streambench.generator.Keys;
import org.streambench.generator.RecordGenerator;
import org.streambench.servers.TestServers;

/** The connector SPI's contract, against the suite's Cassandra. */
class CassandraContractTest extends DatabaseContract {

    @Override
    protected Database open() {
        return TestServers.open("cassandra");
    }

    /**
     * A keyspace that an earlier run created with another replication factor gets this run's at the
     * reset (CREATE KEYSPACE IF NOT EXISTS alone kept the old one), and the run records what the
     * cluster holds.
     */
    @Test
    void theResetSetsTheReplicationTheSettingsAskForAndTheRunRecordsIt() {
        for (String factor : new String[] {"2", "1"}) {
            Map<String, String> settings =
                    new HashMap<>(TestServers.start("cassandra").settings());
            settings.put("keyspace", "streambench_replication");
            settings.put("replicationFactor", factor);
            try (Database database = Databases.open("cassandra", new DatabaseSettings(settings))) {
                database.resetSchema();
                assertEquals(
                        "{class=org.apache.cassandra.locator.SimpleStrategy, replication_factor=" + factor + "}",
                        database.durabilitySettings().get("replication"));
            }
        }
    }

    /**
     * A reset empties a table that has the run's columns in place (TRUNCATE: a schema change costs
     * about a second each), and makes a table with other columns anew.
     */
    @Test
    void theResetEmptiesATableOfTheRunsColumnsInPlaceAndMakesAnyOtherAnew() {
        Map<String, String> settings =
                new HashMap<>(TestServers.start("cassandra").settings());
        settings.put("keyspace", "streambench_reset");
        HostPort server = HostPort.parseList(settings.get("url"), 9042, "url", "cassandra")
                .get(0);
        try (Database database = Databases.open("cassandra", new DatabaseSettings(settings));
                CqlSession session = CqlSession.builder()
                        .addContactPoint(server.address())
                        .withLocalDatacenter(settings.get("localDatacenter"))
                        .withAuthCredentials(settings.get("user"), settings.get("password"))
                        .build()) {
            database.resetSchema();
            UUID made = tableId(session);
            database.prefill(5, RecordGenerator::prefill, i -> new byte[] {1});
            database.resetSchema();
            assertEquals(made, tableId(session), "a table of the run's columns is emptied, not made anew");
            assertEquals(0, database.countRows());

            session.execute("ALTER TABLE streambench_reset.sensor_records ADD extra int");
            database.resetSchema();
            assertNotEquals(made, tableId(session), "a table with other columns is made anew");
            assertFalse(session
                    .execute("SELECT column_name FROM system_schema.columns WHERE keyspace_name ="
                            + " 'streambench_reset' AND table_name = 'sensor_records'")
                    .all()
                    .stream()
                    .anyMatch(row -> row.getString("column_name").equals("extra")));
            database.prepareStatements();
            database.prefill(3, RecordGenerator::prefill, i -> new byte[] {2});
            assertEquals(3, database.countRows());
            assertTrue(database.read(Keys.existing(2)).isPresent());
        }
    }

    private static UUID tableId(CqlSession session) {
        return session.execute("SELECT id FROM system_schema.tables WHERE keyspace_name = 'streambench_reset'"
                        + " AND table_name = 'sensor_records'")
                .one()
                .getUuid("id");
    }
}
