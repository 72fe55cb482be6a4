package org.streambench.runner.servers;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** How one database's local server is launched, reached and secured. */
interface ServerKind {

    String database();

    int defaultPort();

    /**
     * The full command of the server's own process, its data under {@code dir}, listening on
     * 127.0.0.1 only; {@code password} is the one generated for this server (kept in {@code dir}).
     */
    List<String> command(Path dir, int port, String password) throws IOException;

    /** Connector settings that reach the secured server on {@code port}. */
    Map<String, String> settings(int port, String password);

    /** Settings that reach the server as it starts, before {@link #secure} ran; by default the final ones. */
    default Map<String, String> probeSettings(Path dir, int port, String password) {
        return settings(port, password);
    }

    /** Runs once the server answers to {@link #probeSettings}: e.g. replaces a default password by the generated one. */
    default void secure(Path dir, Map<String, String> probeSettings, String password) {
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

    /** Other ports the server binds besides {@code port}; they must be free too. */
    default List<Integer> extraPorts(int port) {
        return List.of();
    }
}
