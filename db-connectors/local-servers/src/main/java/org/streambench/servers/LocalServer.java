package org.streambench.servers;

import java.nio.file.Path;

/** A real database server living inside its holder JVM ({@link ServerMain#hold}). */
@SuppressWarnings("try") // close() may be interrupted: stopping a server waits for it
public interface LocalServer extends AutoCloseable {

    /**
     * Starts the server with its data under {@code dir}, secured with {@code password}, as durable
     * as {@code profile} says; returns once it was started.
     */
    void start(Path dir, int port, String password, DbProfile profile) throws Exception;

    @Override
    void close() throws Exception;
}
