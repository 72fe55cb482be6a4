package org.streambench.runner.experiment;

import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.streambench.db.Database;
import org.streambench.db.DatabaseException;
import org.streambench.db.DatabaseProvider;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.Databases;
import org.streambench.local.CleanupOnExit;
import org.streambench.local.Home;
import org.streambench.local.Lease;
import org.streambench.local.UserError;
import org.streambench.operators.AccessMode;
import org.streambench.operators.ExperimentSpec;
import org.streambench.operators.Fault;
import org.streambench.runner.monitor.ProcessUsage;
import org.streambench.servers.LocalServers;
import org.streambench.servers.ServerState;

/**
 * The database of a command: reached by its settings, or the suite's local server, started here
 * if it is not running (and stopped again at the end unless --keep-db).
 */
public final class DatabaseSession implements AutoCloseable {

    private static final int PROBE_SECONDS = 20;
    private static final int KILLED_GONE_SECONDS = 10;

    private final String name;
    private final DatabaseProvider provider;
    private final Map<String, String> settings;
    /** The connection, opened again when the server was started again since ({@link #restartServer}); guarded by this. */
    private Database database;

    private int connectedAtStart;
    private final LocalServers servers;
    private final boolean stopServerOnClose;
    /** The suite's own server (null for an external one) and how often it was started again: shared with {@link #withAddedSettings}. */
    private final AtomicReference<ServerState> localServer;

    private final AtomicInteger serverStarts;
    private final CleanupOnExit.Registration stopServerOnExit;
    /** This run's lease of the suite's local server, or null for an external one. */
    private final Lease lease;

    private DatabaseSession(
            String name,
            DatabaseProvider provider,
            Map<String, String> settings,
            Database database,
            LocalServers servers,
            boolean stopServerOnClose,
            AtomicReference<ServerState> localServer,
            AtomicInteger serverStarts,
            CleanupOnExit.Registration stopServerOnExit,
            Lease lease) {
        this.name = name;
        this.provider = provider;
        this.settings = settings;
        this.database = database;
        this.servers = servers;
        this.stopServerOnClose = stopServerOnClose;
        this.localServer = localServer;
        this.serverStarts = serverStarts;
        this.connectedAtStart = serverStarts.get();
        this.stopServerOnExit = stopServerOnExit;
        this.lease = lease;
    }

    static DatabaseProvider provider(String name) {
        return Databases.provider(name)
                .orElseThrow(() -> new UserError("unknown database '" + name + "'; use one of: " + known()));
    }

    /**
     * Checks the connection options against the connector before anything starts: every
     * --db-setting must be one the connector reads, values it can check without a connection must
     * be valid, credentials must be ones it takes.
     */
    public static void check(String name, ConnectionOptions connection) {
        DatabaseProvider provider = provider(name);
        connection.validate(name);
        requireKnown(provider, name, connection.extra.keySet());
        boolean passwordGiven = connection.password != null || connection.passwordFile != null;
        String refused = connection.user != null && !provider.knowsSetting("user")
                ? "--db-user"
                : passwordGiven && !provider.knowsSetting("password") ? "--db-password" : null;
        if (refused != null) {
            throw new UserError("database " + name + " takes no " + refused
                    + (name.equals("mongodb") ? "; put the credentials into the mongodb:// URI of --db-url" : ""));
        }
        if ((connection.user != null || connection.password != null || connection.passwordFile != null)
                && connection.url == null) {
            throw new UserError(
                    "--db-user and --db-password go with --db-url; the suite's local servers have generated passwords");
        }
        refuseCredentials(connection.extra.keySet(), "--db-setting ");
        if (connection.url != null
                && UrlPassword.split(connection.url).password() != null
                && (connection.password != null || connection.passwordFile != null)) {
            throw new UserError("--db-url holds a password and --db-password gives one too; give it once");
        }
        checkValues(provider, connection, Map.of());
        if (connection.url == null && LocalServers.supports(name)) {
            new LocalServers(Home.work(), new PrintWriter(Writer.nullWriter()))
                    .running(name)
                    .ifPresent(running -> LocalServers.requireProfile(running, connection.profile()));
        }
    }

    /**
     * Checks connector settings added to the connection's (a matrix cell's --db-settings value) as
     * {@link #check} checks --db-setting: known to the connector, valid where it can tell without a
     * connection, and no credentials.
     */
    public static void checkAdded(String name, ConnectionOptions connection, Map<String, String> added) {
        DatabaseProvider provider = provider(name);
        requireKnown(provider, name, added.keySet());
        refuseCredentials(added.keySet(), "--db-settings ");
        checkValues(provider, connection, added);
    }

