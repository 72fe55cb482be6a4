package org.streambench.runner.servers;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.streambench.runner.Home;
import org.streambench.runner.UserError;

/**
 * Starts, finds and stops the real local database servers. Each runs in its own detached holder
 * JVM ({@link ServerMain}) with its data under {@code <work>/servers/<database>}; it keeps
 * running after the command that started it, until {@code bench db stop}.
 */
public final class LocalServers {

    static final String STATE_FILE = "server.properties";
    private static final Map<String, Integer> DEFAULT_PORTS = new TreeMap<>(Map.of("postgresql", 15432, "mariadb", 13306));
    private static final long START_TIMEOUT_SECONDS = 300;
    private static final long STOP_TIMEOUT_SECONDS = 60;

    private final Path root;
    private final PrintWriter out;

    public LocalServers(Path work, PrintWriter out) {
        this.root = work.resolve("servers");
        this.out = out;
    }

    public static boolean supports(String database) {
        return DEFAULT_PORTS.containsKey(database);
    }

    public static List<String> supported() {
        return List.copyOf(DEFAULT_PORTS.keySet());
    }

    public static int defaultPort(String database) {
        return DEFAULT_PORTS.get(database);
    }

    /** The running server of this database, if any (a state file whose holder is still alive). */
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

    /** Starts the server unless it already runs; returns its state either way. */
    public ServerState start(String database, int port) {
        requireSupported(database);
        Optional<ServerState> existing = running(database);
        if (existing.isPresent()) {
            out.println(database + " already runs on port " + existing.get().port() + " (pid " + existing.get().pid() + "); nothing to do");
            return existing.get();
        }
        requireFreePort(database, port);
        Path dir = dir(database);
        Path log = dir.resolve("server.log");
        try {
            Files.createDirectories(dir);
            Files.deleteIfExists(dir.resolve(STATE_FILE));
            ProcessBuilder builder = new ProcessBuilder("setsid", Home.javaExecutable(), "-Xmx512m",
                    "-cp", Home.classpathOf("runner"), ServerMain.class.getName(), database, Integer.toString(port), dir.toString())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            out.println("starting " + database + " on 127.0.0.1:" + port + " (data in " + dir + ") ...");
            Process holder = builder.start();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
            while (System.nanoTime() < deadline) {
                Optional<ServerState> state = running(database);
                if (state.isPresent()) {
                    out.println(database + " ready after " + state.get().startupMillis() / 1000.0 + " s (pid " + state.get().pid() + ")");
                    return state.get();
                }
                if (!holder.isAlive()) {
                    throw new UserError(database + " did not start (exit " + holder.exitValue() + "): " + lastLine(log) + "; full log: " + log);
                }
                Thread.sleep(200);
            }
            holder.descendants().forEach(ProcessHandle::destroyForcibly);
            holder.destroyForcibly();
            throw new UserError(database + " did not become ready within " + START_TIMEOUT_SECONDS + " s; see " + log);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while starting " + database);
        }
    }

    /** Stops the server by its PID; returns false if none was running. */
    public boolean stop(String database) {
        requireSupported(database);
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

    private static void requireSupported(String database) {
        if (!supports(database)) {
            throw new UserError("no local server for '" + database + "'; local servers: " + String.join(", ", supported()));
        }
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
