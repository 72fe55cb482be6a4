package org.streambench.runner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.streambench.db.DatabaseException;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.Databases;
import org.streambench.servers.ServerState;
import org.streambench.servers.TestServers;

/** The suite's local servers listen on loopback only and let in only the suite, with the password generated for them. */
@Tag("integration")
class ServerSecurityTest {

    @ParameterizedTest
    @MethodSource("org.streambench.runner.Registries#databases")
    void everyLocalServerListensOnLoopbackOnly(String database) throws IOException {
        ServerState state = TestServers.start(database);
        List<String> listening = new ArrayList<>();
        for (ServerState.ProcessRef process : state.alive()) {
            listening.addAll(Processes.listeningAddresses(process.pid()));
        }
        assertTrue(
                listening.stream().anyMatch(a -> a.endsWith(":" + state.port())),
                database + " listens on its port: " + listening);
        assertTrue(
                listening.stream().allMatch(Processes::isLoopback),
                database + " listens beyond loopback: " + listening);
    }

    @ParameterizedTest
    @MethodSource("org.streambench.runner.Registries#databases")
    void localServersWithAPasswordRefuseAWrongOrMissingOne(String database) {
        Map<String, String> secured = TestServers.start(database).settings();
        assumeTrue(secured.containsKey("password"), database + "'s local server has no password (an emulator)");
        for (String password : List.of("wrong", "")) {
            Map<String, String> settings = new HashMap<>(secured);
            settings.put("password", password);
            assertThrows(
                    DatabaseException.class,
                    () -> Databases.open(database, new DatabaseSettings(settings))
                            .close(),
                    database + " let in a client with password '" + password + "'");
        }
        Databases.open(database, new DatabaseSettings(secured)).close(); // the suite gets in
    }

    /** The vendors' default accounts, which the suite's servers replace or secure. */
    @ParameterizedTest(name = "{0} as ''{1}'' with password ''{2}''")
    @CsvSource({
        "postgresql,postgres,wrong",
        "postgresql,postgres,''",
        "mariadb,streambench,wrong",
        "mariadb,root,''",
        "cassandra,cassandra,cassandra",
        "cassandra,'',''"
    })
    void localServersRefuseAnyoneWithoutTheGeneratedPassword(String database, String user, String password) {
        Map<String, String> settings = new HashMap<>(TestServers.start(database).settings());
        settings.put("user", user);
        settings.put("password", password);
        assertThrows(DatabaseException.class, () -> Databases.open(database, new DatabaseSettings(settings))
                .close());
        Databases.open(
                        database,
                        new DatabaseSettings(TestServers.start(database).settings()))
                .close(); // the suite gets in
    }

    @Test
    void passwordsAndServerStateAreTheOwnersOnlyAndTheServerListensOnLoopbackTcpOnly() throws IOException {
        ServerState state = TestServers.start("postgresql");
        Path dir = TestServers.WORK.resolve("servers").resolve("postgresql");
        assertEquals("rwx------", permissions(dir));
        assertEquals("rw-------", permissions(dir.resolve("password")));
        assertEquals("rw-------", permissions(dir.resolve("server.properties")));
        assertEquals(
                state.settings().get("password"),
                Files.readString(dir.resolve("password")).trim());
        String log = Files.readString(dir.resolve("server.log"));
        assertFalse(log.contains(state.settings().get("password")));
        assertTrue(log.contains("listening on IPv4 address \"127.0.0.1\""), log);
        assertFalse(log.contains("Unix socket"), log); // TCP only, whatever the checkout's path length
    }

    private static String permissions(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }
}
