package org.streambench.servers;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.streambench.db.Database;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.Databases;
import org.streambench.local.CleanupOnExit;
import org.streambench.local.Lease;
import org.streambench.local.ProcessStopping;
import org.streambench.local.UserError;
import org.streambench.servers.ServerState.ProcessRef;

/**
 * Starts, finds and stops the real local database servers. Each runs as its own detached process
 * (the server itself, or a {@link ServerMain} holder JVM) with its data under
 * {@code <work>/servers/<database>}, listening on 127.0.0.1 only, with a password generated for it
 * and kept in that folder (owner-only). It keeps running after the command that started it,
 * until {@code bench db stop}, unless a run started it for itself.
 */
public final class LocalServers {

    static final String STATE_FILE = "server.properties";
    static final String PASSWORD_FILE = "password";
    /** Held by the run that uses the server (see {@link #lease}). */
    static final String LEASE_FILE = "in-use.lock";

    private static final long START_TIMEOUT_SECONDS = 300;
    private static Map<String, LocalServerKind> kinds;
    private static final long STOP_TIMEOUT_SECONDS = 60;
    private static final long LEFTOVER_STOP_TIMEOUT_SECONDS = 30;

    private final Path root;
    private final PrintWriter out;

    public LocalServers(Path work, PrintWriter out) {
        this.root = work.resolve("servers");
        this.out = out;
    }

    public static boolean supports(String database) {
        return kinds().containsKey(database);
    }

    /** Refuses {@code profile} for a server that cannot run with it: durable, for one that keeps nothing on disk. */
    public static void requireSupported(String database, DbProfile profile) {
        if (profile == DbProfile.DURABLE && !kind(database).keepsDataOnDisk()) {
            throw new UserError(database + " keeps nothing on disk, so it has no " + profile.cliName()
                    + " profile; leave out --db-profile");
        }
    }

    /**
     * Why an audit after {@code --fault kill-db} may count what the killed server itself lost as the
     * pipeline's losses (or, where an exactly-once sink's epoch mark was lost, as records applied
     * twice); empty where the server on {@code profile} keeps every write it acknowledged.
     */
    public static Optional<String> killLosesAcknowledgedWrites(String database, DbProfile profile) {
        LocalServerKind kind = kind(database);
        if (!kind.keepsDataOnDisk()) {
            return Optional.of(database + " keeps nothing on disk: killed, it starts again empty, and the audit"
                    + " counts every record stored before the kill as lost");
        }
        if (kind.keepsAcknowledgedWritesThroughAKill(profile)) {
            return Optional.empty();
        }
        return Optional.of(database + " on its " + profile.cliName() + " profile may lose writes it acknowledged"
                + " when it is killed, and the audit counts them against the pipeline; --db-profile durable keeps"
                + " every one");
    }

    /** The databases with a local server, in the connectors' order (a server whose connector is missing last). */
    public static List<String> supported() {
        List<String> inOrder = new ArrayList<>(Databases.names());
        inOrder.retainAll(kinds().keySet());
        kinds().keySet().stream()
                .filter(database -> !inOrder.contains(database))
                .forEach(inOrder::add);
        return inOrder;
    }

    public static int defaultPort(String database) {
        return kind(database).defaultPort();
    }

    /** The most client connections the suite's server of {@code database} takes; empty when it sets no limit. */
    public static OptionalInt maxConnections(String database) {
        return kind(database).maxConnections();
    }

    /** Every port the server of {@code database} binds when started on {@code port}. */
    public static List<Integer> ports(String database, int port) {
        List<Integer> ports = new ArrayList<>(List.of(port));
        ports.addAll(kind(database).extraPorts(port));
        return ports;
    }

    /** The connector settings that a server of {@code database} started with {@code profile} adds to its own. */
    public static Map<String, String> profileSettings(String database, DbProfile profile) {
        return kind(database).profileSettings(profile);
    }

    /**
     * The lease of the local server of {@code database} for one run: a run resets the server's
     * schema and may stop it, so two runs never share one; a second is refused in one line.
     */
    public Lease lease(String database) {
        return Lease.take(
                dir(database).resolve(LEASE_FILE),
                "the local " + database + " server",
                "wait for that run to end, or give this one a work folder of its own (STREAMBENCH_WORK) or an external"
                        + " server (--db-url)");
    }

    /** The data folder of the server of {@code database}. */
    public Path dir(String database) {
        return root.resolve(database);
    }

