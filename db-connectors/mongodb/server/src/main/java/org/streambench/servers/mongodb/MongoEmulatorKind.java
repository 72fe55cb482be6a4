package org.streambench.servers.mongodb;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.streambench.local.Home;
import org.streambench.servers.DbProfile;
import org.streambench.servers.LocalServerKind;

/**
 * The local "mongodb": mongo-java-server, a wire-protocol emulator, in its own JVM. Labelled
 * everywhere. Its data lives in an H2 MVStore on disk; the heap holds a query's results, which the
 * connector keeps small (see MongoDbDatabase).
 */
public final class MongoEmulatorKind implements LocalServerKind {

    @Override
    public String database() {
        return "mongodb";
    }

    @Override
    public int defaultPort() {
        return 17017;
    }

    @Override
    public boolean keepsDataOnDisk() {
        return false;
    }

    @Override
    public List<String> command(Path dir, int port, String password, DbProfile profile) {
        return List.of(
                Home.javaExecutable(),
                "-Xmx2g",
                "-cp",
                Home.classpathOf("db-connectors/mongodb/server"),
                "org.streambench.servers.mongodb.MongoEmulatorMain",
                Integer.toString(port),
                dir.toString());
    }

    @Override
    public Map<String, String> settings(int port, String password) {
        return Map.of("url", "mongodb://127.0.0.1:" + port);
    }

    @Override
    public String label(String reportedVersion) {
        return "mongo-java-server: " + reportedVersion;
    }

    @Override
    public String note() {
        return "MONGODB EMULATOR: the local 'mongodb' is mongo-java-server, a wire-protocol emulator, not MongoDB; "
                + "its numbers say nothing about MongoDB (point --db-url at a real MongoDB for that)";
    }
}
