package org.streambench.runner;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.streambench.db.Database;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.Databases;
import org.streambench.runner.servers.DbProfile;
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

    private TestServers() {}

    static synchronized ServerState start(String database) {
        if (servers == null) {
            servers = new LocalServers(WORK, new PrintWriter(System.out, true));
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(() -> RUNNING.keySet().forEach(servers::stop)));
        }
        // Cassandra and HBase also bind port + 1 and port + 2
        return RUNNING.computeIfAbsent(
                database, name -> servers.start(name, freePortWithTwoFreeNeighbours(), "--port", DbProfile.DEFAULT));
    }

    static synchronized void stop(String database) {
        if (RUNNING.remove(database) != null) {
            servers.stop(database);
        }
    }

    static Database open(String database) {
        return Databases.open(database, new DatabaseSettings(start(database).settings()));
    }

    private static int freePortWithTwoFreeNeighbours() {
        for (int attempt = 0; attempt < 50; attempt++) {
            int port = freePort();
            if (port < 65534 && isFree(port + 1) && isFree(port + 2)) {
                return port;
            }
        }
        throw new IllegalStateException("found no three consecutive free ports");
    }

    private static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port)) {
            return true;
        } catch (IOException taken) {
            return false;
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A test's body that may throw anything a test may. */
    interface TestBody {
        void run() throws Exception;
    }

    /** Runs {@code test} with the suite's work folder (local servers, monitoring) at {@code work}. */
    static void withWork(Path work, TestBody test) throws Exception {
        String previous = System.getProperty("streambench.work");
        System.setProperty("streambench.work", work.toString());
        try {
            test.run();
        } finally {
            if (previous == null) {
                System.clearProperty("streambench.work");
            } else {
                System.setProperty("streambench.work", previous);
            }
        }
    }

    /** The run options that point a run at {@code postgres}, a server the tests started. */
    static List<String> postgresArgs(ServerState postgres) {
        return List.of(
                "--db-url",
                postgres.settings().get("url"),
                "--db-user",
                "postgres",
                "--db-password",
                postgres.settings().get("password"));
    }
}
