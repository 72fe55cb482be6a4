package org.streambench.servers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The holder JVM of one in-JVM local server: starts it and stops it on SIGTERM. The runner
 * decides readiness by connecting through the connector. A server module's main calls {@link
 * #hold} with the arguments {@code <database> <port> <dir> <profile>}; the password is read from
 * the server's folder, so it never appears in ps.
 */
public final class ServerMain {

    /** Written into the server's folder once the server is started and secured; the runner waits for it. */
    public static final String READY_FILE = "holder.ready";

    private ServerMain() {}

    /** The holder's arguments for a server of {@code database} on {@code port} with its data in {@code dir}. */
    public static List<String> arguments(String database, int port, Path dir, DbProfile profile) {
        return List.of(database, Integer.toString(port), dir.toString(), profile.cliName());
    }

    public static void hold(LocalServer server, String[] args) throws Exception {
        String database = args[0];
        int port = Integer.parseInt(args[1]);
        Path dir = Path.of(args[2]);
        DbProfile profile = DbProfile.parse("profile", args[3]);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                server.close();
                            } catch (Exception e) {
                                System.err.println("stopping " + database + ": " + e);
                            } finally {
                                stopped.countDown();
                            }
                        },
                        "stop-" + database));
        server.start(dir, port, LocalServers.password(dir), profile);
        Files.writeString(dir.resolve(READY_FILE), "ready\n");
        System.out.println(database + " started on port " + port);
        stopped.await();
    }
}
