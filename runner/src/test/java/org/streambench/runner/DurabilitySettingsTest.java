package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.streambench.db.Database;
import org.streambench.servers.TestServers;

/** Every local server runs its vendor's default durability, and each connector reports what is in force. */
@Tag("integration")
class DurabilitySettingsTest {

    @ParameterizedTest(name = "{0}: {1} = {2}")
    @CsvSource({
        "postgresql,fsync,on",
        "postgresql,synchronous_commit,on",
        "postgresql,full_page_writes,on",
        "mariadb,innodb_flush_log_at_trx_commit,1",
        "cassandra,commitlog_sync,periodic",
        "cassandra,writeConsistency,ONE",
        "hbase,tableDurability,USE_DEFAULT",
        "mongodb,writeConcern,acknowledged {}",
    })
    void theVendorDefaultIsInForceAndReported(String database, String setting, String expected) {
        try (Database db = TestServers.open(database)) {
            db.resetSchema();
            Map<String, String> durability = db.durabilitySettings();
            assertEquals(expected, durability.get(setting), durability.toString());
        }
    }
}