    /** The user and password come with --db-url and its options, never as a connector setting given {@code where}. */
    private static void refuseCredentials(Set<String> keys, String where) {
        for (String credential : List.of("user", "password")) {
            if (keys.contains(credential)) {
                throw new UserError("give the " + credential + " with --db-" + credential
                        + (credential.equals("password") ? " (or --db-password-file)" : "")
                        + " and --db-url, not " + where + credential
                        + "; the suite's local servers have generated passwords");
            }
        }
    }

    private static void requireKnown(DatabaseProvider provider, String name, Iterable<String> keys) {
        for (String key : keys) {
            if (!provider.knowsSetting(key)) {
                throw new UserError("database " + name + " has no setting '" + key + "'; its settings: "
                        + (provider.settingNames().isEmpty() ? "none" : String.join(", ", provider.settingNames())));
            }
        }
    }

    private static void checkValues(
            DatabaseProvider provider, ConnectionOptions connection, Map<String, String> added) {
        Map<String, String> given = new LinkedHashMap<>();
        if (connection.url != null) {
            given.put("url", connection.url);
        }
        given.putAll(connection.extra); // as open() will
        given.putAll(added);
        try {
            provider.checkSettings(new DatabaseSettings(given));
        } catch (DatabaseException e) {
            throw new UserError(e.getMessage());
        }
    }

    /**
     * The connections a job opens on the suite's own server must fit the server's max_connections:
     * one per processing instance, and with async:K on a connector without asynchronous calls K more
     * each, besides the runner's own. Checked before anything starts; an external server's limit is
     * its own, and a job that cannot open its connections there fails saying so.
     */
    public static void checkConnections(String name, AccessMode access, int parallelism, ConnectionOptions connection) {
        if (connection.url != null || !LocalServers.supports(name)) {
            return;
        }
        OptionalInt limit = LocalServers.maxConnections(name);
        if (limit.isEmpty()) {
            return;
        }
        boolean ownConnectionsPerCall = access.kind() == AccessMode.Kind.ASYNC
                && !provider(name).create().asynchronous();
        long perInstance = 1L + (ownConnectionsPerCall ? access.size() : 0);
        long needed = perInstance * parallelism + RUNNER_CONNECTIONS;
        if (needed > limit.getAsInt()) {
            long mostCalls = ((long) limit.getAsInt() - RUNNER_CONNECTIONS) / parallelism - 1;
            throw new UserError("--access " + access + " at parallelism " + parallelism + " opens " + needed + " "
                    + name + " connections (" + perInstance + " per processing instance"
                    + (ownConnectionsPerCall ? ", one for each call in flight" : "") + ", and the runner's), more"
                    + " than the suite's own " + name + " server takes (max_connections " + limit.getAsInt() + "); "
                    + (ownConnectionsPerCall && mostCalls >= 1
                            ? "give async:" + mostCalls + " or fewer"
                            : "lower --parallelism"));
        }
    }

    /** The runner's own connection (reset, prefill, verification) beside the job's. */
    private static final int RUNNER_CONNECTIONS = 1;

    /** Refuses a fault on the database ({@code kill-db}, {@code freeze-db}) where it is not the suite's own server to kill and start again. */
    public static void checkFault(ExperimentSpec spec, ConnectionOptions connection) {
        Fault fault = spec.fault();
        if (fault == null || !fault.kind().onDatabase()) {
            return;
        }
        if (connection.url != null || !LocalServers.supports(spec.database())) {
            throw new UserError("--fault " + fault.kind().cliName() + " is for the suite's own " + spec.database()
                    + " server, which it can stop and start again"
                    + (LocalServers.supports(spec.database()) ? "; leave out --db-url" : "; the suite has none"));
        }
    }

