package org.streambench.runner.servers;

import java.nio.file.Path;
import java.util.Map;

/** A real database server run from binaries that Maven Central ships; lives in its holder JVM. */
interface LocalServer extends AutoCloseable {

    /** Starts the server with its data under {@code dir}; returns the connector settings to reach it. */
    Map<String, String> start(Path dir, int port) throws Exception;


    @Override
    void close() throws Exception;

    static LocalServer create(String database) {
        return switch (database) {
            case "postgresql" -> new PostgresServer();
            case "mariadb" -> new MariaDbServer();
            default -> throw new IllegalArgumentException("no local server for " + database);
        };
    }
}
