package org.streambench.runner.servers;

import java.nio.file.Path;

/** A real database server living inside its holder JVM ({@link ServerMain}). */
interface LocalServer extends AutoCloseable {

    /** Starts the server with its data under {@code dir}; returns once it was started. */
    void start(Path dir, int port) throws Exception;

    @Override
    void close() throws Exception;

    static LocalServer create(String database) {
        return switch (database) {
            case "postgresql" -> new PostgresServer();
            case "mariadb" -> new MariaDbServer();
            default -> throw new IllegalArgumentException("no in-JVM server for " + database);
        };
    }
}
