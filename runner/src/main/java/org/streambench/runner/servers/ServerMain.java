package org.streambench.runner.servers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.streambench.db.Database;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.Databases;

/**
 * The holder JVM of one local server: starts it, publishes the state file once a client has
 * connected and read the server version, and stops it on SIGTERM. Usage: {@code <database> <port> <dir>}.
 */
public final class ServerMain {

    public static void main(String[] args) throws Exception {
        String database = args[0];
        int port = Integer.parseInt(args[1]);
        Path dir = Path.of(args[2]);
        LocalServer server = LocalServer.create(database);
        Path stateFile = dir.resolve(LocalServers.STATE_FILE);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (Exception e) {
                System.err.println("stopping " + database + ": " + e);
            } finally {
                try {
                    Files.deleteIfExists(stateFile);
                } catch (Exception ignored) {
                    // the next start finds a dead PID in it and starts afresh
                }
                stopped.countDown();
            }
        }, "stop-" + database));
        long started = System.nanoTime();
        Map<String, String> settings = server.start(dir, port);
        long startupMillis = (System.nanoTime() - started) / 1_000_000;
        String version;
        try (Database client = Databases.open(database, new DatabaseSettings(settings))) {
            version = client.serverVersion();
        }
        ServerState state = new ServerState(database, ProcessHandle.current().pid(), port, version, startupMillis, settings);
        state.write(stateFile);
        System.out.println(database + " ready on port " + port + " after " + state.startupMillis() + " ms");
        stopped.await();
    }
}
