package org.streambench.runner;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.streambench.db.Database;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.Databases;
import org.streambench.runner.servers.LocalServers;
import org.streambench.runner.servers.ServerState;

/**
 * Real database servers for the tests, started once per test JVM on free ports, with their data
 * under target/test-work (never the user's work/), and stopped by PID when the JVM ends.
 */
final class TestServers {

    static final Path WORK = Path.of("target", "test-work").toAbsolutePath();
    private static final Map<String, ServerState> RUNNING = new HashMap<>();
    private static LocalServers servers;

    static {
        System.setProperty("streambench.work", WORK.toString());
    }

    private TestServers() {
    }

    static synchronized ServerState start(String database) {
        if (servers == null) {
            servers = new LocalServers(WORK, new PrintWriter(System.out, true));
            Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.keySet().forEach(servers::stop)));
        }
        return RUNNING.computeIfAbsent(database, name -> servers.start(name, freePort()));
    }

    static synchronized void stop(String database) {
        if (RUNNING.remove(database) != null) {
            servers.stop(database);
        }
    }

    static LocalServers servers() {
        return servers;
    }

    static Database open(String database) {
        return Databases.open(database, new DatabaseSettings(start(database).settings()));
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
