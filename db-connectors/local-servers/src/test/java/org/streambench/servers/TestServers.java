package org.streambench.servers;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import org.streambench.db.Database;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.Databases;
import org.streambench.local.Home;
import org.streambench.local.Lease;
import org.streambench.local.UserError;

/**
 * Real database servers for the tests, started once per test JVM on free ports, with their data
 * under the module's target/test-work (never the user's work/; with two test JVMs per module,
 * target/test-work-N for the one Surefire numbers N > 1, so test JVMs never share a server's files),
 * and stopped by PID when the JVM
 * ends. Shared as a test-jar: the runner's tests and each connector's contract test use it.
 */
public final class TestServers {

    public static final Path WORK = Path.of(
                    "target",
                    workFolder(
                            System.getProperty("streambench.testFork", "1"),
                            System.getProperty("streambench.testForks", "")))
            .toAbsolutePath();
    private static final Map<String, ServerState> RUNNING = new HashMap<>();
    private static LocalServers servers;

    /**
     * Held while this JVM lives, so that the next ./bench knows a killed test run by its lease being
     * free; referenced here, as an unreachable channel is closed, and its lock released, by the JVM.
     */
    @SuppressWarnings("unused")
    private static final Lease WORK_LEASE = holdWork();

    static {
        System.setProperty("streambench.work", WORK.toString());
    }

    private TestServers() {}

    /**
     * Surefire's fork number, from the parent POM's argLine; a JVM that Surefire did not fork has none and is fork 1.
     * With one test JVM per module ({@code forks} "1"), the module's one folder: in a parallel reactor build
     * Surefire numbers forks across modules (SUREFIRE-956), so the runner's JVM was fork 2 in one CI lane and 1
     * in the other, and the second lane built its swarm images and class archives again.
     */
    static String workFolder(String forkNumber, String forks) {
        if (!forkNumber.matches("[1-9][0-9]*")) {
            // an unresolved placeholder would let two forks share one folder, and so one server
            throw new IllegalStateException("streambench.testFork is '" + forkNumber + "', not a fork number");
        }
        return forkNumber.equals("1") || forks.equals("1") ? "test-work" : "test-work-" + forkNumber;
    }

    private static Lease holdWork() {
        try {
            return Lease.take(WORK.resolve(Home.TEST_WORK_LEASE), "the test work folder " + WORK, "");
        } catch (UserError heldByAnotherTestJvm) {
            // a JVM this one started, on the same folder: its holder protects the folder as long as it lives
            return null;
        }
    }

    /**
     * Records {@code work}, a work folder of a test's own (servers, a swarm or YARN started there), so
     * that the next ./bench also stops what runs from it if this JVM is killed before it can.
     */
    public static synchronized void registerWork(Path work) {
        try {
            Files.createDirectories(WORK);
            Files.writeString(
                    WORK.resolve(Home.TEST_WORK_OTHERS),
                    work.toAbsolutePath() + "\n",
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static synchronized ServerState start(String database) {
        if (servers == null) {
            servers = new LocalServers(WORK, new PrintWriter(System.out, true));
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(() -> RUNNING.keySet().forEach(servers::stop)));
        }
        // Cassandra and HBase also bind port + 1 and port + 2
        return RUNNING.computeIfAbsent(
                database, name -> servers.start(name, freePortWithTwoFreeNeighbours(), "--port", DbProfile.DEFAULT));
    }

    public static synchronized void stop(String database) {
        if (RUNNING.remove(database) != null) {
            servers.stop(database);
        }
    }

    public static Database open(String database) {
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

    /** Whether a socket can listen on {@code port}: no process holds it. */
    public static boolean isFree(int port) {
        try (ServerSocket socket = new ServerSocket(port)) {
            return socket.isBound();
        } catch (IOException taken) {
            return false;
        }
    }

    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
