package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.streambench.db.Database;
import org.streambench.generator.Keys;
import org.streambench.generator.SensorRecord;
import org.streambench.operators.Blob;

/**
 * The BLOB reaches the disk at its full size: PostgreSQL compresses values above ~2 KB (pglz) when
 * it can, so the bytes it stores per value show whether the 10,000 B and 100,000 B runs store what
 * they claim to.
 */
class BlobStorageTest {

    private static final int RECORDS = 40;

    @ParameterizedTest
    @ValueSource(ints = {10_000, 100_000})
    void postgresqlStoresEveryBlobByte(int blobBytes) throws Exception {
        Map<String, String> settings = TestServers.start("postgresql").settings();
        try (Database db = TestServers.open("postgresql")) {
            db.resetSchema();
            byte[] blob = Blob.of(blobBytes, 1);
            for (int i = 0; i < RECORDS; i++) {
                db.insert(new SensorRecord(Keys.fresh(5, 0, i), 1, 2, 3, 1, 2, 3), blob);
            }
        }
        try (Connection connection = DriverManager.getConnection(settings.get("url"), settings.get("user"), settings.get("password"));
             Statement statement = connection.createStatement();
             ResultSet stored = statement.executeQuery("SELECT count(*), sum(pg_column_size(payload)) FROM sensor_records")) {
            stored.next();
            assertEquals(RECORDS, stored.getLong(1));
            long bytes = stored.getLong(2);
            assertTrue(bytes >= 0.9 * RECORDS * blobBytes, "PostgreSQL stores " + bytes + " B for " + RECORDS + " x " + blobBytes + " B");
        }
    }
}
