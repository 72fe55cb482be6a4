package org.streambench.runner.servers;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.streambench.db.Database;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.Databases;
import org.streambench.runner.UserError;

/**
 * Starts, finds and stops the real local database servers. Each runs as its own detached JVM
 * (the server itself, or a {@link ServerMain} holder) with its data under
 * {@code <work>/servers/<database>}; it keeps running after the command that started it, until
 * {@code bench db stop}.
 */
public final class LocalServers {

    static final String STATE_FILE = "server.properties";
    private static final Map<String, ServerKind> KINDS = new TreeMap<>();
    private static final long START_TIMEOUT_SECONDS = 300;
    private static final long STOP_TIMEOUT_SECONDS = 60;

    static {
        for (ServerKind kind : List.of(
                new HolderKind("postgresql", 15432, "jdbc:postgresql://127.0.0.1:%d/postgres", "postgres"),
                new HolderKind("mariadb", 13306, "jdbc:mariadb://127.0.0.1:%d/" + MariaDbServer.DATABASE, "root"),
                new MongoEmulatorKind(),
                new CassandraKind(),
                new HBaseKind())) {
            KINDS.put(kind.database(), kind);
        }
    }

    private final Path root;
    private final PrintWriter out;

    public LocalServers(Path work, PrintWriter out) {
        this.root = work.resolve("servers");
        this.out = out;
    }

    public static boolean supports(String database) {
        return KINDS.containsKey(database);
    }

    public static List<String> supported() {
        return List.copyOf(KINDS.keySet());
    }

    public static int defaultPort(String database) {
        return kind(database).defaultPort();
    }

    /** The running server of this database, if any (a state file whose process is still alive). */
    public Optional<ServerState> running(String database) {
        Path stateFile = dir(database).resolve(STATE_FILE);
        if (!Files.isRegularFile(stateFile)) {
            return Optional.empty();
        }
        try {
            ServerState state = ServerState.read(stateFile);
            return ProcessHandle.of(state.pid()).filter(ProcessHandle::isAlive).map(p -> state);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Starts the server unless it already runs, and returns once a client could connect through
     * the connector and read the server version.
     */
    public ServerState start(String database, int port) {
        ServerKind kind = kind(database);
        Optional<ServerState> existing = running(database);
        if (existing.isPresent()) {
            out.println(database + " already runs on port " + existing.get().port() + " (pid " + existing.get().pid() + "); nothing to do");
            return existing.get();
        }
        requireFreePort(database, port);
        kind.extraPorts(port).forEach(extra -> requireFreePort(database, extra));
        Path dir = dir(database);
        Path log = dir.resolve("server.log");
        try {
            Files.createDirectories(dir);
            Files.deleteIfExists(dir.resolve(STATE_FILE));
            List<String> command = new ArrayList<>(List.of("setsid"));
            command.addAll(kind.command(dir, port));
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            out.println("starting " + database + " on 127.0.0.1:" + port + " (data in " + dir + ") ...");
            long started = System.nanoTime();
            Process server = builder.start();
            try {
                ServerState state = awaitReady(kind, server, port, started, log);
                state.write(dir.resolve(STATE_FILE));
                out.println(database + " ready after " + state.startupMillis() / 1000.0 + " s (pid " + state.pid() + ")");
                if (state.note() != null) {
                    out.println(state.note());
                }
                return state;
            } catch (IOException | RuntimeException | Error | InterruptedException e) {
                server.descendants().forEach(ProcessHandle::destroyForcibly);
                server.destroyForcibly();
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while starting " + database);
        }
    }

    private static ServerState awaitReady(ServerKind kind, Process server, int port, long started, Path log) throws InterruptedException {
        Map<String, String> settings = kind.settings(port);
        long deadline = started + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new UserError(kind.database() + " did not start (exit " + server.exitValue() + "): " + lastLine(log) + "; full log: " + log);
            }
            Optional<String> version = probe(kind.database(), settings);
            if (version.isPresent()) {
                return new ServerState(kind.database(), server.pid(), port, kind.label(version.get()), kind.note(),
                        (System.nanoTime() - started) / 1_000_000, settings);
            }
            Thread.sleep(500);
        }
        throw new UserError(kind.database() + " did not become ready within " + START_TIMEOUT_SECONDS + " s; see " + log);
    }

    private static Optional<String> probe(String database, Map<String, String> settings) {
        try (Database client = Databases.open(database, new DatabaseSettings(settings))) {
            return Optional.of(client.serverVersion());
        } catch (RuntimeException notReady) {
            return Optional.empty();
        }
    }

    /** Stops the server by its PID; returns false if none was running. */
    public boolean stop(String database) {
        kind(database);
        Optional<ServerState> state = running(database);
        if (state.isEmpty()) {
            return false;
        }
        ProcessHandle holder = ProcessHandle.of(state.get().pid()).orElseThrow();
        List<ProcessHandle> children = holder.descendants().toList();
        holder.destroy(); // SIGTERM: the holder's shutdown hook stops the server cleanly
        try {
            holder.onExit().get(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (Exception timeout) {
            out.println(database + " did not stop within " + STOP_TIMEOUT_SECONDS + " s; killing pid " + holder.pid());
            holder.destroyForcibly();
        }
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        try {
            Files.deleteIfExists(dir(database).resolve(STATE_FILE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return true;
    }

    private Path dir(String database) {
        return root.resolve(database);
    }

    private static ServerKind kind(String database) {
        ServerKind kind = KINDS.get(database);
        if (kind == null) {
            throw new UserError("no local server for '" + database + "'; local servers: " + String.join(", ", supported()));
        }
        return kind;
    }

    private static void requireFreePort(String database, int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress("127.0.0.1", port));
        } catch (IOException e) {
            throw new UserError("port " + port + " is in use; start " + database + " on another one with --port");
        }
    }

    private static String lastLine(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            for (int i = lines.size() - 1; i >= 0; i--) {
                if (!lines.get(i).isBlank()) {
                    return lines.get(i).trim();
                }
            }
        } catch (IOException ignored) {
            // no log yet: nothing more to say than the exit code
        }
        return "no output";
    }
}
