package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.streambench.db.Database;
import org.streambench.generator.RecordGenerator;
import org.streambench.operators.Blob;
import org.streambench.servers.LocalServers;
import org.streambench.servers.ServerState;
import org.streambench.servers.TestServers;

/** After the prefill, each database writes out what it holds in memory and logs, so every measured window starts alike. */
@Tag("integration")
class SettleTest {

    private static Database prefilled(String database) {
        Database db = TestServers.open(database);
        db.resetSchema();
        db.prefill(200, RecordGenerator::prefill, i -> Blob.of(1000, 1));
        return db;
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(
            delimiter = '|',
            value = {
                "mariadb|FLUSH TABLES sensor_records FOR EXPORT; UNLOCK TABLES",
                "hbase|flush of table sensor_records",
                "cassandra|no flush from the client (CQL has none)",
            })
    void eachConnectorSettlesOrSaysWhyNot(String database, String expected) {
        try (Database db = prefilled(database)) {
            assertEquals(expected, db.settle());
            assertEquals(200, db.countRows(), "settling changes no data");
        }
    }

    @Test
    void postgresqlCheckpoints() throws Exception {
        Map<String, String> settings = TestServers.start("postgresql").settings();
        try (Connection connection = DriverManager.getConnection(
                        settings.get("url"), settings.get("user"), settings.get("password"));
                Database db = prefilled("postgresql")) {
            long before = requestedCheckpoints(connection);
            assertEquals("CHECKPOINT", db.settle());
            assertEquals(
                    before + 1,
                    requestedCheckpointsOnceCounted(connection, before),
                    "the settle requested a checkpoint");
        }
    }

    /** CQL cannot flush; the suite's own Cassandra is flushed over JMX, and the prefill is then in a new SSTable on disk. */
    @Test
    @SuppressWarnings("try") // the prefilled database is only held open, and closed, by the try
    void theLocalCassandraIsFlushedToSstables() throws Exception {
        ServerState cassandra = TestServers.start("cassandra");
        Path keyspace = TestServers.WORK.resolve("servers/cassandra/data/data/streambench");
        try (Database db = prefilled("cassandra")) {
            Set<Path> before = sstables(keyspace);
            assertEquals(
                    Optional.of("flush of streambench.sensor_records over JMX"),
                    LocalServers.settle(cassandra, cassandra.settings()));
            Set<Path> after = sstables(keyspace);
            after.removeAll(before);
            assertFalse(after.isEmpty(), "the flush wrote the prefill into a new SSTable");
        }
    }

    private static Set<Path> sstables(Path keyspace) throws Exception {
        try (Stream<Path> files = Files.walk(keyspace)) {
            return files.filter(f -> f.getFileName().toString().endsWith("-Data.db"))
                    .collect(Collectors.toCollection(HashSet::new));
        }
    }

    @Test
    void theMongodbEmulatorHasNoFsyncAndSaysSo() {
        try (Database db = prefilled("mongodb")) {
            assertTrue(db.settle().startsWith("nothing settled: the server refused fsync"));
        }
    }

    /**
     * The checkpointer reports its count a moment after CHECKPOINT returns, so this asks until the
     * count has moved past {@code before} (or 10 s have passed).
     */
    private static long requestedCheckpointsOnceCounted(Connection connection, long before) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long count = requestedCheckpoints(connection);
        while (count == before && System.nanoTime() < deadline) {
            Thread.sleep(50);
            count = requestedCheckpoints(connection);
        }
        return count;
    }

    private static long requestedCheckpoints(Connection connection) throws Exception {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT num_requested FROM pg_stat_checkpointer")) {
            row.next();
            return row.getLong(1);
        }
    }
}
