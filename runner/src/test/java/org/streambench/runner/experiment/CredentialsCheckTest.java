package org.streambench.runner.experiment;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.streambench.local.UserError;

/**
 * Credentials for --db-url go to a connector that reads them, each on its own: a database with a
 * password but no user (Hazelcast: the cluster's name) takes --db-password and --db-password-file,
 * one with neither (HBase) refuses both, before anything starts.
 */
class CredentialsCheckTest {

    private static ConnectionOptions external(String url) {
        ConnectionOptions options = new ConnectionOptions();
        options.url = url;
        options.profile = "default"; // picocli's default
        return options;
    }

    @Test
    void aDatabaseWithAPasswordButNoUserTakesThePasswordAndRefusesAUser(@TempDir Path tmp) throws Exception {
        ConnectionOptions password = external("hazelcast://127.0.0.1:5701");
        password.password = "the-cluster";
        assertDoesNotThrow(() -> DatabaseSession.check("hazelcast", password));

        ConnectionOptions passwordFile = external("hazelcast://127.0.0.1:5701");
        passwordFile.passwordFile = Files.writeString(tmp.resolve("cluster"), "the-cluster");
        assertDoesNotThrow(() -> DatabaseSession.check("hazelcast", passwordFile));

        ConnectionOptions user = external("hazelcast://127.0.0.1:5701");
        user.user = "admin";
        assertEquals("database hazelcast takes no --db-user", refusal("hazelcast", user));
    }

    @Test
    void aDatabaseWithoutCredentialsRefusesEither() {
        ConnectionOptions user = external("127.0.0.1:2181");
        user.user = "admin";
        assertEquals("database hbase takes no --db-user", refusal("hbase", user));
        ConnectionOptions password = external("127.0.0.1:2181");
        password.password = "secret";
        assertEquals("database hbase takes no --db-password", refusal("hbase", password));
    }

    private static String refusal(String database, ConnectionOptions options) {
        return assertThrows(UserError.class, () -> DatabaseSession.check(database, options))
                .getMessage();
    }

    @Test
    void mongodbSaysWhereItsCredentialsGo() {
        ConnectionOptions user = external("mongodb://127.0.0.1:27017/streambench");
        user.user = "admin";
        assertEquals(
                "database mongodb takes no --db-user; put the credentials into the mongodb:// URI of --db-url",
                refusal("mongodb", user));
    }
}
