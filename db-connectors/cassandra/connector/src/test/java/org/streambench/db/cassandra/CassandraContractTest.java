package org.streambench.db.cassandra;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.streambench.db.Database;
import org.streambench.db.DatabaseContract;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.Databases;
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
}
