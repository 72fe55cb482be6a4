package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.streambench.db.Database;
import org.streambench.db.DatabaseException;
import org.streambench.db.StoredRecord;
import org.streambench.generator.Keys;
import org.streambench.generator.SensorRecord;

/**
 * What the connector SPI promises for a key in the wrong state, held against every connector on
 * its real server: a duplicate insert and an update of a missing key fail, unless the connector
 * says its writes are upserts, and then they store the record.
 */
@Tag("integration")
class ConnectorContractTest {

    private static final SensorRecord FIRST = new SensorRecord(Keys.fresh(5, 0, 0), 1, 2, 3, 0.5, 1.5, 2.5);
    private static final SensorRecord SECOND = new SensorRecord(FIRST.id(), 7, 8, 9, -0.5, -1.5, -2.5);
    private static final byte[] FIRST_BLOB = {1, 2, 3};
    private static final byte[] SECOND_BLOB = {4, 5, 6};

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb", "cassandra", "hbase", "mongodb"})
    void aDuplicateInsertFailsUnlessWritesAreUpserts(String database) {
        try (Database db = TestServers.open(database)) {
            db.resetSchema();
            db.insert(FIRST, FIRST_BLOB);
            if (db.writesAreUpserts()) {
                db.insert(SECOND, SECOND_BLOB);
                assertStored(db, SECOND, SECOND_BLOB);
            } else {
                assertThrows(DatabaseException.class, () -> db.insert(SECOND, SECOND_BLOB));
                assertStored(db, FIRST, FIRST_BLOB);
            }
            assertEquals(1, db.countRows());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"postgresql", "mariadb", "cassandra", "hbase", "mongodb"})
    void anUpdateOfAMissingKeyFailsUnlessWritesAreUpserts(String database) {
        try (Database db = TestServers.open(database)) {
            db.resetSchema();
            if (db.writesAreUpserts()) {
                db.update(FIRST, FIRST_BLOB);
                assertStored(db, FIRST, FIRST_BLOB);
                assertEquals(1, db.countRows());
            } else {
                assertThrows(DatabaseException.class, () -> db.update(FIRST, FIRST_BLOB));
                assertFalse(db.read(FIRST.id()).isPresent(), "a failed update stored nothing");
                assertEquals(0, db.countRows());
            }
        }
    }

    private static void assertStored(Database db, SensorRecord expected, byte[] blob) {
        StoredRecord stored = db.read(expected.id()).orElseThrow();
        assertEquals(expected, stored.record());
        assertArrayEquals(blob, stored.blob());
    }
}
