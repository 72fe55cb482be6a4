package org.streambench.servers;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How one database's local server is launched, reached and secured: the optional part of a
 * database's folder ({@code db-connectors/<db>/server/}). A server module registers its kind in
 * {@code META-INF/services/org.streambench.servers.LocalServerKind}; {@link LocalServers} finds it
 * there and loads it with that module's own classpath, so what one server needs (binaries, a
 * driver) never meets another's or the runner's.
 */
public interface LocalServerKind {

    /** The connector's name, the one {@code bench db} and {@code --db} take. */
    String database();

    int defaultPort();

    /**
     * The full command of the server's own process, its data under {@code dir}, listening on
     * 127.0.0.1 only, as durable as {@code profile} says; {@code password} is the one generated
     * for this server (kept in {@code dir}).
     */
    List<String> command(Path dir, int port, String password, DbProfile profile) throws IOException;

    /** Whether the server keeps its data on disk; one that does not has no {@link DbProfile#DURABLE} profile. */
    default boolean keepsDataOnDisk() {
        return true;
    }

    /**
     * Whether every write the server acknowledged is still there when its process is SIGKILLed and
     * started again on its data, as {@code profile} configures it ({@code --fault kill-db}). By
     * default only the durable profile promises it; a server that keeps nothing on disk never does.
     */
    default boolean keepsAcknowledgedWritesThroughAKill(DbProfile profile) {
        return keepsDataOnDisk() && profile == DbProfile.DURABLE;
    }

    /** Connector settings that reach the secured server on {@code port}. */
    Map<String, String> settings(int port, String password);

    /** Connector settings that a server of {@code profile} adds to {@link #settings} (durability set by the client). */
    default Map<String, String> profileSettings(DbProfile profile) {
        return Map.of();
    }

    /** Settings that reach the server as it starts, before {@link #secure} ran; by default the final ones. */
    default Map<String, String> probeSettings(Path dir, int port, String password) {
        return settings(port, password);
    }

    /**
     * Whether the launched process says it has finished starting (a holder JVM secures its server
     * after it answers); the suite connects only after that.
     */
    default boolean launcherDone(Path dir) {
        return true;
    }

    /** Runs once the server answers to {@link #probeSettings}: e.g. replaces a default password by the generated one. */
    default void secure(Path dir, Map<String, String> probeSettings, String password) {}

    /**
     * What the server side adds to {@code Database#settle} for a server the suite runs (e.g. a
     * flush over JMX that the client protocol lacks); empty if nothing.
     */
    default Optional<String> settle(int port, Map<String, String> settings) {
        return Optional.empty();
    }

    /** What to record as the database version, from what the server reports. */
    default String label(String reportedVersion) {
        return reportedVersion;
    }

    /** A warning that belongs next to every number measured against this server, or null. */
    default String note() {
        return null;
    }

    /** The signal that shuts the server down quickly and cleanly, closing open client sessions. */
    default String stopSignal() {
        return "TERM";
    }

    /**
     * The most client connections the suite's server takes (the max_connections it is started with),
     * so a run that would open more is refused before it starts; empty when it sets no such limit.
     */
    default OptionalInt maxConnections() {
        return OptionalInt.empty();
    }

    /** Other ports the server binds besides {@code port}; they must be free too. */
    default List<Integer> extraPorts(int port) {
        return List.of();
    }
}
