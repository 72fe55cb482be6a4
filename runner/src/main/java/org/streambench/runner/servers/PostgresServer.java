package org.streambench.runner.servers;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/** PostgreSQL 17 from the zonky embedded binaries (a real postgres server process). */
final class PostgresServer implements LocalServer {

    private EmbeddedPostgres postgres;

    @Override
    public void start(Path dir, int port) throws Exception {
        Path binaries = Files.createDirectories(dir.resolve("binaries"));
        postgres = EmbeddedPostgres.builder()
                .setPort(port)
                .setDataDirectory(dir.resolve("data"))
                .setCleanDataDirectory(false)
                .setOverrideWorkingDirectory(binaries.toFile())
                .setRegisterShutdownHook(false)
                .setPGStartupWait(Duration.ofSeconds(60))
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("max_connections", "200")
                .start();
    }


    @Override
    public void close() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
    }
}
