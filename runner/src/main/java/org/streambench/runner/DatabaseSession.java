package org.streambench.runner;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import org.streambench.db.Database;
import org.streambench.db.DatabaseException;
import org.streambench.db.DatabaseProvider;
import org.streambench.db.DatabaseSettings;
import org.streambench.db.Databases;
import org.streambench.runner.servers.LocalServers;
import org.streambench.runner.servers.ServerState;

/**
 * The database of a command: reached by its settings, or the suite's local server, started here
 * if it is not running (and stopped again at the end unless --keep-db).
 */
final class DatabaseSession implements AutoCloseable {

    private final String name;
    private final DatabaseProvider provider;
    private final Map<String, String> settings;
    private final Database database;
    private final LocalServers servers;
    private final boolean stopServerOnClose;
    private final ServerState localServer;

    private DatabaseSession(String name, DatabaseProvider provider, Map<String, String> settings, Database database,
                            LocalServers servers, boolean stopServerOnClose, ServerState localServer) {
        this.name = name;
        this.provider = provider;
        this.settings = settings;
        this.database = database;
        this.servers = servers;
        this.stopServerOnClose = stopServerOnClose;
        this.localServer = localServer;
    }

    static DatabaseProvider provider(String name) {
        return Databases.provider(name).orElseThrow(() -> new UserError("unknown database '" + name + "'; use one of: " + known()));
    }

    static DatabaseSession open(String name, ConnectionOptions connection, PrintWriter out) {
        DatabaseProvider provider = provider(name);
        Map<String, String> settings = new LinkedHashMap<>();
        LocalServers servers = new LocalServers(Home.work(), out);
        boolean startedHere = false;
        ServerState state = null;
        if (connection.url != null) {
            settings.put("url", connection.url);
            settings.put("user", connection.user == null ? "" : connection.user);
            settings.put("password", connection.password == null ? "" : connection.password);
        } else if (provider.storesData()) {
            if (!LocalServers.supports(name)) {
                throw new UserError("the suite has no local " + name + " server; pass --db-url to use an external one");
            }
            boolean running = servers.running(name).isPresent();
            state = servers.start(name, connection.localPort != null ? connection.localPort : LocalServers.defaultPort(name));
            startedHere = !running && !connection.keepDb;
            settings.putAll(state.settings());
        }
        settings.putAll(connection.extra);
        try {
            Database database = Databases.open(name, new DatabaseSettings(settings));
            return new DatabaseSession(name, provider, settings, database, servers, startedHere, state);
        } catch (DatabaseException e) {
            if (startedHere) {
                servers.stop(name);
            }
            throw new UserError(e.getMessage() + (connection.url == null ? ""
                    : LocalServers.supports(name) ? "; is it running? check --db-url, start the suite's own with ./bench db start " + name
                            + " (or leave out --db-url and bench run starts it)" : "; check --db-url"));
        }
    }

    Database database() {
        return database;
    }

    boolean storesData() {
        return provider.storesData();
    }

    Map<String, String> settings() {
        return settings;
    }

    /** The server's version, labelled when it is the suite's local server; an emulator says so either way. */
    String version() {
        return localServer != null ? localServer.version() : database.serverVersion();
    }

    /** A warning that belongs next to every number measured against this database, or null. */
    String note() {
        return localServer != null ? localServer.note() : database.serverCaveat();
    }

    @Override
    public void close() {
        database.close();
        if (stopServerOnClose) {
            servers.stop(name);
        }
    }

    private static String known() {
        return String.join(", ", Databases.providers().keySet());
    }
}
