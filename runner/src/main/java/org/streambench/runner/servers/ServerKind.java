package org.streambench.runner.servers;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** How one database's local server is launched and reached. */
interface ServerKind {

    String database();

    int defaultPort();

    /** The full command of the server's own JVM, its data under {@code dir}. */
    List<String> command(Path dir, int port) throws IOException;

    /** Connector settings that reach the server on {@code port}. */
    Map<String, String> settings(int port);

    /** What to record as the database version, from what the server reports. */
    default String label(String reportedVersion) {
        return reportedVersion;
    }

    /** A warning that belongs next to every number measured against this server, or null. */
    default String note() {
        return null;
    }

    /** Other ports the server binds besides {@code port}; they must be free too. */
    default List<Integer> extraPorts(int port) {
        return List.of();
    }
}