    /** The server of this database, if any of its processes still runs (also one whose launcher was killed). */
    public Optional<ServerState> running(String database) {
        Path stateFile = dir(database).resolve(STATE_FILE);
        if (!Files.isRegularFile(stateFile)) {
            return Optional.empty();
        }
        try {
            ServerState state = ServerState.read(stateFile);
            return state.alive().isEmpty() ? Optional.empty() : Optional.of(state);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The server's state if it was started for one run whose runner is gone (killed before it could stop it). */
    public static boolean leftByDeadRun(ServerState state) {
        return state.owner() != null && !state.owner().alive();
    }

    /** Starts the server unless it runs, for as long as the user wants (until {@code bench db stop}). */
    public ServerState start(String database, int port, String portOption, DbProfile profile) {
        return start(database, port, portOption, profile, false);
    }

    /**
     * Starts the server unless it already runs, and returns once a client could connect through
     * the connector and read the server version. With {@code forThisRun}, this runner owns a server
     * it starts (and one a killed run left behind), and must stop it: {@link ServerState#owner}.
     * A running server of another profile is refused ({@link #requireProfile}).
     */
    public ServerState start(String database, int port, String portOption, DbProfile profile, boolean forThisRun) {
        LocalServerKind kind = kind(database);
        requireSupported(database, profile);
        ProcessRef self = ProcessRef.of(ProcessHandle.current());
        Optional<ServerState> existing = running(database);
        if (existing.isPresent()) {
            ServerState state = existing.get();
            requireProfile(state, profile);
            if (leftByDeadRun(state)) {
                out.println(database + " was left running by a run that was killed (pid "
                        + state.owner().pid() + "); "
                        + (forThisRun ? "this run takes it over and stops it at its end" : "it keeps running now"));
                state = state.withOwner(forThisRun ? self : null);
                writeState(database, state);
            } else {
                out.println(
                        database + " already runs on port " + state.port() + " (pid " + state.pid() + "); using it");
            }
            return state;
        }
        for (int each : ports(database, port)) {
            requireFreePort(database, each, portOption);
        }
        Path dir = dir(database);
        Path log = dir.resolve("server.log");
        try {
            createPrivateDirectory(dir);
            Files.deleteIfExists(dir.resolve(STATE_FILE));
            Files.deleteIfExists(dir.resolve(ServerMain.READY_FILE));
            String password = password(dir);
            List<String> command = new ArrayList<>(List.of("setsid"));
            command.addAll(kind.command(dir, port, password, profile));
            Map<String, String> settings = new TreeMap<>(kind.settings(port, password));
            settings.putAll(profileSettings(database, profile));
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            out.println("starting " + database + " on 127.0.0.1:" + port
                    + (profile == DbProfile.DEFAULT ? "" : " with the " + profile.cliName() + " profile")
                    + " (data in " + dir + ") ...");
            long started = System.nanoTime();
            requireNotExiting(database);
            Process server = builder.start();
            // published at once, so that an interrupted start can still be found and stopped
            writeState(
                    database,
                    new ServerState(
                            database,
                            List.of(ProcessRef.of(server.toHandle())),
                            port,
                            "starting",
                            kind.note(),
                            0,
                            settings,
                            profile,
                            forThisRun ? self : null));
            try {
                // the runner's clean-up may have looked for this server before its state was written
                requireNotExiting(database);
                String version = awaitReady(kind, server, dir, port, password, started, log);
                List<ProcessRef> processes = new ArrayList<>(List.of(ProcessRef.of(server.toHandle())));
                server.descendants().map(ProcessRef::of).forEach(processes::add);
                ServerState state = new ServerState(
                        database,
                        List.copyOf(processes),
                        port,
                        kind.label(version),
                        kind.note(),
                        (System.nanoTime() - started) / 1_000_000,
                        settings,
                        profile,
                        forThisRun ? self : null);
                writeState(database, state);
                out.println(
                        database + " ready after " + state.startupMillis() / 1000.0 + " s (pid " + state.pid() + ")");
                if (state.note() != null) {
                    out.println(state.note());
                }
                return state;
            } catch (RuntimeException | Error | InterruptedException e) {
                server.descendants().forEach(ProcessHandle::destroyForcibly);
                server.destroyForcibly();
                Files.deleteIfExists(dir.resolve(STATE_FILE));
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while starting " + database);
        }
    }

    /** A runner that is being interrupted starts no server: its clean-up would not stop it. */
    private static void requireNotExiting(String database) {
        if (CleanupOnExit.exiting()) {
            throw new UserError("interrupted while starting " + database);
        }
    }

    /** Refuses a server that runs with another profile than {@code profile}: it may serve someone else, so it is not restarted. */
    public static void requireProfile(ServerState running, DbProfile profile) {
        if (running.profile() != profile) {
            throw new UserError(running.database() + " already runs with the "
                    + running.profile().cliName()
                    + " profile (pid " + running.pid() + ", port " + running.port() + "), not "
                    + profile.cliName() + "; stop it first with ./bench db stop " + running.database());
        }
    }

    private void writeState(String database, ServerState state) {
        try {
            state.write(dir(database).resolve(STATE_FILE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String awaitReady(
            LocalServerKind kind, Process server, Path dir, int port, String password, long started, Path log)
            throws InterruptedException {
        long deadline = started + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new UserError(kind.database() + " did not start (exit " + server.exitValue() + "): "
                        + lastLine(log) + "; full log: " + log);
            }
            // asked again each time: once secured, the server takes the generated password only (Cassandra's
            // credentials cache may refuse it for a moment after the change, and the default one for good)
            Map<String, String> probeSettings = kind.probeSettings(dir, port, password);
            Optional<String> answered =
                    kind.launcherDone(dir) ? probe(kind.database(), probeSettings) : Optional.empty();
            if (answered.isPresent()) {
                kind.secure(dir, probeSettings, password);
                Map<String, String> settings = kind.settings(port, password);
                // a client's connection costs a second or two (HBase's, Cassandra's): asked again only if it changed
                Optional<String> version = probeSettings.equals(settings) ? answered : probe(kind.database(), settings);
                if (version.isPresent()) {
                    return version.get();
                }
            }
            Thread.sleep(500);
        }
        throw new UserError(
                kind.database() + " did not become ready within " + START_TIMEOUT_SECONDS + " s; see " + log);
    }

    /** The server side of settling a database after the prefill (see {@link LocalServerKind#settle}). */
    public static Optional<String> settle(ServerState state, Map<String, String> settings) {
        return kind(state.database()).settle(state.port(), settings);
    }

    private static Optional<String> probe(String database, Map<String, String> settings) {
        try (Database client = Databases.open(database, new DatabaseSettings(settings))) {
            return Optional.of(client.serverVersion());
        } catch (RuntimeException notReady) {
            return Optional.empty();
        }
    }

    /**
     * Stops every process of the server: the one the suite launched first (SIGTERM, so it shuts down
     * cleanly), then any it left behind (a database whose holder JVM was killed); SIGKILL after a
     * timeout. Returns false if none was running.
     */
    public boolean stop(String database) {
        kind(database);
        if (Lease.heldElsewhere(dir(database).resolve(LEASE_FILE))) {
            throw new UserError("the local " + database + " server is in use by a run; stop that run first (it stops a"
                    + " server it started itself at its end)");
        }
        Optional<ServerState> state = running(database);
        if (state.isEmpty()) {
            return false;
        }
        List<ProcessRef> processes = state.get().processes();
        processes.get(0).handle().ifPresent(launched -> {
            signal(launched, kind(database).stopSignal());
            ProcessStopping.terminate(out, database, List.of(launched), STOP_TIMEOUT_SECONDS);
        });
        List<ProcessHandle> leftovers = processes.stream()
                .map(ProcessRef::handle)
                .flatMap(Optional::stream)
                .toList();
        if (!leftovers.isEmpty()) {
            ProcessStopping.terminate(out, database, leftovers, LEFTOVER_STOP_TIMEOUT_SECONDS);
        }
        try {
            Files.deleteIfExists(dir(database).resolve(STATE_FILE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return true;
    }

    /** Sends a signal other than SIGTERM (which {@link ProcessHandle#destroy} sends) with kill(1). */
    public static void signal(ProcessHandle process, String signal) {
        if (signal.equals("TERM")) {
            return;
        }
        try {
            new ProcessBuilder("kill", "-s", signal, Long.toString(process.pid()))
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start()
                    .waitFor(10, TimeUnit.SECONDS);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The password generated for this server on its first start, kept in its folder, readable by the owner only. */
    public static String password(Path dir) throws IOException {
        Path file = dir.resolve(PASSWORD_FILE);
        if (Files.isRegularFile(file)) {
            return Files.readString(file).trim();
        }
        String alphabet = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
        SecureRandom random = new SecureRandom();
        StringBuilder password = new StringBuilder();
        for (int i = 0; i < 24; i++) {
            password.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        writePrivate(file, password.toString());
        return password.toString();
    }

    public static void writePrivate(Path file, String content) throws IOException {
        Files.deleteIfExists(file);
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, content);
    }

    public static void createPrivateDirectory(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    }

    /** Found once per JVM: the built server modules do not change while it runs. */
    private static synchronized Map<String, LocalServerKind> kinds() {
        if (kinds == null) {
            kinds = LocalServerKinds.load();
        }
        return kinds;
    }

    private static LocalServerKind kind(String database) {
        LocalServerKind kind = kinds().get(database);
        if (kind == null) {
            throw new UserError(
                    "no local server for '" + database + "'; local servers: " + String.join(", ", supported()));
        }
        return kind;
    }

    private static void requireFreePort(String database, int port, String portOption) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        } catch (IOException e) {
            throw new UserError(
                    "port " + port + " is in use; start " + database + " on another one with " + portOption);
        }
    }

    /** The last line of the log that says something: a stack trace's deepest cause, not its last frame. */
    private static String lastLine(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            for (int i = lines.size() - 1; i >= 0; i--) {
                String line = lines.get(i).trim();
                if (!line.isEmpty() && !line.startsWith("at ") && !(line.startsWith("...") && line.endsWith("more"))) {
                    return line;
                }
            }
        } catch (IOException ignored) {
            // no log yet: nothing more to say than the exit code
        }
        return "no output";
    }
}
