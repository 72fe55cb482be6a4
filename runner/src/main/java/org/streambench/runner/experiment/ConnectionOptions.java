package org.streambench.runner.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.streambench.local.UserError;
import org.streambench.operators.ExperimentSpec;
import org.streambench.servers.DbProfile;
import org.streambench.servers.LocalServers;
import picocli.CommandLine.Option;

/** Where the database is: an external one by its settings, or the suite's own local server. */
public final class ConnectionOptions {

    @Option(
            names = "--db-url",
            description = "Connection URL of an external database (e.g. jdbc:postgresql://host:5432/db). "
                    + "Without it, the suite starts its own local server.")
    public String url;

    @Option(names = "--db-user", description = "User for --db-url.")
    String user;

    @Option(
            names = "--db-password",
            description = "Password for --db-url (visible in ps: prefer --db-password-file or $"
                    + ExperimentSpec.PASSWORD_ENVIRONMENT + ").")
    String password;

    @Option(
            names = "--db-password-file",
            paramLabel = "FILE",
            description = "File whose first line is the password for --db-url.")
    Path passwordFile;

    @Option(
            names = "--db-setting",
            paramLabel = "KEY=VALUE",
            description = "Any other connector setting (e.g. table=t1); repeatable.")
    Map<String, String> extra = new LinkedHashMap<>();

    @Option(
            names = "--db-port",
            paramLabel = "PORT",
            description = "Port of the local server, if the suite starts one (default: the database's own).")
    String localPort;

    @Option(names = "--keep-db", description = "Leave a local server this command started running afterwards.")
    boolean keepDb;

    @Option(
            names = "--db-profile",
            defaultValue = "default",
            description = "Durability of the suite's own server: default (the vendor's), fast (PostgreSQL without"
                    + " fsync and synchronous commit, MariaDB flushing its log once a second, HBase's WAL"
                    + " asynchronous; Cassandra and the MongoDB emulator unchanged) or durable (every acknowledged"
                    + " write survives a crash: Cassandra's commit log batch-synced, HBase's WAL fsynced, Redis's"
                    + " AOF fsynced at every write; PostgreSQL and MariaDB as by default; refused by the servers"
                    + " that keep nothing on disk) (default: ${DEFAULT-VALUE}).")
    String profile;

    /** Whether --db-setting (or a spec file's db-setting mapping) sets {@code key}. */
    public boolean sets(String key) {
        return extra.containsKey(key);
    }

    /** Entries of a spec file's db-setting mapping; the command line wins per key. */
    public void useSpecFileMappings(Map<String, Map<String, String>> mappingsByOption) {
        mappingsByOption.getOrDefault("db-setting", Map.of()).forEach(extra::putIfAbsent);
    }

    /** The password for --db-url: --db-password, else the first line of --db-password-file, else the environment, else empty. */
    String password() {
        if (password != null) {
            return password;
        }
        if (passwordFile != null) {
            try {
                return Files.readAllLines(passwordFile).stream().findFirst().orElse("");
            } catch (IOException e) {
                throw new UserError("cannot read --db-password-file " + passwordFile + " (" + e.getMessage() + ")");
            }
        }
        String fromEnvironment = System.getenv(ExperimentSpec.PASSWORD_ENVIRONMENT);
        return fromEnvironment == null ? "" : fromEnvironment;
    }

    /** The local server's port: --db-port or the database's default. */
    int localPort(String database) {
        return localPort == null
                ? LocalServers.defaultPort(database)
                : localServerPort("--db-port", localPort, database);
    }

    /**
     * A port for the local server of {@code database} given as {@code option}: 1024 to 65535 (lower
     * ports need root, and PostgreSQL runs unprivileged), with every further port the server binds
     * (Cassandra's and HBase's next two) below 65536 too.
     */
    public static int localServerPort(String option, String text, String database) {
        int port = Inputs.port(option, text);
        if (port < FIRST_UNPRIVILEGED_PORT) {
            throw new UserError(option + " " + port + ": the suite's local servers take ports from "
                    + FIRST_UNPRIVILEGED_PORT + " (lower ones need root, and PostgreSQL runs unprivileged)");
        }
        for (int each : LocalServers.ports(database, port)) {
            if (each > Inputs.MAX_PORT) {
                throw new UserError(option + " " + port + ": " + database + " also binds port " + each + ", beyond "
                        + Inputs.MAX_PORT + "; choose a lower port");
            }
        }
        return port;
    }

    private static final int FIRST_UNPRIVILEGED_PORT = 1024;

    /** The durability profile of the suite's own server. */
    DbProfile profile() {
        return DbProfile.parse("--db-profile", profile);
    }

    /** Checks what can be checked before anything starts. */
    void validate(String database) {
        if (profile() != DbProfile.DEFAULT && (url != null || !LocalServers.supports(database))) {
            throw new UserError("--db-profile " + profile + " sets up the suite's own servers; "
                    + (url != null
                            ? "an external server (--db-url) runs as it was configured (its durability is recorded"
                                    + " with every result)"
                            : database + " has none")
                    + "; leave out --db-profile");
        }
        if (url == null && LocalServers.supports(database)) {
            LocalServers.requireSupported(database, profile());
        }
        if (passwordFile != null && !Files.isReadable(passwordFile)) {
            throw new UserError("--db-password-file " + passwordFile
                    + " cannot be read; give a readable file whose first line is the password");
        }
        if (url != null && localPort != null) {
            throw new UserError("--db-port is the port of the suite's own server, which --db-url replaces; give the"
                    + " port in the --db-url and leave out --db-port");
        }
        if (password != null && passwordFile != null) {
            throw new UserError("give either --db-password or --db-password-file, not both");
        }
        if (url == null && LocalServers.supports(database)) {
            localPort(database);
        } else if (url == null && localPort != null) {
            Inputs.port("--db-port", localPort);
        }
    }
}
