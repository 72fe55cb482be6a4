package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.streambench.db.Database;
import org.streambench.generator.Keys;
import org.streambench.generator.SensorRecord;
import org.streambench.operators.Blob;
import org.streambench.servers.LocalServers;
import org.streambench.servers.ServerState;
import org.streambench.servers.TestServers;

/**
 * The BLOB reaches the disk at its full size: PostgreSQL compresses values above ~2 KB (pglz),
 * Cassandra compresses SSTables (LZ4) and HBase and InnoDB could, when the bytes let them; so the
 * bytes each database stores for a run must grow by about records x BLOB size. (The MongoDB
 * emulator is left out: its storage says nothing about MongoDB's.)
 */
@Tag("integration")
class BlobStorageTest {

    private static final int RECORDS = 40;
    /** Enough that InnoDB's extent-wise file growth and HBase's block overhead are small against the BLOBs. */
    private static final int MANY_RECORDS = 100;

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
        try (Connection connection = DriverManager.getConnection(
                        settings.get("url"), settings.get("user"), settings.get("password"));
                Statement statement = connection.createStatement();
                ResultSet stored =
                        statement.executeQuery("SELECT count(*), sum(pg_column_size(payload)) FROM sensor_records")) {
            stored.next();
            assertEquals(RECORDS, stored.getLong(1));
            long bytes = stored.getLong(2);
            assertTrue(
                    bytes >= 0.9 * RECORDS * blobBytes,
                    "PostgreSQL stores " + bytes + " B for " + RECORDS + " x " + blobBytes + " B");
        }
    }

    /** InnoDB grows the table's own tablespace file as it allocates pages, flushed or not. */
    @ParameterizedTest
    @ValueSource(ints = {10_000, 100_000})
    void mariadbStoresEveryBlobByte(int blobBytes) throws Exception {
        TestServers.start("mariadb");
        Path file = TestServers.WORK.resolve("servers/mariadb/data/streambench/sensor_records.ibd");
        try (Database db = TestServers.open("mariadb")) {
            db.resetSchema();
            long before = Files.size(file);
            insert(db, blobBytes, MANY_RECORDS);
            long grown = Files.size(file) - before;
            assertTrue(
                    grown >= 0.9 * MANY_RECORDS * blobBytes,
                    "MariaDB's tablespace grew by " + grown + " B for " + MANY_RECORDS + " x " + blobBytes + " B");
        }
    }

    /** After a flush the rows are in SSTables, compressed with LZ4 by default. */
    @ParameterizedTest
    @ValueSource(ints = {10_000, 100_000})
    void cassandraStoresEveryBlobByte(int blobBytes) throws Exception {
        ServerState cassandra = TestServers.start("cassandra");
        Path keyspace = TestServers.WORK.resolve("servers/cassandra/data/data/streambench");
        try (Database db = TestServers.open("cassandra")) {
            db.resetSchema();
            long before = bytesOf(
                    keyspace,
                    f -> f.getFileName().toString().endsWith("-Data.db")
                            && !f.toString().contains("/snapshots/"));
            insert(db, blobBytes, MANY_RECORDS);
            assertTrue(LocalServers.settle(cassandra, cassandra.settings()).isPresent(), "flushed over JMX");
            long grown = bytesOf(
                            keyspace,
                            f -> f.getFileName().toString().endsWith("-Data.db")
                                    && !f.toString().contains("/snapshots/"))
                    - before;
            assertTrue(
                    grown >= 0.9 * MANY_RECORDS * blobBytes,
                    "Cassandra's SSTables grew by " + grown + " B for " + MANY_RECORDS + " x " + blobBytes + " B");
        }
    }

    /** After a flush the rows are in the table's store files (HFiles). */
    @ParameterizedTest
    @ValueSource(ints = {10_000, 100_000})
    void hbaseStoresEveryBlobByte(int blobBytes) throws Exception {
        TestServers.start("hbase");
        Path table = TestServers.WORK.resolve("servers/hbase/data/hbase/data/default/sensor_records");
        try (Database db = TestServers.open("hbase")) {
            db.resetSchema();
            long before = bytesOf(table, BlobStorageTest::isStoreFile);
            insert(db, blobBytes, MANY_RECORDS);
            db.settle();
            long grown = bytesOf(table, BlobStorageTest::isStoreFile) - before;
            assertTrue(
                    grown >= 0.9 * MANY_RECORDS * blobBytes,
                    "HBase's store files grew by " + grown + " B for " + MANY_RECORDS + " x " + blobBytes + " B");
        }
    }

    /** A file of a column family: region/family/file, not the region's bookkeeping (.regioninfo, .tmp, recovered.edits). */
    private static boolean isStoreFile(Path file) {
        Path family = file.getParent();
        return !file.getFileName().toString().startsWith(".")
                && !file.toString().contains("/.tmp/")
                && family != null
                && !family.getFileName().toString().startsWith(".")
                && !family.getFileName().toString().equals("recovered.edits");
    }

    private static void insert(Database db, int blobBytes, int records) {
        Blob.Pool blobs = Blob.pool(blobBytes, 1);
        for (int i = 0; i < records; i++) {
            String id = Keys.fresh(5, 0, i);
            db.insert(new SensorRecord(id, 1, 2, 3, 1, 2, 3), blobs.forKey(id));
        }
    }

    private static long bytesOf(Path dir, Predicate<Path> counted) throws Exception {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .filter(counted)
                    .mapToLong(f -> {
                        try {
                            return Files.size(f);
                        } catch (java.io.IOException gone) {
                            return 0; // compacted away meanwhile
                        }
                    })
                    .sum();
        }
    }
}