    public static DatabaseSession open(String name, ConnectionOptions connection, PrintWriter out) {
        check(name, connection);
        DatabaseProvider provider = provider(name);
        Map<String, String> settings = new LinkedHashMap<>();
        LocalServers servers = new LocalServers(Home.work(), out);
        boolean startedHere = false;
        ServerState state = null;
        Lease lease = null;
        CleanupOnExit.Registration stopOnExit = () -> {};
        if (connection.url != null) {
            UrlPassword url = UrlPassword.split(connection.url);
            settings.put("url", url.url());
            if (provider.knowsSetting("user")) {
                settings.put("user", connection.user == null ? "" : connection.user);
            }
            String password = url.password() != null ? url.password() : connection.password();
            if (provider.knowsSetting("password") && !password.isEmpty()) {
                settings.put("password", password);
            } else if (provider.knowsSetting("user")) {
                settings.put("password", password);
            }
        } else if (provider.storesData()) {
            if (!LocalServers.supports(name)) {
                throw new UserError("the suite has no local " + name + " server; pass --db-url to use an external one");
            }
            lease = servers.lease(name);
            // registered before the start, so that Ctrl-C while the server starts stops it too
            stopOnExit = CleanupOnExit.register("stop the local " + name + " server", () -> servers.running(name)
                    .filter(DatabaseSession::ownedByThisProcess)
                    .ifPresent(started -> servers.stop(name)));
            try {
                state = servers.start(
                        name, connection.localPort(name), "--db-port", connection.profile(), !connection.keepDb);
            } catch (RuntimeException e) {
                stopOnExit.close();
                lease.close();
                throw e;
            }
            startedHere = ownedByThisProcess(state);
            if (!startedHere) {
                stopOnExit.close();
            }
            settings.putAll(state.settings());
        }
        settings.putAll(connection.extra);
        try {
            Database database = Databases.open(name, new DatabaseSettings(settings));
            return new DatabaseSession(
                    name,
                    provider,
                    settings,
                    database,
                    servers,
                    startedHere,
                    new AtomicReference<>(state),
                    new AtomicInteger(),
                    stopOnExit,
                    lease);
        } catch (DatabaseException e) {
            stopOnExit.close();
            if (startedHere) {
                servers.stop(name);
            }
            if (lease != null) {
                lease.close();
            }
            throw new UserError(e.getMessage()
                    + (connection.url == null
                            ? ""
                            : LocalServers.supports(name)
                                    ? "; is it running? check --db-url, start the suite's own with ./bench db start "
                                            + name + " (or leave out --db-url and bench run starts it)"
                                    : "; check --db-url"));
        }
    }

    /** The session's connection; after the server was started again, a new one. */
    public synchronized Database database() {
        int starts = serverStarts.get();
        if (connectedAtStart != starts) {
            closeQuietly(database);
            database = Databases.open(name, new DatabaseSettings(settings));
            connectedAtStart = starts;
        }
        return database;
    }

    private static void closeQuietly(Database database) {
        try {
            database.close();
        } catch (RuntimeException e) {
            // a server that died cannot be closed cleanly
        }
    }

