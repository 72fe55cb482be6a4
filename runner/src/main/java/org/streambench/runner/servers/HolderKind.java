package org.streambench.runner.servers;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.streambench.runner.Home;

/** A server run from inside a holder JVM ({@link ServerMain}) on the runner's classpath. */
record HolderKind(String database, int defaultPort, String urlFormat, String user) implements ServerKind {

    @Override
    public List<String> command(Path dir, int port) {
        return List.of(Home.javaExecutable(), "-Xmx1g", "-cp", Home.classpathOf("runner"), ServerMain.class.getName(),
                database, Integer.toString(port), dir.toString());
    }

    @Override
    public Map<String, String> settings(int port) {
        return Map.of("url", String.format(urlFormat, port), "user", user, "password", "");
    }
}