    /**
     * Sends {@code signal} (KILL, STOP, CONT) to every process of the suite's own server: the
     * runner's faults on the database ({@code --fault kill-db}, {@code freeze-db}).
     */
    void signalServer(String signal) {
        ServerState state = requireLocalServer();
        List<ProcessHandle> processes = serverProcesses();
        if (processes.isEmpty()) {
            throw new IllegalStateException("the local " + name + " server (pid " + state.pid() + ") does not run");
        }
        processes.forEach(process -> LocalServers.signal(process, signal));
        if (signal.equals("KILL")) {
            // a start finds the server still running until every process of it is gone
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(KILLED_GONE_SECONDS);
            for (ProcessHandle process : processes) {
                try {
                    process.onExit().get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (ExecutionException | TimeoutException e) {
                    throw new IllegalStateException("process " + process.pid() + " of the local " + name
                            + " server outlived SIGKILL by " + KILLED_GONE_SECONDS + " s");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /** After {@link #signalServer signalServer("KILL")}: starts the server again on its data, as it was started; connections are opened again. */
    void restartServer() {
        ServerState state = requireLocalServer();
        localServer.set(servers.start(name, state.port(), "--db-port", state.profile(), serverOwnedHere()));
        serverStarts.incrementAndGet();
    }

    /** Whether the suite's own server was started for this run, which stops it at its end. */
    boolean serverOwnedHere() {
        ServerState state = localServer.get();
        return state != null && ownedByThisProcess(state);
    }

    private ServerState requireLocalServer() {
        ServerState state = localServer.get();
        if (state == null) {
            throw new IllegalStateException("no local " + name + " server: the suite only injects faults into its own");
        }
        return state;
    }

    /**
     * A session on this session's server whose connector has {@code added} settings besides this
     * one's (a matrix cell's --db-settings value), so that reset, prefill, the job and the
     * verification all use them: its own connection, closed with it; the server stays this
     * session's, and closing it stops nothing.
     */
    public DatabaseSession withAddedSettings(Map<String, String> added) {
        Map<String, String> merged = new LinkedHashMap<>(settings);
        merged.putAll(added);
        return new DatabaseSession(
                name,
                provider,
                merged,
                Databases.open(name, new DatabaseSettings(merged)),
                servers,
                false,
                localServer,
                serverStarts,
                () -> {},
                null);
    }

    /** The suite's own server's processes that still run, with every process they started; empty for an external one. */
    public List<ProcessHandle> serverProcesses() {
        ServerState state = localServer.get();
        if (state == null) {
            return List.of();
        }
        return state.processes().stream()
                .flatMap(process -> process.handle().stream())
                .flatMap(handle -> ProcessUsage.tree(handle).stream())
                .toList();
    }

    /** The folder of the suite's own server (its data, its log); empty for an external one. */
    public Optional<Path> serverFolder() {
        return localServer.get() == null ? Optional.empty() : Optional.of(servers.dir(name));
    }

    /** Whether the database is a server the suite started (now or with bench db start), whose processes it can watch. */
    public boolean localServer() {
        return localServer.get() != null;
    }

    boolean storesData() {
        return provider.storesData();
    }

    public Map<String, String> settings() {
        return settings;
    }

    /** The server's version, labelled when it is the suite's local server; an emulator says so either way. */
    public String version() {
        ServerState state = localServer.get();
        return state != null ? state.version() : database().serverVersion();
    }

    /** The durability profile the suite's own server was started with; null for an external server. */
    String profile() {
        ServerState state = localServer.get();
        return state == null ? null : state.profile().cliName();
    }

    /** Why killing the suite's own server may lose writes it acknowledged; empty for an external server. */
    Optional<String> killLosesAcknowledgedWrites() {
        ServerState state = localServer.get();
        return state == null ? Optional.empty() : LocalServers.killLosesAcknowledgedWrites(name, state.profile());
    }

    /** A warning that belongs next to every number measured against this database, or null. */
    public String note() {
        ServerState state = localServer.get();
        return state != null ? state.note() : database().serverCaveat();
    }

    /**
     * Lets the database write out what reset and prefill left in memory and logs: the connector's
     * part, and for the suite's own server what its client protocol cannot do. Returns what was done.
     */
    public String settle() {
        String done;
        try {
            done = database().settle();
        } catch (DatabaseException e) {
            // e.g. an external server that does not grant the privilege: the run goes on, and its result says so
            done = "nothing settled: " + e.getMessage();
        }
        ServerState state = localServer.get();
        if (state != null) {
            done += LocalServers.settle(state, settings)
                    .map(serverSide -> "; " + serverSide)
                    .orElse("");
        }
        return done;
    }

    /**
     * Why the database cannot be used any more (its local server died, or it does not answer a new
     * connection within {@value #PROBE_SECONDS} s), or empty if it answers.
     */
    Optional<String> unreachable() {
        return unreachable(PROBE_SECONDS);
    }

    /** As {@link #unreachable()}, waiting {@code probeSeconds} for a new connection's answer. */
    Optional<String> unreachable(int probeSeconds) {
        ServerState state = localServer.get();
        if (state != null && servers.running(name).isEmpty()) {
            return Optional.of("the local " + name + " server (pid " + state.pid() + ") is no longer running; see "
                    + servers.dir(name).resolve("server.log"));
        }
        if (!provider.storesData()) {
            return Optional.empty();
        }
        CompletableFuture<Optional<String>> probe = CompletableFuture.supplyAsync(() -> {
            try (Database fresh = Databases.open(name, new DatabaseSettings(settings))) {
                fresh.serverVersion();
                return Optional.empty();
            } catch (RuntimeException e) {
                return Optional.of("the database stopped answering: " + e.getMessage());
            }
        });
        try {
            return probe.get(probeSeconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            return Optional.of(
                    "the database stopped answering: a new connection got no answer within " + probeSeconds + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException e) {
            return Optional.of("the database stopped answering: " + e.getCause());
        }
    }

    @Override
    public void close() {
        synchronized (this) {
            closeQuietly(database);
        }
        if (stopServerOnClose) {
            servers.stop(name);
        }
        stopServerOnExit.close();
        if (lease != null) {
            lease.close();
        }
    }

    private static boolean ownedByThisProcess(ServerState state) {
        return state.owner() != null
                && state.owner().pid() == ProcessHandle.current().pid();
    }

    private static String known() {
        return String.join(", ", Databases.providers().keySet());
    }
}
